/**
 * The composition root: reads the configuration once, starts the server, and
 * shuts it down cleanly on SIGTERM / SIGINT.
 */
import pino from "pino";
import { ConfigError, loadConfig } from "./config.ts";
import { type RunningServer, startServer } from "./server.ts";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`hivekeep: configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel });
  // An error nothing caught leaves the process in a state nobody planned for: log one clear
  // fatal line and exit non-zero, so the supervisor (systemd, a container's restart policy;
  // README, "Running it") starts a fresh one. Only that: the handlers never carry on.
  const fatal = (kind: string) => (err: unknown) => {
    log.fatal({ err, kind }, "hivekeep: fatal error, exiting");
    process.exit(1);
  };
  process.on("uncaughtException", fatal("uncaught exception"));
  process.on("unhandledRejection", fatal("unhandled rejection"));
  // Signals are handled from the very start: a SIGTERM that arrives while the
  // server is still starting stops it as soon as it is up.
  let stopping: string | undefined;
  let running: RunningServer | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    if (running) shutdown(running, signal);
  };
  const shutdown = (server: RunningServer, signal: string) => {
    log.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      log.error("shutdown took longer than 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, "error during shutdown");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  try {
    running = await startServer(config, { log });
  } catch (err) {
    log.fatal({ err }, "hivekeep could not start");
    process.exit(1);
  }
  if (stopping) shutdown(running, stopping);
}

await main();

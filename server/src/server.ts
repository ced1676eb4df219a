/**
 * Starting and stopping one server process. main.ts (the composition root for
 * production) and the integration tests both use startServer.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import pino, { type Logger } from "pino";
import { v7 as uuidv7 } from "uuid";
import { type Config, isLoopback } from "./config.ts";
import type { Db } from "./db/db.ts";
import { openDb } from "./db/open-db.ts";
import { createApp } from "./http/app.ts";
import { localCallerInterceptor } from "./rpc/auth-interceptor.ts";
import type { Deps } from "./rpc/deps.ts";
import { type FeedNotifier, startFeedNotifier } from "./store/feed-notifier.ts";
import { newServerClock } from "./store/server-clock.ts";
import { ensureLocalTenant, localCaller } from "./store/tenants.ts";

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly db: Db;
  readonly log: Logger;
  readonly notifier: FeedNotifier;
  /** Stops accepting, drains in-flight requests, ends streams, closes the database. */
  close(): Promise<void>;
}

export async function startServer(
  config: Config,
  options: { log?: Logger; db?: Db; heartbeatMs?: number } = {},
): Promise<RunningServer> {
  const log = options.log ?? pino({ level: config.logLevel });
  if (config.auth === "login") {
    throw new Error("HIVEKEEP_AUTH=login is not available in this version; use HIVEKEEP_AUTH=none");
  }
  if (config.auth === "none" && !isLoopback(config.host)) {
    log.warn(
      { host: config.host },
      "HIVEKEEP_AUTH=none on a non-loopback address: anyone who can reach this port can read and change all data",
    );
  }

  const db =
    options.db ?? (await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  await ensureLocalTenant(db);
  const notifier = await startFeedNotifier(db);
  const shutdown = new AbortController();
  const deps: Deps = {
    db,
    clock: newServerClock(),
    newId: () => uuidv7(),
    notifier,
    log,
    shutdown: shutdown.signal,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
  };
  const app = createApp({
    deps,
    db,
    log,
    authInterceptor: localCallerInterceptor(localCaller),
    maxBodyBytes: config.maxBodyBytes,
    corsOrigins: config.corsOrigins,
    pwaDir: config.pwaDir,
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(s),
    );
    s.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  log.info({ url, database: db.kind, auth: config.auth }, "hivekeep listening");

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    db,
    log,
    notifier,
    close() {
      closing ??= (async () => {
        shutdown.abort();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ("closeIdleConnections" in server) server.closeIdleConnections();
        });
        await notifier.close();
        await db.close();
        log.info("hivekeep stopped");
      })();
      return closing;
    },
  };
}

/**
 * Starting and stopping one server process. main.ts (the composition root for
 * production) and the integration tests both use startServer.
 */
import { setMaxListeners } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import pino, { type Logger } from "pino";
import type { AuthSettings } from "./auth/settings.ts";
import { defaultThrottle, type ThrottleLimits } from "./auth/throttle.ts";
import { type Config, isLoopback } from "./config.ts";
import type { Db } from "./db/db.ts";
import { openDb } from "./db/open-db.ts";
import { createApp } from "./http/app.ts";
import { answerParserRefusals } from "./http/rpc-edge.ts";
import {
  authenticate,
  isPublicMethod,
  localCallerInterceptor,
  loginInterceptor,
} from "./rpc/auth-interceptor.ts";
import type { Deps } from "./rpc/deps.ts";
import { type DemoTenant, demoPreparer } from "./seed/demo.ts";
import { type FeedNotifier, startFeedNotifier } from "./store/feed-notifier.ts";
import { newIdSource } from "./store/new-id.ts";
import { newServerClock, ServerClock } from "./store/server-clock.ts";
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

export class StartupError extends Error {
  override name = "StartupError";
}

export interface StartOptions {
  readonly log?: Logger;
  readonly db?: Db;
  readonly heartbeatMs?: number;
  /** Sign-in throttling (tests lower or raise the limits). */
  readonly throttle?: ThrottleLimits;
  /** The server clock's wall time in ms (default Date.now; tests move it). */
  readonly now?: () => number;
}

export async function startServer(
  config: Config,
  options: StartOptions = {},
): Promise<RunningServer> {
  const log = options.log ?? pino({ level: config.logLevel });
  if (config.auth === "none" && !isLoopback(config.host)) {
    log.warn(
      { host: config.host },
      "HIVEKEEP_AUTH=none on a non-loopback address: anyone who can reach this port can read and change all data",
    );
  }

  const db =
    options.db ?? (await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  try {
    if (config.auth === "none") await ensureLocalTenant(db);
    else await checkLoginReady(db, config);
  } catch (err) {
    if (!options.db) await db.close();
    throw err;
  }
  const notifier = await startFeedNotifier(db);
  const shutdown = new AbortController();
  // Connect links every call's signal to this one (a listener per call in flight, each
  // Subscribe stream's for as long as it is open, removed when the call ends): hundreds are
  // normal, and Node's "possible EventTarget memory leak" warning past ten would be a false alarm.
  setMaxListeners(0, shutdown.signal);
  // The demo preparer needs the finished deps (it seeds through the RPCs).
  let prepareDemo: (() => Promise<DemoTenant>) | undefined;
  const auth: AuthSettings = {
    mode: config.auth,
    sessionTtlMs: config.sessionTtlMs,
    signup: config.signup,
    throttle: options.throttle ?? { ...defaultThrottle, perAddress: config.signInPerAddress },
    ...(config.auth === "login" && config.demo
      ? { demo: () => (prepareDemo as () => Promise<DemoTenant>)() }
      : {}),
  };
  const deps: Deps = {
    db,
    clock: options.now ? new ServerClock(newServerClock().node, options.now) : newServerClock(),
    newId: newIdSource(),
    notifier,
    log,
    shutdown: shutdown.signal,
    auth,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
  };
  if (auth.demo) {
    prepareDemo = demoPreparer(deps);
    // Seed in the background; StartDemo waits for it.
    prepareDemo().catch((err: unknown) => {
      if (!shutdown.signal.aborted) log.error({ err }, "seeding the demo organization failed");
    });
  }
  const app = createApp({
    deps,
    db,
    log,
    authInterceptor:
      config.auth === "login" ? loginInterceptor(db) : localCallerInterceptor(localCaller),
    ...(config.auth === "login"
      ? {
          edgeAuth: {
            isPublic: isPublicMethod,
            authenticate: (authorization: string | null) => authenticate(db, authorization),
          },
        }
      : {}),
    maxBodyBytes: config.maxBodyBytes,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    pwaDir: config.pwaDir,
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(s),
    );
    s.once("error", reject);
  });
  answerParserRefusals(server);
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

/**
 * Login mode refuses to start when nobody could ever sign in: sign-up closed,
 * no demo, no account with a password and no open invitation.
 */
async function checkLoginReady(db: Db, config: Config): Promise<void> {
  if (config.signup === "open" || config.demo) return;
  const [row] = await db.query(
    `select 1 as ok from memberships m join users u on u.id = m.user_id
      where u.password_hash is not null
     union all
     select 1 from invitations where accepted_at is null and expires_at > now()
     limit 1`,
  );
  if (!row) {
    throw new StartupError(
      "HIVEKEEP_AUTH=login with HIVEKEEP_SIGNUP=closed, but no account exists yet, so nobody " +
        "could sign in: issue an invitation with `pnpm invite --email <you>` and sign up with " +
        "it, or start once with HIVEKEEP_SIGNUP=open",
    );
  }
}

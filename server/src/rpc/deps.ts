import type { Logger } from "pino";
import type { AuthEnv, AuthSettings } from "../auth/settings.ts";
import type { Db } from "../db/db.ts";
import type { FeedNotifier } from "../store/feed-notifier.ts";
import type { ServerClock } from "../store/server-clock.ts";

/** What the RPC handlers need; built once by the composition root. */
export interface Deps extends AuthEnv {
  readonly db: Db;
  readonly clock: ServerClock;
  readonly newId: () => string;
  readonly notifier: FeedNotifier;
  readonly log: Logger;
  /** Aborted when the server shuts down (ends Subscribe streams). */
  readonly shutdown: AbortSignal;
  /** Absent = single-user mode. */
  readonly auth?: AuthSettings;
  /** Subscribe heartbeat interval (default 25 s; tests shorten it). */
  readonly heartbeatMs?: number;
}

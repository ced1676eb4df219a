import type { Logger } from "pino";
import type { ThrottleLimits } from "../auth/throttle.ts";
import type { Db } from "../db/db.ts";
import type { FeedNotifier } from "../store/feed-notifier.ts";
import type { ServerClock } from "../store/server-clock.ts";

/** How callers are authenticated (DESIGN.md §5). */
export interface AuthSettings {
  readonly mode: "none" | "login";
  readonly sessionTtlMs: number;
  readonly signup: "open" | "closed";
  /** Resolves when the demo organization is ready; absent when demo sessions are off. */
  readonly demo?: () => Promise<{ organizationId: string; userId: string }>;
  readonly throttle: ThrottleLimits;
}

/** What the RPC handlers need; built once by the composition root. */
export interface Deps {
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

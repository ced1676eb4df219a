import type { CommandContext, EntitySpec, Hlc } from "@hivekeep/client-core/core";
import type { Logger } from "pino";
import type { ThrottleLimits } from "../auth/throttle.ts";
import type { Db, Queryable, Row } from "../db/db.ts";
import type { FeedNotifier } from "../store/feed-notifier.ts";
import { getLive } from "../store/rows.ts";
import type { ServerClock } from "../store/server-clock.ts";
import { unpackClock } from "../store/stored-clock.ts";
import type { Caller } from "./context.ts";

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

export function commandContext(deps: Deps, caller: Caller): CommandContext {
  return {
    now: new Date(deps.clock.nowMs()),
    authorId: caller.userId,
    newId: deps.newId,
    stamp: () => deps.clock.stamp(),
  };
}

/** Lets the server clock see a row's stamps before it stamps an edit of it. */
export function observeClock(deps: Deps, clock: Readonly<Record<string, Hlc>> | undefined): void {
  for (const hlc of Object.values(clock ?? {})) deps.clock.observe(hlc);
}

/**
 * A live row the command is about to edit, read inside the write transaction;
 * the server clock observes its stamps so the edit wins last-writer-wins.
 */
export async function rowForEdit(
  deps: Deps,
  tx: Queryable,
  spec: EntitySpec,
  organizationId: string,
  id: string,
): Promise<Row | undefined> {
  const row = await getLive(tx, spec, organizationId, id);
  if (row) observeClock(deps, unpackClock(row.clock));
  return row;
}

/**
 * Pulls the feed into the replica: pages from the stored cursor until `hasMore` is false, each
 * merged with its cursor in one transaction (replica-sync.ts applyPulled). A cursor the server
 * refuses (its database was reset) restarts from ""; the outbox is kept. The same function runs
 * in the page (Node, tests) and in the pull Worker (browsers: pull-worker.ts), where merging
 * thousands of rows never blocks the page.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Change } from "../core/change.ts";
import { parseCursor } from "../core/cursor.ts";
import type { EntityName } from "../core/entities.ts";
import type { Hlc } from "../core/hlc.ts";
import type { PullPage, SyncChange } from "../protocol/wire.ts";
import type { ReplicaDb } from "./replica-db.ts";
import { applyPulled, metaKeys, pulledToEnd, unechoedAtStart } from "./replica-sync.ts";

/** A pulled change: the server validated and normalised it. */
export const fromWire = (c: SyncChange): Change => ({
  entity: c.entity as EntityName,
  entityId: c.entityId,
  scopeId: c.scopeId,
  op: c.op === 2 ? "delete" : "upsert",
  payload: c.payloadJson === "" ? {} : (JSON.parse(c.payloadJson) as Change["payload"]),
  hlc: c.hlc as Hlc,
  authorId: c.authorId,
});

export type PageSource = (cursor: string, limit: number) => AsyncIterable<PullPage>;

export interface PullResult {
  /** The greatest stamp pulled (the device clock receives it). */
  readonly maxSeen: Hlc | undefined;
  /** The server's time from the last page (the device clock measures its offset). */
  readonly serverTimeMs: number | undefined;
  readonly changes: number;
  /** The pull stopped after `maxPages` with more of the feed to come. */
  readonly more: boolean;
}

/** How far a pull has come, after each page merged into the replica. */
export interface PullProgress {
  /** Changes merged so far by this pull. */
  readonly changes: number;
  /**
   * About how many are left: the feed's end (the server's `headCursor`) minus the cursor
   * reached, in feed positions (rows the caller cannot read count too); undefined when the
   * server does not say.
   */
  readonly left: number | undefined;
  /** More pages follow. */
  readonly more: boolean;
}

/** About how many changes of the feed follow `next` (see PullProgress.left). */
export function changesLeft(page: PullPage): number | undefined {
  if (!page.hasMore) return 0;
  if (page.headCursor === "") return undefined;
  try {
    return Math.max(0, parseCursor(page.headCursor) - parseCursor(page.nextCursor));
  } catch {
    return undefined;
  }
}

/** The feed cursor the replica has pulled to: "" before its first page. */
export async function storedCursor(db: ReplicaDb): Promise<string> {
  const stored = (await db.meta.get(metaKeys.cursor))?.value;
  return typeof stored === "string" ? stored : "";
}

/**
 * Pulls to the end of the feed, or `maxPages` pages; `limit` 1 stops after the first page (to
 * learn the time). Each page is merged in its own transaction, so live queries (the screens)
 * fill as pages arrive; `onPage` hears how far it has come after each. The next page is taken
 * from `pages` while one merges (when more follow and this pull will take them).
 */
export async function pullFeed(
  db: ReplicaDb,
  pages: PageSource,
  limit: number,
  maxPages = Number.POSITIVE_INFINITY,
  onPage?: (progress: PullProgress) => void,
): Promise<PullResult> {
  const cursor = await storedCursor(db);
  const unechoed = await unechoedAtStart(db);
  let cutoffMs: number | undefined;
  let maxSeen: Hlc | undefined;
  let serverTimeMs: number | undefined;
  let changes = 0;
  let more = false;
  let taken = 0;
  const source = pages(cursor, limit)[Symbol.asyncIterator]();
  // The page after the one being merged, asked for meanwhile (only when one more is wanted).
  let ahead: Promise<IteratorResult<PullPage>> | undefined;
  try {
    for (;;) {
      const next = await (ahead ?? source.next());
      ahead = undefined;
      if (next.done) break;
      const page = next.value;
      serverTimeMs = page.serverTimeMs ?? serverTimeMs;
      cutoffMs = page.readingsCutoffMs ?? cutoffMs;
      taken += 1;
      more = page.hasMore;
      const last = !more || limit === 1 || taken >= maxPages;
      if (!last) {
        // Read and decoded while this page merges (the request went out with the last page's
        // headers: the server names the next cursor there), in the merge's waits on IndexedDB.
        ahead = source.next();
        ahead.catch(() => {});
      }
      const seen = await applyPulled(
        db,
        page.changes.map(fromWire),
        page.nextCursor,
        page.readingsCutoffMs,
      );
      changes += page.changes.length;
      if (seen !== undefined && (maxSeen === undefined || seen > maxSeen)) maxSeen = seen;
      onPage?.({ changes, left: changesLeft(page), more });
      if (last) break;
    }
    // Ends the source: a request it asked for ahead (the server's hint) is cancelled.
    void source.return?.()?.catch(() => {});
  } catch (err) {
    void source.return?.()?.catch(() => {});
    const ce = ConnectError.from(err);
    // Pull takes only the cursor and the limit: invalid_argument means the server does not
    // know the cursor (its database was reset). Start over; the outbox stays.
    if (ce.code !== Code.InvalidArgument || cursor === "") throw ce;
    await db.meta.put({ key: metaKeys.cursor, value: "" });
    return pullFeed(db, pages, limit, maxPages, onPage);
  }
  // At the feed's end the echoes of what was confirmed before this pull began are in.
  if (!more) await pulledToEnd(db, unechoed, cutoffMs);
  return { maxSeen, serverTimeMs, changes, more };
}

/**
 * The feed side of a sync cycle: pulls the feed to its end (in the page, or in the pull Worker
 * for a long feed) and listens to the Subscribe stream for the loop. Every pull tells the device
 * clock the server's time and the greatest stamp seen.
 */
import { parseCursor } from "../core/cursor.ts";
import type { DeviceClock } from "./device-clock.ts";
import { type PullProgress, type PullResult, pullFeed, storedCursor } from "./pull-feed.ts";
import type { ReplicaDb } from "./replica-db.ts";
import type { StreamEvents } from "./sync-loop.ts";
import type { SyncTransport } from "./sync-transport.ts";

/**
 * Changes of a pull merged in the page before the rest goes to the pull Worker: 500 merge in
 * about 30 ms (a 5000-change page blocked the page for 290–338 ms), under the 50 ms of a task a
 * user would feel.
 */
export const inThreadPullLimit = 500;

export interface FeedDelegateOptions {
  readonly db: ReplicaDb;
  readonly transport: SyncTransport;
  readonly clock: DeviceClock;
  /** Pulls in a dedicated Worker; absent = in this thread. */
  readonly pullInWorker?:
    | ((
        limit: number,
        token: string | undefined,
        onProgress?: (progress: PullProgress) => void,
      ) => Promise<PullResult>)
    | undefined;
}

export class FeedDelegate {
  constructor(private readonly options: FeedDelegateOptions) {}

  /**
   * Pulls to the end of the feed in pages of `limit` (1: one page, to learn the server's time):
   * in the pull Worker when there is one, else here. `onPage` hears how far it has come after
   * each page, counted from the start of this pull wherever the page was merged.
   */
  async pull(limit: number, onPage?: (progress: PullProgress) => void): Promise<void> {
    const { db, transport, pullInWorker } = this.options;
    const here = (l: number, maxPages?: number) =>
      pullFeed(db, (cursor, size) => transport.pages(cursor, size), l, maxPages, onPage);
    if (pullInWorker === undefined || limit === 1) {
      this.observe(await here(limit));
      return;
    }
    // Most pulls (a poke's few changes, a small account's first sync) fit one small page,
    // merged here in a few milliseconds: the Worker is never loaded. A longer feed goes on in
    // the Worker, so merging it never blocks the page.
    const first = await here(Math.min(limit, inThreadPullLimit), 1);
    this.observe(first);
    if (!first.more) return;
    const rest = await pullInWorker(
      limit,
      await transport.token(),
      onPage && ((p) => onPage({ ...p, changes: first.changes + p.changes })),
    );
    this.observe(rest);
  }

  private observe(result: PullResult): void {
    const { clock } = this.options;
    clock.observeServerTime(result.serverTimeMs);
    if (result.maxSeen !== undefined) clock.observe(result.maxSeen);
  }

  /**
   * The Subscribe stream from the stored cursor until it ends: every message shows it alive; a
   * poke naming a cursor the replica has not reached means the feed is ahead (until a pull
   * passes it).
   */
  async listen(signal: AbortSignal, events: StreamEvents): Promise<void> {
    const { db, transport } = this.options;
    for await (const poke of transport.subscribe(await storedCursor(db), signal)) {
      events.alive();
      const stillBehind = async () => behind(poke, await storedCursor(db));
      if (poke !== "" && (await stillBehind())) events.behind(stillBehind);
    }
  }
}

/** Whether the feed's cursor `poke` is past `stored` (cursor.ts; unreadable ones: if they differ). */
function behind(poke: string, stored: string): boolean {
  try {
    return parseCursor(poke) > parseCursor(stored);
  } catch {
    return poke !== stored;
  }
}

/**
 * Fan-out of "the feed of tenant X advanced to seq N". Writers NOTIFY inside
 * their transaction (tenant-write.ts); every server process LISTENs once and
 * wakes its local subscribers. On Postgres this crosses processes; PGlite
 * delivers notifications in process. A lost poke is harmless: devices Pull.
 */
import type { Db } from "../db/db.ts";

export const feedChannel = "hivekeep_feed";

export type FeedListener = (seq: number) => void;

export interface FeedNotifier {
  /** Calls listener whenever the tenant's feed advances; returns the unsubscribe. */
  subscribe(organizationId: string, listener: FeedListener): () => void;
  /** How many listeners are registered (ended streams must leave none behind). */
  size(): number;
  close(): Promise<void>;
}

export async function startFeedNotifier(db: Db): Promise<FeedNotifier> {
  const listeners = new Map<string, Set<FeedListener>>();
  const unlisten = await db.listen(feedChannel, (payload) => {
    const sep = payload.lastIndexOf(":");
    const org = payload.slice(0, sep);
    const seq = Number(payload.slice(sep + 1));
    for (const l of listeners.get(org) ?? []) l(seq);
  });
  return {
    subscribe(organizationId, listener) {
      const set = listeners.get(organizationId) ?? new Set();
      set.add(listener);
      listeners.set(organizationId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(organizationId);
      };
    },
    size() {
      let n = 0;
      for (const set of listeners.values()) n += set.size;
      return n;
    },
    async close() {
      listeners.clear();
      await unlisten();
    },
  };
}

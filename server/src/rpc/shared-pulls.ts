/**
 * Identical Pulls share one read of the feed (issue 14, fan-out: a write
 * pokes every stream of a tenant, and their devices all Pull the same page
 * within a few hundred ms, one feed scan each). Pulls are identical when they
 * ask the same tenant, user, cursor, limit and encoding (photos by reference or not); a Pull takes the page
 * of an identical read, running or done, only when the feed head it read
 * itself, after it arrived, equals the head that read began with. The head
 * rises with every change of the tenant's feed (the same transaction writes
 * both, and changes are never rewritten), so equal heads mean the feed did not
 * change between the two: the page is the one the Pull would have read itself,
 * and a device still reads its own writes. The Pull still reads the head
 * (one small query), it skips the scan. A page is kept `keptMs` after its
 * read is done, then forgotten: what is kept is at most the pages read in the
 * last second, which were in memory for their responses anyway.
 */
import type { Queryable } from "../db/db.ts";

/** What makes two Pulls identical, and the head each read after it arrived. */
export interface PullQuestion {
  readonly binary: boolean;
  /** Photos by reference (PullRequest.photo_refs). */
  readonly photoRefs: boolean;
  /** The readings window's cutoff (ms), if any (PullRequest.reading_days). */
  readonly cutoffMs: number | undefined;
  readonly organizationId: string;
  readonly userId: string;
  readonly after: number;
  readonly limit: number;
  readonly head: number;
}

interface Read {
  readonly head: number;
  readonly page: Promise<unknown>;
}

const perDatabase = new WeakMap<Queryable, Map<string, Read>>();

/** How long a page read is kept for identical Pulls. */
export const keptMs = 1_000;

/** `read()`'s page, or that of an identical read (running or just done) on the same feed head. */
export function sharedPull<Page>(
  db: Queryable,
  question: PullQuestion,
  read: () => Promise<Page>,
): Promise<Page> {
  const reads = perDatabase.get(db) ?? new Map<string, Read>();
  perDatabase.set(db, reads);
  const { binary, photoRefs, cutoffMs, organizationId, userId, after, limit, head } = question;
  const encoding = `${binary ? "binary" : "json"}${photoRefs ? "+refs" : ""}${cutoffMs === undefined ? "" : `+window${cutoffMs}`}`;
  const key = `${encoding} ${organizationId} ${userId} ${after} ${limit}`;
  const same = reads.get(key);
  if (same !== undefined && same.head === head) return same.page as Promise<Page>;
  const page = read();
  const entry = { head, page };
  reads.set(key, entry);
  const forget = () => {
    if (reads.get(key) === entry) reads.delete(key);
  };
  // A failed read is forgotten at once: the next Pull reads again.
  page.then(() => setTimeout(forget, keptMs).unref(), forget);
  return page;
}

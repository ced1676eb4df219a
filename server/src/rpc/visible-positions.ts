/**
 * The newest feed position a Subscribe stream may be poked with, read once
 * for all the streams of one tenant and one visibility instead of once per
 * stream. A write wakes every stream of its tenant at the same moment, each
 * asking "the last seq in (sent, latest] this user may read"; the answer
 * depends only on the tenant, the user (`readableScopeSql`: every scope but other
 * users' personal ones) and the range, and never changes once the feed has
 * reached `latest` (sequence numbers up to a notified one are committed). So
 * per tenant and user this keeps the last question asked, its range
 * (after, upTo] and its answer (a promise: a query still running is shared):
 *
 *   - the same upTo, an `after` at or past the kept one → the kept answer
 *     (the newest visible seq of the wider range, if it is past `after`,
 *     is the newest of the narrower one; otherwise none is visible);
 *   - a higher upTo, `after` at or past the kept one → only (kept upTo, upTo]
 *     is read, and its answer, or else the kept one, is the newest visible
 *     seq of the wider range: the kept range grows, one query per advance;
 *   - anything else (a stream further behind) → its own query.
 *
 * So 200 streams of one user cost one query per advance of the feed, each
 * over just the new changes (it was 200, issue 14). Entries live while a
 * stream of that tenant and user is open, and are kept per database.
 */
import type { Queryable } from "../db/db.ts";
import { lastVisibleSeq } from "../store/feed.ts";

/** One stream's view: the positions its caller may read. */
export interface VisiblePositions {
  /** The last sequence number in (after, upTo] the caller may read, if any. */
  lastVisible(after: number, upTo: number): Promise<number | undefined>;
  /** The stream ended; forgets the shared answer once no stream of the caller is left. */
  close(): void;
}

interface Kept {
  readonly after: number;
  readonly upTo: number;
  /** The newest visible seq in (after, upTo], or undefined: none. */
  readonly answer: Promise<number | undefined>;
}

interface Shared {
  streams: number;
  kept?: Kept;
}

const perDatabase = new WeakMap<Queryable, Map<string, Shared>>();

/** The visible positions of `userId` in the tenant's feed, shared with the caller's other streams. */
export function visiblePositions(
  db: Queryable,
  organizationId: string,
  userId: string,
): VisiblePositions {
  const byCaller = perDatabase.get(db) ?? new Map<string, Shared>();
  perDatabase.set(db, byCaller);
  const key = `${organizationId} ${userId}`;
  const shared = byCaller.get(key) ?? { streams: 0 };
  byCaller.set(key, shared);
  shared.streams++;
  let closed = false;

  const read = (after: number, upTo: number) =>
    lastVisibleSeq(db, organizationId, userId, after, upTo);
  const keep = (kept: Kept) => {
    shared.kept = kept;
    // A failed query is not an answer: the next question asks again.
    kept.answer.catch(() => {
      if (shared.kept === kept) shared.kept = undefined;
    });
  };

  return {
    async lastVisible(after, upTo) {
      const kept = shared.kept;
      let answer: Promise<number | undefined>;
      if (kept !== undefined && after >= kept.after && upTo === kept.upTo) {
        answer = kept.answer;
      } else if (kept !== undefined && after >= kept.after && upTo > kept.upTo) {
        const newer = read(kept.upTo, upTo);
        answer = Promise.all([kept.answer, newer]).then(([older, seq]) => seq ?? older);
        keep({ after: kept.after, upTo, answer });
      } else {
        answer = read(after, upTo);
        if (kept === undefined || upTo > kept.upTo) keep({ after, upTo, answer });
      }
      const seq = await answer;
      return seq !== undefined && seq > after ? seq : undefined;
    },
    close() {
      if (closed) return;
      closed = true;
      if (--shared.streams === 0 && byCaller.get(key) === shared) byCaller.delete(key);
    },
  };
}

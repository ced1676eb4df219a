/**
 * Which queen reigned in a hive at a time: the latest one whose reign (introduced_at, or
 * created_at when that is unset, … replaced_at, open while unset) covers it; none before the
 * first. Inspections, treatments and harvests freeze her as of their date (ops/hive-at.ts), and
 * so do the inspections of an OpenBeehive backup, which name no queen (transfer/openbeehive.ts).
 */
import type { Values } from "./merge.ts";

interface QueenLike {
  readonly id: string;
  readonly values: Values;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * @param queens the hive's live queens, in any order.
 * @param at RFC 3339 (canonical: string order is time order).
 */
export function queenAt<Q extends QueenLike>(queens: readonly Q[], at: string): Q | undefined {
  const start = (q: Q): string => text(q.values.introduced_at) || text(q.values.created_at);
  const latestFirst = [...queens].sort((a, b) => {
    const sa = start(a);
    const sb = start(b);
    if (sa !== sb) return sa < sb ? 1 : -1;
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  });
  return latestFirst.find((q) => {
    const from = start(q);
    const until = text(q.values.replaced_at);
    return from !== "" && from <= at && (until === "" || until > at);
  });
}

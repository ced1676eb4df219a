/**
 * Where a hive stood at a time: the placement whose interval (started_at … ended_at, open while
 * ended_at is null) covers it; before the first placement, the first one. Inspections,
 * treatments and harvests freeze that apiary as of their date (ops/hive-at.ts), and so does the
 * server's repair of concurrent queen introductions (invariants.ts).
 */
import type { Values } from "./merge.ts";

interface PlacementLike {
  readonly id: string;
  readonly values: Values;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * @param placements the hive's live placements, in any order.
 * @param at RFC 3339 (canonical: string order is time order).
 */
export function placementAt<P extends PlacementLike>(
  placements: readonly P[],
  at: string,
): P | undefined {
  const ordered = [...placements].sort((a, b) => {
    const sa = text(a.values.started_at);
    const sb = text(b.values.started_at);
    if (sa !== sb) return sa < sb ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  const covering = ordered.find((p) => {
    const ended = text(p.values.ended_at);
    return text(p.values.started_at) <= at && (ended === "" || ended > at);
  });
  return covering ?? ordered[0];
}

/**
 * Thinning a long series for a chart (issue 29): three years of 15-minute readings are about
 * 105,000 points, a phone's chart is a few hundred pixels wide. Min/max per bucket: the x range
 * is cut into time buckets, and of each bucket the lowest and the highest point are kept (a
 * pixel column of the chart then draws the same vertical stroke as with every point), plus the
 * first and the newest point of the series. So a swarm's drop or a honey flow's peak is never
 * averaged away, and the latest value is always drawn.
 *
 * Stable: the buckets are aligned to whole multiples of their width counted from the epoch, and
 * the width is taken from a fixed ladder (one minute times a power of two) that covers the span,
 * so a new reading at the end changes only the last bucket (until the span needs the next rung),
 * and equal input gives equal output. Ties keep the earliest point.
 */

/** The point values a chart draws: `null`/`undefined`/NaN are "not measured here". */
export type MaybeValue = number | null | undefined;

const minuteSec = 60;

/** The bucket width (seconds) for `buckets` buckets over `span` seconds: 60 s × 2^k. */
export function bucketWidth(span: number, buckets: number): number {
  const wanted = span / Math.max(1, buckets);
  let width = minuteSec;
  while (width < wanted) width *= 2;
  return width;
}

const isValue = (v: MaybeValue): v is number => typeof v === "number" && !Number.isNaN(v);

/**
 * The indices (ascending) of the points to draw of `y` over `x` (seconds, ascending) with about
 * `buckets` buckets: per bucket its minimum and maximum, and the series' first and newest point.
 * Points without a value are never kept. A series of at most 2 × buckets values is kept whole.
 */
export function downsample(
  x: readonly number[],
  y: readonly MaybeValue[],
  buckets: number,
): number[] {
  let first = -1;
  let last = -1;
  let count = 0;
  for (let i = 0; i < x.length; i++) {
    if (!isValue(y[i])) continue;
    if (first < 0) first = i;
    last = i;
    count++;
  }
  if (first < 0) return [];
  const all = (): number[] => {
    const out: number[] = [];
    for (let i = first; i <= last; i++) if (isValue(y[i])) out.push(i);
    return out;
  };
  if (count <= 2 * buckets) return all();

  const width = bucketWidth((x[last] as number) - (x[first] as number), buckets);
  const keep: number[] = [first];
  let bucket = Number.NaN;
  let lo = -1;
  let hi = -1;
  const flush = () => {
    if (lo < 0) return;
    const a = Math.min(lo, hi);
    const b = Math.max(lo, hi);
    if (a !== keep[keep.length - 1]) keep.push(a);
    if (b !== a) keep.push(b);
  };
  for (let i = first; i <= last; i++) {
    const v = y[i];
    if (!isValue(v)) continue;
    const k = Math.floor((x[i] as number) / width);
    if (k !== bucket) {
      flush();
      bucket = k;
      lo = i;
      hi = i;
      continue;
    }
    if (v < (y[lo] as number)) lo = i;
    if (v > (y[hi] as number)) hi = i;
  }
  flush();
  if (keep[keep.length - 1] !== last) keep.push(last);
  return keep;
}

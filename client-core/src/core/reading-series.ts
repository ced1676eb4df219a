/**
 * A hive's measurements over a long range as per-bucket aggregates (issue 29): what
 * `InspectionService.GetReadingSeries` answers and what a device computes over the readings it
 * holds. The one rule; the server's SQL (server/src/store/reading-series-sql.ts) answers exactly
 * what `readingSeries` answers over the same rows (test/contract/reading-series.test.ts).
 *
 * - **Which rows**: the live inspections of the hive (readings and visits alike: a hand-weighing
 *   beekeeper's visits are his weight chart) dated in `[from, to)` that have at least one of the
 *   five numeric measurements set. The weather is words, not a figure.
 * - **Set**: a finite number other than 0 (the contract's unset is 0: a scale that measures no
 *   humidity sends 0, and hive-history's charts never draw a 0 either).
 * - **Buckets**: `bucketDays` whole UTC days, aligned to multiples of their width from the epoch
 *   (1970-01-01T00:00Z), so a bucket's bounds never depend on the range asked for: one day is
 *   one UTC day, and the same day asked for twice is the same bucket. Empty buckets are left out.
 * - **Figures** per column over the bucket's rows that have it set: count, min, max and the
 *   mean, which is the sum in the order of (date, id) divided by the count. The order is fixed
 *   so that SQL and TypeScript add the same doubles in the same order and agree to the bit.
 */
import { invalid } from "./domain-error.ts";

/** The measurements a series aggregates (the numeric measurement columns). */
export const seriesColumns = [
  "weight_kg",
  "temp_hive",
  "temp_outside",
  "humidity_hive",
  "humidity_outside",
] as const;

export type SeriesColumn = (typeof seriesColumns)[number];

export const seriesDayMs = 86_400_000;
/** The longest range one call may ask for (about ten years). */
export const maxSeriesDays = 3660;
export const maxBucketDays = 366;

/**
 * The span (Unix ms) a hive page's charts read, their longest period ("All"): `maxSeriesDays`
 * up to the end of the device's local today, the same all day (a chart is not read anew for a
 * clock that moved). The device fetches the same span ahead (reading-series-cache.ts
 * `keepAhead`), so a page opened later finds it cached.
 */
export function chartSeriesSpan(nowMs: number): [number, number] {
  const end = new Date(nowMs);
  end.setHours(24, 0, 0, 0);
  const to = end.getTime();
  return [to - maxSeriesDays * seriesDayMs, to];
}

export interface ColumnStats {
  readonly count: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
}

export interface SeriesBucket {
  /** Unix ms of the bucket's first instant (a UTC midnight). */
  readonly start: number;
  /** Rows in the bucket with at least one measurement set. */
  readonly count: number;
  /** A column none of the bucket's rows has set is absent. */
  readonly columns: Partial<Record<SeriesColumn, ColumnStats>>;
}

/** One live inspection of the hive as the rule reads it. */
export interface SeriesRow {
  readonly id: string;
  /** Unix ms of its date. */
  readonly at: number;
  readonly values: Readonly<Partial<Record<SeriesColumn, unknown>>>;
}

/** Whether a measurement is set: a finite number other than 0. */
export const isSeriesValue = (v: unknown): v is number =>
  typeof v === "number" && Number.isFinite(v) && v !== 0;

/** The first instant (Unix ms) of the bucket holding `atMs`. */
export function bucketStart(atMs: number, bucketDays: number): number {
  const width = bucketDays * seriesDayMs;
  return Math.floor(atMs / width) * width;
}

/** The range and width of a request, checked: invalid_argument naming the field. */
export function seriesRange(
  fromMs: number | undefined,
  toMs: number,
  bucketDays: number,
): { fromMs: number; toMs: number; bucketDays: number } {
  if (fromMs === undefined) throw invalid("from", "from is required: the range's start");
  if (!Number.isInteger(bucketDays) || bucketDays < 0 || bucketDays > maxBucketDays) {
    throw invalid("bucketDays", `bucketDays must be 0 (one day) to ${maxBucketDays}`);
  }
  if (!(fromMs < toMs)) throw invalid("to", "to must be after from");
  if (toMs - fromMs > maxSeriesDays * seriesDayMs) {
    throw invalid("to", `a series spans at most ${maxSeriesDays} days`);
  }
  return { fromMs, toMs, bucketDays: bucketDays === 0 ? 1 : bucketDays };
}

interface Acc {
  count: number;
  min: number;
  max: number;
  sum: number;
}

/** Orders rows as the rule adds them: date, then id by code unit (SQL `collate "C"`). */
export function compareSeriesRows(a: SeriesRow, b: SeriesRow): number {
  if (a.at !== b.at) return a.at - b.at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The buckets of `rows` (the live inspections of one hive, in any order) in `[fromMs, toMs)`,
 * oldest first.
 */
export function readingSeries(
  rows: Iterable<SeriesRow>,
  fromMs: number,
  toMs: number,
  bucketDays: number,
): SeriesBucket[] {
  const inRange: SeriesRow[] = [];
  for (const row of rows) {
    if (row.at < fromMs || row.at >= toMs) continue;
    if (!seriesColumns.some((c) => isSeriesValue(row.values[c]))) continue;
    inRange.push(row);
  }
  inRange.sort(compareSeriesRows);
  const buckets: SeriesBucket[] = [];
  let start = Number.NaN;
  let count = 0;
  let accs: Partial<Record<SeriesColumn, Acc>> = {};
  const close = () => {
    if (count === 0) return;
    const columns: Partial<Record<SeriesColumn, ColumnStats>> = {};
    for (const c of seriesColumns) {
      const a = accs[c];
      if (a) columns[c] = { count: a.count, min: a.min, max: a.max, mean: a.sum / a.count };
    }
    buckets.push({ start, count, columns });
  };
  for (const row of inRange) {
    const b = bucketStart(row.at, bucketDays);
    if (b !== start) {
      close();
      start = b;
      count = 0;
      accs = {};
    }
    count++;
    for (const c of seriesColumns) {
      const v = row.values[c];
      if (!isSeriesValue(v)) continue;
      const a = accs[c];
      if (a === undefined) accs[c] = { count: 1, min: v, max: v, sum: v };
      else {
        a.count++;
        if (v < a.min) a.min = v;
        if (v > a.max) a.max = v;
        a.sum += v;
      }
    }
  }
  close();
  return buckets;
}

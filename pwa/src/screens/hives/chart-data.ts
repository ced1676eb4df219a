/**
 * What a hive's long charts draw (issue 29): the days before the readings window as the day
 * buckets of `client.readings.series` (the server's, cached on the device), each drawn as two
 * points, the day's lowest value at 06:00 UTC and its highest at 18:00 UTC, so the line spans
 * the day's range (the min/max of `downsample`, at a day's resolution: a swarm's drop is never
 * averaged away); from the window's first day on, the device's own readings themselves.
 */
import {
  downsample,
  type SeriesBucket,
  type SeriesColumn,
  seriesDayMs,
} from "@hivekeep/client-core/core";
import type { ReadingColumns } from "@hivekeep/client-core/ops";
import { measured } from "../../ui/charts/series.ts";

const hourMs = 3_600_000;

/** A chart column of ReadingColumns and the series column it draws. */
export const columnOf: Readonly<Record<SeriesColumn, keyof Omit<ReadingColumns, "at">>> = {
  weight_kg: "weightKg",
  temp_hive: "tempHive",
  temp_outside: "tempOutside",
  humidity_hive: "humidityHive",
  humidity_outside: "humidityOutside",
};

const seriesKeys = Object.keys(columnOf) as SeriesColumn[];

export interface ChartData {
  /** The points to draw, oldest first: the buckets' first (`fromBuckets` rows), then readings. */
  readonly columns: ReadingColumns;
  /** How many leading rows stand for buckets (not readings of their own). */
  readonly fromBuckets: number;
  /** Per column, how many measurements the buckets stand for. */
  readonly bucketCounts: Readonly<Record<SeriesColumn, number>>;
}

const empty = (): { -readonly [K in keyof ReadingColumns]: number[] } => ({
  at: [],
  weightKg: [],
  tempHive: [],
  tempOutside: [],
  humidityHive: [],
  humidityOutside: [],
});

/**
 * The buckets before `cutoff` as points, then the readings of `local` from `cutoff` on; without
 * buckets (none asked for, or not read yet), `local` as it is. With `from` (a period's start,
 * Unix ms), only the buckets of the UTC days that reach into the period: a period cut from a
 * longer series counts the measurements a series asked for that period would.
 */
export function chartData(
  local: ReadingColumns,
  buckets: readonly SeriesBucket[] | undefined,
  cutoff: number,
  from?: number,
): ChartData {
  const bucketCounts = Object.fromEntries(seriesKeys.map((k) => [k, 0])) as Record<
    SeriesColumn,
    number
  >;
  if (buckets === undefined) return { columns: local, fromBuckets: 0, bucketCounts };
  const out = empty();
  for (const b of buckets) {
    if (b.start >= cutoff) break;
    if (from !== undefined && b.start + seriesDayMs <= from) continue;
    for (const [offset, pick] of [
      [6 * hourMs, "min"],
      [18 * hourMs, "max"],
    ] as const) {
      out.at.push(b.start + offset);
      for (const k of seriesKeys) out[columnOf[k]].push(b.columns[k]?.[pick] ?? 0);
    }
    for (const k of seriesKeys) bucketCounts[k] += b.columns[k]?.count ?? 0;
  }
  const fromBuckets = out.at.length;
  for (let i = 0; i < local.at.length; i++) {
    const at = local.at[i] as number;
    if (at < cutoff) continue;
    out.at.push(at);
    for (const k of seriesKeys) out[columnOf[k]].push(local[columnOf[k]][i] ?? 0);
  }
  return { columns: out, fromBuckets, bucketCounts };
}

/** The measurement fields of one inspection: what the charts draw. */
export interface Reading {
  readonly date: Date | undefined;
  readonly weight: number;
  readonly tempHive: number;
  readonly tempOutside: number;
  readonly humidityHive: number;
  readonly humidityOutside: number;
}

/** The readings (columns) as rows, those of `indices` only. */
export function rowsAt(r: ReadingColumns, indices: readonly number[]): Reading[] {
  return indices.map((i) => ({
    date: new Date(r.at[i] as number),
    weight: r.weightKg[i] ?? 0,
    tempHive: r.tempHive[i] ?? 0,
    tempOutside: r.tempOutside[i] ?? 0,
    humidityHive: r.humidityHive[i] ?? 0,
    humidityOutside: r.humidityOutside[i] ?? 0,
  }));
}

/**
 * Buckets per chart: one per CSS pixel of the widest a chart is drawn on this screen (min/max
 * per bucket then draws every pixel column as all the points would), at least 300.
 */
export function chartBuckets(): number {
  const width = typeof window === "undefined" ? 1024 : window.innerWidth;
  return Math.max(300, Math.min(1600, Math.round(width)));
}

/**
 * The points to draw of some fields between `from` and the end (indices into the columns): the
 * union of each field's min/max thinning (client-core's `downsample`), so each line keeps its
 * extremes and its newest value; and how many values each field has in the period among the
 * rows from `fromBuckets` on (the ones before stand for day buckets, counted apart).
 */
export function thinned(
  r: ReadingColumns,
  fields: readonly (readonly number[])[],
  from: number | undefined,
  buckets: number,
  fromBuckets: number,
): { indices: number[]; counts: number[] } {
  let start = 0;
  if (from !== undefined) while (start < r.at.length && (r.at[start] as number) < from) start++;
  const x = r.at.slice(start).map((ms) => ms / 1000);
  const keep = new Set<number>();
  const counts = fields.map((values) => {
    const ys = values.slice(start).map((v) => (measured(v) ? v : undefined));
    for (const i of downsample(x, ys, buckets)) keep.add(start + i);
    return ys.filter((v, i) => v !== undefined && start + i >= fromBuckets).length;
  });
  return { indices: [...keep].sort((a, b) => a - b), counts };
}

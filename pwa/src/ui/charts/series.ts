/**
 * Shaping records into chart series (pure, no uPlot): measurements over time with gaps, and a
 * summary of a series for its text alternative.
 *
 * A chart's data is uPlot's aligned form: one x array (Unix seconds, ascending) and one array
 * per series. In a series, `undefined` means "not measured at this x" (the line runs on to the
 * next measurement), `null` means "a gap" (the line breaks there).
 */

export type Value = number | null | undefined;

export interface TimeSeries {
  /** Unix seconds, ascending. */
  readonly x: readonly number[];
  /** One array per field, aligned with x. */
  readonly ys: readonly (readonly Value[])[];
}

/** A measurement field holds 0 when nothing was measured (the contract's "not set"). */
export function measured(v: number | undefined): v is number {
  return v !== undefined && Number.isFinite(v) && v !== 0;
}

const daySec = 86_400;

function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1
    ? (s[mid] as number)
    : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export interface GapOptions {
  /** A pause longer than this many typical intervals (the median) breaks the line. */
  readonly factor?: number;
  /** …but never a pause shorter than this (seconds). */
  readonly minGapSec?: number;
}

/**
 * The measurements of some fields over time. Only rows with a date and at least one of the
 * fields measured take part (a 0 is "not measured" and is never plotted). Rows are sorted by
 * date. Where a row lacks one field the line of that field runs on to its next measurement,
 * unless the pause is long (see GapOptions: 5 typical intervals, at least 2 days), where the
 * line breaks (the rows in between hold null): a scale that was off for a month shows as a gap, not as a straight line.
 */
export function measurementSeries<T>(
  rows: readonly T[],
  dateOf: (row: T) => Date | undefined,
  fields: readonly ((row: T) => number | undefined)[],
  options: GapOptions = {},
): TimeSeries {
  const factor = options.factor ?? 5;
  const minGap = options.minGapSec ?? 2 * daySec;
  const points = rows
    .map((row) => {
      const d = dateOf(row);
      const values = fields.map((f) => {
        const v = f(row);
        return measured(v) ? v : undefined;
      });
      return { t: d === undefined ? Number.NaN : d.getTime() / 1000, values };
    })
    .filter((p) => Number.isFinite(p.t) && p.values.some((v) => v !== undefined))
    .sort((a, b) => a.t - b.t);

  const intervals: number[] = [];
  for (let i = 1; i < points.length; i++) {
    intervals.push((points[i]?.t as number) - (points[i - 1]?.t as number));
  }
  const limit = Math.max(minGap, factor * median(intervals.filter((d) => d > 0)));

  // Every series breaks where the whole record pauses: a row of nulls in the middle.
  const x: number[] = [];
  const ys: Value[][] = fields.map(() => []);
  points.forEach((p, i) => {
    const prev = points[i - 1];
    if (prev !== undefined && p.t - prev.t > limit) {
      x.push((prev.t + p.t) / 2);
      for (const y of ys) y.push(null);
    }
    x.push(p.t);
    p.values.forEach((v, k) => {
      ys[k]?.push(v);
    });
  });

  // One series may pause while the others go on: its rows in between become gaps (uPlot
  // breaks a line only over a run of nulls).
  for (const y of ys) {
    let last = -1;
    for (let i = 0; i < y.length; i++) {
      const v = y[i];
      if (v === null) {
        last = -1;
        continue;
      }
      if (v === undefined) continue;
      if (last >= 0 && (x[i] as number) - (x[last] as number) > limit) {
        y.fill(null, last + 1, i);
      }
      last = i;
    }
  }
  return { x, ys };
}

export interface SeriesSummary {
  readonly count: number;
  readonly min: number;
  readonly max: number;
  readonly first: { readonly x: number; readonly value: number };
  readonly last: { readonly x: number; readonly value: number };
}

/** Count, range, first and latest value of one series; undefined when it has no value. */
export function summarize(
  x: readonly number[],
  values: readonly Value[],
): SeriesSummary | undefined {
  let out:
    | {
        count: number;
        min: number;
        max: number;
        first: { x: number; value: number };
        last: { x: number; value: number };
      }
    | undefined;
  values.forEach((v, i) => {
    if (v === null || v === undefined) return;
    const at = { x: x[i] as number, value: v };
    if (out === undefined) {
      out = { count: 1, min: v, max: v, first: at, last: at };
      return;
    }
    out.count++;
    out.min = Math.min(out.min, v);
    out.max = Math.max(out.max, v);
    out.last = at;
  });
  return out;
}

/** The rows of a value table: the x values with at least one value, newest first. */
export function tableRows(
  series: TimeSeries,
  limit: number,
): { readonly rows: { x: number; values: Value[] }[]; readonly total: number } {
  const rows: { x: number; values: Value[] }[] = [];
  for (let i = series.x.length - 1; i >= 0; i--) {
    const values = series.ys.map((y) => y[i]);
    if (values.some((v) => typeof v === "number")) rows.push({ x: series.x[i] as number, values });
  }
  return { rows: rows.slice(0, limit), total: rows.length };
}

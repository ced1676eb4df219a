/**
 * Axis labels in the reader's language (Intl), for the chart module (pure: no uPlot here).
 * A label may have two lines ("Jun\n2026"): the year is named where it starts and on the first
 * label, not on every one.
 */

const daySec = 86_400;

type TimeTicks = (splits: readonly number[], stepSec: number) => string[];
const timeTicksOf = new Map<string, TimeTicks>();

/**
 * Labels of time ticks (Unix seconds, local time), by the step between ticks: times of day
 * below a day (a midnight tick names its day instead), day and month below four weeks, months
 * below a year, else years. One per locale, made once (each chart drawn asks for it).
 */
export function timeTicks(locale: string): TimeTicks {
  let ticks = timeTicksOf.get(locale);
  if (ticks === undefined) {
    ticks = makeTimeTicks(locale);
    timeTicksOf.set(locale, ticks);
  }
  return ticks;
}

function makeTimeTicks(locale: string): TimeTicks {
  const time = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" });
  const dayMonth = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short" });
  const month = new Intl.DateTimeFormat(locale, { month: "short" });
  const year = new Intl.DateTimeFormat(locale, { year: "numeric" });
  return (splits, step) => {
    let lastYear: number | undefined;
    return splits.map((s) => {
      const d = new Date(s * 1000);
      const newYear = lastYear !== d.getFullYear();
      lastYear = d.getFullYear();
      const withYear = (label: string) => (newYear ? `${label}\n${year.format(d)}` : label);
      if (step < daySec) {
        return d.getHours() === 0 && d.getMinutes() === 0 ? dayMonth.format(d) : time.format(d);
      }
      if (step < 28 * daySec) return withYear(dayMonth.format(d));
      if (step < 365 * daySec) return withYear(month.format(d));
      return year.format(d);
    });
  };
}

/** Labels of month bars (year, month 1–12) at the given indices. */
export function monthTicks(
  locale: string,
  months: readonly { readonly year: number; readonly month: number }[],
): (indices: readonly number[]) => string[] {
  const month = new Intl.DateTimeFormat(locale, { month: "short", timeZone: "UTC" });
  return (indices) => {
    let lastYear: number | undefined;
    return indices.map((i) => {
      const m = months[i];
      if (m === undefined) return "";
      const label = month.format(new Date(Date.UTC(m.year, m.month - 1, 15)));
      const newYear = lastYear !== m.year;
      lastYear = m.year;
      return newYear ? `${label}\n${m.year}` : label;
    });
  };
}

/**
 * Which bars get a label: every `step`-th one counted back from the last (the current month is
 * always named), with `step` the smallest of 1, 2, 3, 4, 6, 12 that leaves each label `minPx`.
 */
export function barTickIndices(count: number, plotWidthPx: number, minPx: number): number[] {
  if (count <= 0) return [];
  const slot = plotWidthPx / count;
  const step = [1, 2, 3, 4, 6, 12].find((s) => slot * s >= minPx) ?? 12;
  const out: number[] = [];
  for (let i = count - 1; i >= 0; i -= step) out.unshift(i);
  return out;
}

/** A value axis whose end ticks enclose the data: from `min` to `max` by `step`. */
export interface ValueAxis {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/** Steps of 1, 2 and 5 times a power of ten, from small to large. */
function* niceSteps(span: number): Generator<number> {
  let power = 10 ** Math.floor(Math.log10(span > 0 ? span : 1) - 1);
  for (;;) {
    for (const m of [1, 2, 5]) yield m * power;
    power *= 10;
  }
}

/** x to a multiple of step, without floating-point dust (0.30000000000000004). */
const onStep = (k: number, step: number) => Number((k * step).toPrecision(12));

/**
 * A value axis for data from `lo` to `hi` with at most `maxIntervals` gridlines between its
 * ends: the ends are ticks (every point lies between two labelled gridlines), and a value does
 * not sit on an end (a sixth of a step or so inside; a lone value gets room either side).
 */
export function valueAxis(lo: number, hi: number, maxIntervals = 4): ValueAxis {
  let from = Math.min(lo, hi);
  let to = Math.max(lo, hi);
  if (from === to) {
    const pad = Math.max(1, Math.abs(from) * 0.05);
    from -= pad;
    to += pad;
  }
  for (const step of niceSteps(to - from)) {
    let a = Math.floor(from / step);
    let b = Math.ceil(to / step);
    if (from - a * step < step * 0.15) a -= 1;
    if (b * step - to < step * 0.15) b += 1;
    if (b - a <= maxIntervals) return { min: onStep(a, step), max: onStep(b, step), step };
  }
  return { min: from, max: to, step: to - from };
}

/** The ticks of a value axis: min, min + step, … max. */
export function valueTicks(axis: ValueAxis): number[] {
  const n = Math.round((axis.max - axis.min) / axis.step);
  const first = Math.round(axis.min / axis.step);
  return Array.from({ length: n + 1 }, (_, i) => onStep(first + i, axis.step));
}

/**
 * The least top of a bar chart's value scale that leaves `labelPx` above the tallest bar (its
 * value is written there), on a plot `plotPx` high.
 */
export function barScaleTop(max: number, plotPx: number, labelPx: number): number {
  const top = max > 0 ? max : 1;
  return plotPx > labelPx * 2 ? (top * plotPx) / (plotPx - labelPx) : top * 2;
}

/** A bar's value label: where its middle is and how wide it is (pixels), and the value. */
export interface BarLabel {
  readonly center: number;
  readonly width: number;
  readonly value: number;
}

/**
 * Which bars get their value written above them: the tallest first, each where its text stays
 * within [left, right] and clear (by `gap`) of the labels already placed, so a label may reach
 * over an empty neighbour's slot but never over another label. Indices, ascending.
 */
export function placeBarLabels(
  labels: readonly BarLabel[],
  left: number,
  right: number,
  gap: number,
): number[] {
  const placed: { from: number; to: number }[] = [];
  const order = labels
    .map((l, i) => ({ ...l, i }))
    .filter((l) => l.value > 0)
    .sort((a, b) => b.value - a.value || a.i - b.i);
  const out: number[] = [];
  for (const l of order) {
    const from = l.center - l.width / 2;
    const to = l.center + l.width / 2;
    if (from < left || to > right) continue;
    if (placed.some((p) => from < p.to + gap && to > p.from - gap)) continue;
    placed.push({ from, to });
    out.push(l.i);
  }
  return out.sort((a, b) => a - b);
}

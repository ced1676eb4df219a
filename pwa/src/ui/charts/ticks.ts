/**
 * Axis labels in the reader's language (Intl), for the chart module (pure: no uPlot here).
 * A label may have two lines ("Jun\n2026"): the year is named where it starts and on the first
 * label, not on every one.
 */

const daySec = 86_400;

/**
 * Labels of time ticks (Unix seconds, local time), by the step between ticks: times of day
 * below a day (a midnight tick names its day instead), day and month below four weeks, months
 * below a year, else years.
 */
export function timeTicks(
  locale: string,
): (splits: readonly number[], stepSec: number) => string[] {
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

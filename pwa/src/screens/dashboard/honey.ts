/**
 * Honey per month (the dashboard's honey history) shaped for the bar chart. The service gives
 * only the months with a harvest (UTC calendar months, oldest first); the chart shows every month
 * of a window, a month without a harvest as 0 kg.
 */

export interface MonthKg {
  readonly year: number;
  /** 1–12 */
  readonly month: number;
  readonly kg: number;
}

const index = (m: { year: number; month: number }) => m.year * 12 + (m.month - 1);
const fromIndex = (i: number) => ({ year: Math.floor(i / 12), month: (i % 12) + 1 });

/**
 * The months to draw: at least the last `minMonths` up to the current month (a season at a
 * glance), reaching back to the first harvest but never more than `maxMonths`. A harvest dated
 * after the current month (a clock off) extends the window to it. Empty when there is no harvest.
 */
export function honeyBars(
  history: readonly MonthKg[],
  now: Date,
  options: { readonly minMonths?: number; readonly maxMonths?: number } = {},
): MonthKg[] {
  const minMonths = options.minMonths ?? 12;
  const maxMonths = Math.max(options.maxMonths ?? 24, minMonths);
  if (history.length === 0) return [];
  const kg = new Map<number, number>();
  for (const m of history) kg.set(index(m), (kg.get(index(m)) ?? 0) + m.kg);
  const keys = [...kg.keys()];
  const current = index({ year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 });
  const end = Math.max(current, ...keys);
  const start = Math.max(Math.min(end - minMonths + 1, ...keys), end - maxMonths + 1);
  const out: MonthKg[] = [];
  for (let i = start; i <= end; i++) out.push({ ...fromIndex(i), kg: kg.get(i) ?? 0 });
  return out;
}

/** Honey per calendar year, oldest first. */
export function honeyByYear(history: readonly MonthKg[]): { year: number; kg: number }[] {
  const years = new Map<number, number>();
  for (const m of history) years.set(m.year, (years.get(m.year) ?? 0) + m.kg);
  return [...years]
    .sort(([a], [b]) => a - b)
    .map(([year, kg]) => ({ year, kg: Math.round(kg * 1000) / 1000 }));
}

/** The months of the history outside the chart's window (their honey is in the year totals). */
export function monthsBefore(history: readonly MonthKg[], bars: readonly MonthKg[]): number {
  const first = bars[0];
  if (first === undefined) return 0;
  return history.filter((m) => index(m) < index(first)).length;
}

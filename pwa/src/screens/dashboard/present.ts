/**
 * What the overview derives from its data, without React: the recent visits and the best queens
 * joined from their rows, the figures' values, a task's due text, the readings line and the honey
 * chart. The words stay with the components (messages.ts); the rows' grouping is in recent.ts,
 * the honey months in honey.ts.
 */
import type {
  GetDashboardResponse,
  Hive,
  HoneyStat,
  Inspection,
  MarkingColor,
  Queen,
} from "@hivekeep/proto";
import { type Format, toDate, type When } from "../../format.ts";
import { type Reading, readingsOf, readingValue } from "../inspections/present.ts";
import { honeyBars, type MonthKg, monthsBefore } from "./honey.ts";

/** A recent visit as the list shows it. */
export interface Recent {
  readonly id: string;
  readonly hiveId: string;
  readonly date: Date | undefined;
  /** Undefined: the hive was removed. */
  readonly hiveName: string | undefined;
  readonly readings: readonly Reading[];
  readonly note: string;
}

/** The recent visits (newest first) with their hive's name and what the visit holds. */
export function joinRecent(
  visits: readonly Inspection[],
  hives: readonly Pick<Hive, "id" | "name">[],
): Recent[] {
  const hiveName = new Map(hives.map((h) => [h.id, h.name]));
  return visits.map((i) => ({
    id: i.id,
    hiveId: i.hiveId,
    date: toDate(i.date),
    hiveName: hiveName.get(i.hiveId),
    readings: readingsOf(i),
    note: i.note.trim(),
  }));
}

/** A queen's honey of the season; `key` "" is the honey of hives without a recorded queen. */
export interface QueenHoney {
  readonly key: string;
  readonly kg: number;
  /** Undefined: the queen was removed. */
  readonly year: number | undefined;
  readonly marking: MarkingColor | undefined;
  /** Undefined: her hive was removed. */
  readonly hiveName: string | undefined;
}

/** GetHoneyStats' queens with the queen's year and marking and her hive's name. */
export function joinQueenHoney(
  perQueen: readonly Pick<HoneyStat, "key" | "kg">[],
  queens: readonly Pick<Queen, "id" | "year" | "marking" | "hiveId">[],
  hives: readonly Pick<Hive, "id" | "name">[],
): QueenHoney[] {
  const queenById = new Map(queens.map((q) => [q.id, q]));
  const hiveName = new Map(hives.map((h) => [h.id, h.name]));
  return perQueen.map((q) => {
    const queen = q.key === "" ? undefined : queenById.get(q.key);
    return {
      key: q.key,
      kg: q.kg,
      year: queen?.year,
      marking: queen?.marking,
      hiveName: queen ? hiveName.get(queen.hiveId) : undefined,
    };
  });
}

/** The figures' keys are the words of their labels (messages.ts). */
export type FigureKey =
  | "apiaries"
  | "hives"
  | "activeQueens"
  | "openTasks"
  | "overdueTasks"
  | "honeySeason";

/** The figures in their order, each value formatted; `bad` marks overdue tasks. */
export function figures(
  fmt: Format,
  d: Pick<
    GetDashboardResponse,
    "apiaries" | "hives" | "activeQueens" | "openTasks" | "overdueTasks" | "honeyKgSeason"
  >,
): { key: FigureKey; value: string; bad: boolean }[] {
  const count = (n: number) => fmt.number(n, 0);
  return [
    { key: "apiaries", value: count(d.apiaries), bad: false },
    { key: "hives", value: count(d.hives), bad: false },
    { key: "activeQueens", value: count(d.activeQueens), bad: false },
    { key: "openTasks", value: count(d.openTasks), bad: false },
    { key: "overdueTasks", value: count(d.overdueTasks), bad: d.overdueTasks > 0 },
    { key: "honeySeason", value: fmt.kg(d.honeyKgSeason), bad: false },
  ];
}

/** When a task is due: "Jun 12, 2026 (in 2 days)"; undefined without a due date. */
export function dueWhen(fmt: Format, dueAt: When, now: Date): string | undefined {
  const due = toDate(dueAt);
  return due === undefined ? undefined : `${fmt.date(due)} (${fmt.relativeDays(due, now)})`;
}

/**
 * A visit's readings on one line: "42.5 kg · 21 °C outside". `outside` words a reading taken
 * outside the hive. Each reading is kept on one line ("67 %" does not break before its unit).
 */
export function readingsLine(
  fmt: Format,
  readings: readonly Reading[],
  outside: (value: string) => string,
): string {
  return readings
    .map((r) => {
      const value = readingValue(fmt, r);
      return (r.place === "outside" ? outside(value) : value).replace(/ /g, "\u00a0");
    })
    .join(" · ");
}

/** The honey chart: the months' names and amounts, the total, the best month, months left out. */
export interface HoneyChart {
  readonly bars: readonly MonthKg[];
  readonly labels: readonly string[];
  readonly values: readonly number[];
  readonly total: number;
  /** The month with the most honey (the first of equals); undefined when there is none. */
  readonly most: { readonly label: string; readonly kg: number } | undefined;
  /** Months with a harvest before the chart's window. */
  readonly older: number;
}

export function honeyChart(locale: string, history: readonly MonthKg[], now: Date): HoneyChart {
  const bars = honeyBars(history, now);
  const monthName = new Intl.DateTimeFormat(locale, {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  const labels = bars.map((b) => monthName.format(new Date(Date.UTC(b.year, b.month - 1, 15))));
  const values = bars.map((b) => b.kg);
  const total = values.reduce((a, b) => a + b, 0);
  const best = values.indexOf(Math.max(...values));
  return {
    bars,
    labels,
    values,
    total,
    most: total > 0 ? { label: labels[best] ?? "", kg: values[best] ?? 0 } : undefined,
    older: monthsBefore(history, bars),
  };
}

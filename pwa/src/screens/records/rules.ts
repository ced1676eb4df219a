/**
 * The small rules of the record screens, kept pure so they are tested on their own:
 * a treatment's withdrawal period in days (the periods themselves: client-core's
 * core/withdrawal.ts), a task's due state, and a task's due date as a calendar day.
 * The value rules of the columns (ranges, whole numbers) are the registry's (client-core
 * entities.ts), applied with its checker as the commands and Push apply them; here only what
 * no column holds (withdrawal days, a queen's plausible year as of today).
 *
 * Task order is not here: ListTasks already answers open tasks first, by due date (none last),
 * then oldest first (client-core's task service), so the screens keep the order they get.
 */
import {
  type ColumnSpec,
  columnSpec,
  latestQueenYear,
  numberRuleBreak,
} from "@hivekeep/client-core/core";
import type { Queen, Task, Treatment } from "@hivekeep/proto";
import { daysSince, toDate } from "../../format.ts";

/** A date `days` calendar days later (local time: the same clock time across a DST change). */
export function addDays(date: Date, days: number): Date {
  const d = new Date(date.getTime());
  d.setDate(d.getDate() + days);
  return d;
}

/** The same calendar day `years` later (29 February becomes 1 March). */
export function addYears(date: Date, years: number): Date {
  const d = new Date(date.getTime());
  d.setFullYear(d.getFullYear() + years);
  return d;
}

/**
 * When a treatment's withdrawal period ends: its date plus the period in whole days. No end
 * (undefined) without a date, or for a period of 0 (none), a negative or a fractional one.
 */
export function withdrawalEnd(date: Date | undefined, days: number | undefined): Date | undefined {
  if (date === undefined || days === undefined) return undefined;
  if (!Number.isInteger(days) || days <= 0) return undefined;
  return addDays(date, days);
}

/**
 * A withdrawal period as the beekeeper types it: a whole number of days 0 … 999. No column
 * holds it (the treatment stores the date it ends, `withdrawal_until`), so the rule is the
 * form's own, written as a column rule for the one checker.
 */
export const withdrawalDaysRule: ColumnSpec = { type: "int", min: 0, max: 999 };

/** A withdrawal period the beekeeper types: empty, or within `withdrawalDaysRule`. */
export function validWithdrawalDays(days: number | undefined): boolean {
  return days === undefined || numberRuleBreak(withdrawalDaysRule, days) === undefined;
}

/**
 * The withdrawal period a stored treatment was given, in days, for its edit: the calendar days
 * from its date to withdrawalUntil (the inverse of `withdrawalEnd`); undefined when it has none.
 */
export function withdrawalDaysOf(
  treatment: Pick<Treatment, "date" | "withdrawalUntil">,
): number | undefined {
  const date = toDate(treatment.date);
  const until = toDate(treatment.withdrawalUntil);
  if (date === undefined || until === undefined) return undefined;
  const days = daysSince(date, until) ?? 0;
  return days > 0 ? days : undefined;
}

/**
 * Whether a withdrawal period still runs, and the treatment whose period covers a harvest's
 * date: the one rule of client-core (core/withdrawal.ts), which the server applies too.
 */
export { withdrawalAt, withdrawalRunning } from "@hivekeep/client-core/core";

/** The last moment of a calendar day (local): a task due "on the 12th" is overdue from the 13th. */
export function endOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59, 999);
}

/** Whether a due time is the end of its day, i.e. it names a day and no time of its own. */
export function isWholeDay(date: Date): boolean {
  return date.getHours() === 23 && date.getMinutes() === 59;
}

export type DueState = "none" | "done" | "overdue" | "today" | "upcoming";

/**
 * Where a task stands: done; overdue (open and due before now); due later today; upcoming; or
 * without a due date. Overdue follows the dashboard's count (due before now).
 */
export function dueState(task: Pick<Task, "done" | "dueAt">, now: Date): DueState {
  if (task.done) return "done";
  const due = toDate(task.dueAt);
  if (due === undefined) return "none";
  if (due.getTime() < now.getTime()) return "overdue";
  return daysSince(due, now) === 0 ? "today" : "upcoming";
}

/** Open tasks and done tasks, each in the order given. */
export function splitTasks<T extends Pick<Task, "done">>(
  tasks: readonly T[],
): { open: T[]; done: T[] } {
  return { open: tasks.filter((t) => !t.done), done: tasks.filter((t) => t.done) };
}

/**
 * Where the task form returns to: the page it was opened from (`?hive=…` or `?apiary=…`).
 */
export function taskOrigin(search: string): { hive?: string; apiary?: string } {
  const q = new URLSearchParams(search);
  const hive = q.get("hive") ?? "";
  const apiary = q.get("apiary") ?? "";
  if (hive !== "") return { hive };
  if (apiary !== "") return { apiary };
  return {};
}

/** The earliest queen's year the form takes: older queens are typos (a digit left out). */
export const firstQueenYear = 1980;

/**
 * A queen's year the form accepts: one the registry takes (`queen.year`: whole, above 0), and
 * plausible today: from 1980 to the current year, as client-core's `latestQueenYear` has it
 * (a queen of next year has not hatched; the operations refuse her too).
 */
export function validQueenYear(year: number | undefined, now: Date): year is number {
  return (
    year !== undefined &&
    numberRuleBreak(columnSpec("queen", "year"), year) === undefined &&
    year >= firstQueenYear &&
    year <= latestQueenYear(now)
  );
}

/**
 * Whether a new queen's introduction comes before the reigning queen's own: her reign would end
 * before it began (CreateQueen marks her replaced at the new queen's introduction).
 */
export function beforeReign(
  introducedAt: Date,
  reigning: Pick<Queen, "introducedAt"> | undefined,
): boolean {
  const since = toDate(reigning?.introducedAt);
  return since !== undefined && introducedAt.getTime() < since.getTime();
}

/** A harvest amount the service accepts: given, and within the registry's `harvest.amount_kg`. */
export function validAmountKg(kg: number | undefined): kg is number {
  return kg !== undefined && numberRuleBreak(columnSpec("harvest", "amount_kg"), kg) === undefined;
}

/** A water content: empty, or within the registry's `harvest.water_content` (0 … 100 %). */
export function validWaterContent(pct: number | undefined): boolean {
  return (
    pct === undefined || numberRuleBreak(columnSpec("harvest", "water_content"), pct) === undefined
  );
}

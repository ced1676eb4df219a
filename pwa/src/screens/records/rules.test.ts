import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { TaskSchema, TreatmentSchema } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import {
  addDays,
  addYears,
  beforeReign,
  dueState,
  endOfDay,
  isWholeDay,
  splitTasks,
  taskOrigin,
  validAmountKg,
  validQueenYear,
  validWaterContent,
  validWithdrawalDays,
  withdrawalAt,
  withdrawalDaysOf,
  withdrawalEnd,
  withdrawalRunning,
} from "./rules.ts";

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);
const ts = (d: Date) => timestampFromDate(d);

const treatment = (date: Date, until?: Date, product = "Oxuvar") =>
  create(TreatmentSchema, {
    product,
    date: ts(date),
    ...(until ? { withdrawalUntil: ts(until) } : {}),
  });

describe("withdrawal period", () => {
  it("ends the given number of calendar days after the treatment, at the same clock time", () => {
    expect(withdrawalEnd(local(2026, 3, 10, 9, 30), 14)).toEqual(local(2026, 3, 24, 9, 30));
    // Across the end of a month and a DST change (Europe: last Sunday of March).
    expect(withdrawalEnd(local(2026, 3, 20, 8), 30)).toEqual(local(2026, 4, 19, 8));
  });

  it("has no end without a date, or for 0, negative or fractional days", () => {
    expect(withdrawalEnd(undefined, 10)).toBeUndefined();
    expect(withdrawalEnd(local(2026, 3, 10), undefined)).toBeUndefined();
    expect(withdrawalEnd(local(2026, 3, 10), 0)).toBeUndefined();
    expect(withdrawalEnd(local(2026, 3, 10), -3)).toBeUndefined();
    expect(withdrawalEnd(local(2026, 3, 10), 1.5)).toBeUndefined();
  });

  it("accepts empty or whole days 0 … 999 as typed", () => {
    expect(validWithdrawalDays(undefined)).toBe(true);
    expect(validWithdrawalDays(0)).toBe(true);
    expect(validWithdrawalDays(42)).toBe(true);
    expect(validWithdrawalDays(-1)).toBe(false);
    expect(validWithdrawalDays(2.5)).toBe(false);
    expect(validWithdrawalDays(1000)).toBe(false);
  });

  it("runs until its end, not at or after it, and never without one", () => {
    const t = treatment(local(2026, 3, 1), local(2026, 3, 15, 12));
    expect(withdrawalRunning(t, local(2026, 3, 15, 11, 59))).toBe(true);
    expect(withdrawalRunning(t, local(2026, 3, 15, 12))).toBe(false);
    expect(withdrawalRunning(treatment(local(2026, 3, 1)), local(2026, 3, 2))).toBe(false);
  });

  it("finds the treatment covering a harvest date, the one ending last", () => {
    const a = treatment(local(2026, 3, 1), local(2026, 3, 20), "A");
    const b = treatment(local(2026, 3, 5), local(2026, 4, 5), "B");
    const none = treatment(local(2026, 3, 6), undefined, "C");
    const later = treatment(local(2026, 5, 1), local(2026, 6, 1), "D");
    const all = [a, b, none, later];
    expect(withdrawalAt(all, local(2026, 3, 10))?.product).toBe("B");
    expect(withdrawalAt(all, local(2026, 3, 3))?.product).toBe("A");
    expect(withdrawalAt(all, local(2026, 4, 10))).toBeUndefined();
    // A treatment given after the harvest does not hold it back.
    expect(withdrawalAt([later], local(2026, 4, 20))).toBeUndefined();
    expect(withdrawalAt([], local(2026, 4, 20))).toBeUndefined();
  });
});

describe("tasks", () => {
  const now = local(2026, 6, 10, 14);
  const task = (dueAt?: Date, done = false) =>
    create(TaskSchema, { title: "t", done, ...(dueAt ? { dueAt: ts(dueAt) } : {}) });

  it("is overdue when open and due before now", () => {
    expect(dueState(task(local(2026, 6, 9, 23, 59)), now)).toBe("overdue");
    expect(dueState(task(local(2026, 6, 10, 9)), now)).toBe("overdue");
  });

  it("is due today until the end of its day, then upcoming", () => {
    expect(dueState(task(endOfDay(now)), now)).toBe("today");
    expect(dueState(task(local(2026, 6, 11, 0, 1)), now)).toBe("upcoming");
  });

  it("is never overdue when done or without a due date", () => {
    expect(dueState(task(local(2026, 1, 1), true), now)).toBe("done");
    expect(dueState(task(), now)).toBe("none");
  });

  it("due on a day means the end of that day", () => {
    const d = endOfDay(local(2026, 6, 12, 8, 15));
    expect(d).toEqual(new Date(2026, 5, 12, 23, 59, 59, 999));
    expect(isWholeDay(d)).toBe(true);
    expect(isWholeDay(local(2026, 6, 12, 8, 15))).toBe(false);
    expect(addDays(local(2026, 12, 31), 1)).toEqual(local(2027, 1, 1));
    expect(addYears(local(2026, 7, 14, 10), 2)).toEqual(local(2028, 7, 14, 10));
  });

  it("splits open from done, keeping the service's order", () => {
    const list = [
      { id: "1", done: false },
      { id: "2", done: true },
      { id: "3", done: false },
      { id: "4", done: true },
    ];
    const { open, done } = splitTasks(list);
    expect(open.map((t) => t.id)).toEqual(["1", "3"]);
    expect(done.map((t) => t.id)).toEqual(["2", "4"]);
  });

  it("returns to the page the form was opened from", () => {
    expect(taskOrigin("hive=h1")).toEqual({ hive: "h1" });
    expect(taskOrigin("?apiary=a1")).toEqual({ apiary: "a1" });
    expect(taskOrigin("")).toEqual({});
    expect(taskOrigin("hive=")).toEqual({});
  });
});

describe("withdrawalDaysOf", () => {
  it("gives back the days a treatment's withdrawal period was typed in", () => {
    const given = local(2026, 3, 28, 9, 30);
    expect(withdrawalDaysOf(treatment(given, withdrawalEnd(given, 14)))).toBe(14);
    // Across the change to summer time (29 March 2026) still whole days.
    expect(withdrawalDaysOf(treatment(given, withdrawalEnd(given, 3)))).toBe(3);
    expect(withdrawalDaysOf(treatment(given))).toBeUndefined();
  });
});

describe("form values", () => {
  const now = local(2026, 6, 10);
  it("takes a queen's year from 1980 to this year (a queen of next year has not hatched)", () => {
    expect(validQueenYear(2026, now)).toBe(true);
    expect(validQueenYear(2027, now)).toBe(false);
    // On New Year's Eve the day of tolerance reaches into the next year (client-core's rule).
    expect(validQueenYear(2027, local(2026, 12, 31, 12))).toBe(true);
    expect(validQueenYear(1979, now)).toBe(false);
    expect(validQueenYear(202, now)).toBe(false);
    expect(validQueenYear(undefined, now)).toBe(false);
    expect(validQueenYear(2025.5, now)).toBe(false);
  });

  it("refuses a new queen introduced before the reigning one", () => {
    const reigning = { introducedAt: ts(local(2025, 5, 1)) };
    expect(beforeReign(local(2025, 4, 30), reigning)).toBe(true);
    expect(beforeReign(local(2025, 5, 1), reigning)).toBe(false);
    expect(beforeReign(local(2025, 4, 30), undefined)).toBe(false);
  });

  it("takes a harvest amount above 0 only", () => {
    expect(validAmountKg(12.5)).toBe(true);
    expect(validAmountKg(0)).toBe(false);
    expect(validAmountKg(-2)).toBe(false);
    expect(validAmountKg(undefined)).toBe(false);
    expect(validAmountKg(Number.NaN)).toBe(false);
  });

  it("takes a water content of 0 … 100 % or none", () => {
    expect(validWaterContent(undefined)).toBe(true);
    expect(validWaterContent(17.8)).toBe(true);
    expect(validWaterContent(101)).toBe(false);
    expect(validWaterContent(-1)).toBe(false);
  });
});

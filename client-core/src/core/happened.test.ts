import { describe, expect, it } from "vitest";
import { DomainError } from "./domain-error.ts";
import {
  checkHappened,
  checkQueenYear,
  futureDateBreak,
  happenedToleranceMs,
  latestQueenYear,
} from "./happened.ts";

const now = new Date("2026-11-26T12:00:00.000Z");
const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

describe("dates of things that happened", () => {
  it("accepts the past, now and up to a day ahead (clocks, time zones)", () => {
    expect(futureDateBreak("date", "2025-03-01T00:00:00.000Z", now)).toBeUndefined();
    expect(futureDateBreak("date", now.toISOString(), now)).toBeUndefined();
    expect(futureDateBreak("date", at(happenedToleranceMs), now)).toBeUndefined();
  });

  it("refuses a date more than a day ahead, naming the field", () => {
    expect(futureDateBreak("date", at(happenedToleranceMs + 1), now)).toBe(
      "date cannot be in the future",
    );
    const error = (() => {
      try {
        checkHappened("inspection.date", "2027-06-01T00:00:00.000Z", now);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: "invalid", field: "inspection.date" });
  });

  it("leaves an unset date alone", () => {
    expect(() => checkHappened("date", null, now)).not.toThrow();
    expect(() => checkHappened("date", undefined, now)).not.toThrow();
    expect(() => checkHappened("date", "", now)).not.toThrow();
  });

  it("refuses a queen of a year after the current one; on New Year's Eve the next is allowed", () => {
    expect(() => checkQueenYear("year", 2026, now)).not.toThrow();
    expect(() => checkQueenYear("year", 2027, now)).toThrow("year cannot be in the future");
    const eve = new Date("2026-12-31T20:00:00.000Z");
    expect(latestQueenYear(eve)).toBe(2027);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTimestampInRange, maxTimestampMs, minTimestampMs, parseRfc3339 } from "./rfc3339.ts";

/** `ms` written in the zone `offsetMinutes` east of UTC, e.g. +02:00. */
function withOffset(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  if (offsetMinutes === 0) return `${local}Z`;
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${local}${offsetMinutes < 0 ? "-" : "+"}${hh}:${mm}`;
}

describe("parseRfc3339", () => {
  it("normalises a zone offset to UTC with milliseconds", () => {
    expect(parseRfc3339("2026-01-01T00:00:00+02:00")).toEqual({
      value: "2025-12-31T22:00:00.000Z",
    });
    expect(parseRfc3339("2026-01-01T00:00:00-00:30")).toEqual({
      value: "2026-01-01T00:30:00.000Z",
    });
  });

  it("accepts lower-case t and z, and truncates fractions beyond milliseconds as Date does", () => {
    expect(parseRfc3339("2026-01-01t00:00:00.1234567z")).toEqual({
      value: "2026-01-01T00:00:00.123Z",
    });
    expect(new Date("2026-01-01T00:00:00.1234567Z").toISOString()).toBe("2026-01-01T00:00:00.123Z");
  });

  it("keeps the years 1-99, which Date.UTC would move to the 1900s", () => {
    expect(parseRfc3339("0042-03-04T05:06:07Z")).toEqual({ value: "0042-03-04T05:06:07.000Z" });
  });

  it.each([
    ["no zone", "2026-01-01T00:00:00"],
    ["a date only", "2026-01-01"],
    ["a space for T", "2026-01-01 00:00:00Z"],
    ["a day that does not exist", "2026-02-29T00:00:00Z"],
    ["month 13", "2026-13-01T00:00:00Z"],
    ["hour 24", "2026-01-01T24:00:00Z"],
    ["a leap second", "2016-12-31T23:59:60Z"],
    ["an offset hour of 24", "2026-01-01T00:00:00+24:00"],
    ["an offset without colon", "2026-01-01T00:00:00+0200"],
    ["a year past 9999 after normalising", "9999-12-31T23:00:00-02:00"],
    ["a year before 0001 after normalising", "0001-01-01T00:00:00+01:00"],
    ["an extended year", "+010000-01-01T00:00:00Z"],
    ["an empty string", ""],
    // The canonical shape (the fast path) must not let these through either.
    ["a canonical-looking day that does not exist", "2026-02-29T00:00:00.000Z"],
    ["a canonical-looking 31 April", "2026-04-31T12:00:00.000Z"],
    ["a canonical-looking leap second", "2016-12-31T23:59:60.000Z"],
    ["a canonical-looking hour 24", "2026-01-01T24:00:00.000Z"],
    ["a canonical-looking year 0000", "0000-12-31T23:59:59.999Z"],
  ])("rejects %s", (_, s) => {
    expect(parseRfc3339(s)).toHaveProperty("error");
  });

  it("returns a canonical timestamp as it is, from year 0001 to 9999", () => {
    for (const s of [
      "0001-01-01T00:00:00.000Z",
      "0042-03-04T05:06:07.890Z",
      "2024-02-29T23:59:59.999Z",
      "9999-12-31T23:59:59.999Z",
    ]) {
      expect(parseRfc3339(s)).toEqual({ value: s });
    }
  });

  it("a canonical-shaped string is accepted as it is exactly when Date reads it back to itself", () => {
    // Digits anywhere in range or out (month 13, day 31 of a 30-day month, hour 24, second 60).
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }).map((n) => String(n).padStart(4, "0")),
        two(19),
        two(39),
        two(29),
        two(69),
        two(69),
        (y, mo, d, h, mi, sec) => {
          const s = `${y}-${mo}-${d}T${h}:${mi}:${sec}.123Z`;
          const ms = Date.parse(s);
          const roundTrips = !Number.isNaN(ms) && new Date(ms).toISOString() === s;
          const parsed = parseRfc3339(s);
          if (roundTrips) expect(parsed).toEqual({ value: s });
          else expect(parsed).toHaveProperty("error");
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("accepts 29 February in a leap year only", () => {
    expect(parseRfc3339("2024-02-29T00:00:00Z")).toHaveProperty("value");
    expect(parseRfc3339("2100-02-29T00:00:00Z")).toHaveProperty("error");
    expect(parseRfc3339("2000-02-29T00:00:00Z")).toHaveProperty("value");
  });

  it("any instant written in any zone normalises to that instant, as Date reads it", () => {
    const margin = 24 * 3_600_000;
    fc.assert(
      fc.property(
        fc.integer({ min: minTimestampMs + margin, max: maxTimestampMs - margin }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (ms, offset) => {
          const s = withOffset(ms, offset);
          const expected = new Date(ms).toISOString();
          expect(parseRfc3339(s)).toEqual({ value: expected });
          expect(new Date(s).toISOString()).toBe(expected);
        },
      ),
    );
  });
});

describe("isTimestampInRange", () => {
  it("holds from the first to the last millisecond of the years 0001-9999 (UTC)", () => {
    expect(new Date(minTimestampMs).toISOString()).toBe("0001-01-01T00:00:00.000Z");
    expect(new Date(maxTimestampMs).toISOString()).toBe("9999-12-31T23:59:59.999Z");
    expect(isTimestampInRange(minTimestampMs)).toBe(true);
    expect(isTimestampInRange(maxTimestampMs)).toBe(true);
    expect(isTimestampInRange(minTimestampMs - 1)).toBe(false);
    expect(isTimestampInRange(maxTimestampMs + 1)).toBe(false);
    expect(isTimestampInRange(Number.NaN)).toBe(false);
  });

  it("bounds what parseRfc3339 accepts", () => {
    expect(parseRfc3339("0001-01-01T00:00:00Z")).toHaveProperty("value");
    expect(parseRfc3339("0001-01-01T00:00:00+00:01")).toEqual({
      error: "is outside the years 0001-9999 (UTC)",
    });
    expect(parseRfc3339("9999-12-31T23:59:59.999Z")).toHaveProperty("value");
    expect(parseRfc3339("9999-12-31T23:59:59-00:01")).toEqual({
      error: "is outside the years 0001-9999 (UTC)",
    });
  });
});

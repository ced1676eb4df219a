import { describe, expect, it } from "vitest";
import { parseTimestamptz } from "./timestamptz.ts";

describe("parseTimestamptz", () => {
  it.each([
    ["2026-11-22 02:45:59.07+00", "2026-11-22T02:45:59.070Z"],
    ["2026-11-22 02:45:59.123456+00", "2026-11-22T02:45:59.123Z"],
    ["0050-06-01 00:00:00+00", "0050-06-01T00:00:00.000Z"],
    ["0001-01-01 00:00:00+00", "0001-01-01T00:00:00.000Z"],
    ["0099-12-31 23:59:59.999+00", "0099-12-31T23:59:59.999Z"],
    ["9999-12-31 23:59:59.999+00", "9999-12-31T23:59:59.999Z"],
    ["2026-03-29 03:30:00+02", "2026-03-29T01:30:00.000Z"],
    ["2026-01-01 05:30:00+05:30", "2026-01-01T00:00:00.000Z"],
    ["2025-12-31 19:00:00-05", "2026-01-01T00:00:00.000Z"],
    ["1900-01-01 00:00:00+00:09:21", "1899-12-31T23:50:39.000Z"],
  ])("reads %s as %s", (text, iso) => {
    expect(parseTimestamptz(text).toISOString()).toBe(iso);
  });

  it("gives an invalid date for infinity", () => {
    expect(Number.isNaN(parseTimestamptz("infinity").getTime())).toBe(true);
  });
});

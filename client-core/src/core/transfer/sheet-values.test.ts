import { describe, expect, it } from "vitest";
import { isoTimestamp } from "./foreign-time.ts";
import {
  normalizedName,
  sheetBool,
  sheetChoice,
  sheetNumber,
  sheetTimestamp,
  slashOrderOf,
} from "./sheet-values.ts";

const value = <T>(p: { value: T } | { error: string }): T | string =>
  "value" in p ? p.value : `error: ${p.error}`;

describe("sheetTimestamp", () => {
  it.each([
    ["2026-11-26", "2026-11-26T00:00:00.000Z"],
    ["26.11.2026", "2026-11-26T00:00:00.000Z"],
    ["1.3.2026", "2026-03-01T00:00:00.000Z"],
    ["26.11.26", "2026-11-26T00:00:00.000Z"],
    ["26.11.2026 14:05", "2026-11-26T14:05:00.000Z"],
    ["2026-11-26 14:05:30", "2026-11-26T14:05:30.000Z"],
    ["2026-11-26T14:05:00+01:00", "2026-11-26T13:05:00.000Z"],
    ["2026-11-26T14:05+0100", "2026-11-26T13:05:00.000Z"],
    ["26/11/2026", "2026-11-26T00:00:00.000Z"],
    ["26. November 2026", "2026-11-26T00:00:00.000Z"],
    ["3. März 2026", "2026-03-03T00:00:00.000Z"],
    ["26 Nov 2026", "2026-11-26T00:00:00.000Z"],
    ["Nov. 26, 2026", "2026-11-26T00:00:00.000Z"],
    ["December 1 2026", "2026-12-01T00:00:00.000Z"],
  ])("%s → %s", (cell, iso) => {
    expect(value(sheetTimestamp(cell))).toBe(iso);
  });

  it("reads slashed days month first when told so", () => {
    expect(value(sheetTimestamp("03/04/2026", "mdy"))).toBe("2026-03-04T00:00:00.000Z");
    expect(slashOrderOf("11/26/2026")).toBe("mdy");
    expect(slashOrderOf("26/11/2026")).toBe("dmy");
    expect(slashOrderOf("03/04/2026")).toBeUndefined();
  });

  it.each(["30.02.2026", "2026-13-01", "26.11.2026 25:00", "Smarch 3 2026", "yesterday", "2026"])(
    "refuses %s",
    (cell) => {
      expect(value(sheetTimestamp(cell))).toMatch(/^error: ".*" is not a date/);
    },
  );

  it("isoTimestamp keeps the instant of an offset and refuses what is no day", () => {
    expect(value(isoTimestamp("2026-07-01T18:30:00+02:00"))).toBe("2026-07-01T16:30:00.000Z");
    expect(value(isoTimestamp("2026-07-01T18:30:00.123456Z"))).toBe("2026-07-01T18:30:00.123Z");
    expect(value(isoTimestamp("2026-02-29"))).toMatch(/^error: "2026-02-29" is not a date/);
  });
});

describe("sheetNumber, sheetBool, sheetChoice, normalizedName", () => {
  it.each([
    ["38,5", 38.5],
    ["38.5", 38.5],
    ["-2,5", -2.5],
    [" 38,5 kg", 38.5],
    ["35 °C", 35],
    ["60%", 60],
    ["1.234,5", 1234.5],
    ["1,234.5", 1234.5],
    [",5", 0.5],
  ])("number %s → %d", (cell, n) => {
    expect(value(sheetNumber(cell))).toBe(n);
  });

  it.each(["viel", "38,5,1", "3-4", "1e3", ""])("refuses the number %s", (cell) => {
    expect(value(sheetNumber(cell))).toBe(`error: "${cell}" is not a number`);
  });

  it("reads yes and no in both languages", () => {
    for (const yes of ["ja", "Yes", "x", "X", "1", "true", "WAHR", "j"]) {
      expect(value(sheetBool(yes)), yes).toBe(true);
    }
    for (const no of ["nein", "No", "0", "false", "-"])
      expect(value(sheetBool(no)), no).toBe(false);
    expect(value(sheetBool("vielleicht"))).toMatch(/^error: /);
  });

  it("reads a choice by number or by any of its names", () => {
    const names = { 1: ["good", "gut"], 2: ["very gentle", "sehr sanft"] };
    expect(value(sheetChoice("2", names))).toBe(2);
    expect(value(sheetChoice(" GUT ", names))).toBe(1);
    expect(value(sheetChoice("Sehr-Sanft", names))).toBe(2);
    expect(value(sheetChoice("3", names))).toBe('error: "3" is not one of 1 good, 2 very gentle');
  });

  it("compares names without case, punctuation, brackets and Umlaut spelling", () => {
    expect(normalizedName("Königin gesehen?")).toBe("koeniginGesehen".toLowerCase());
    expect(normalizedName("KOENIGIN_GESEHEN")).toBe("koenigingesehen");
    expect(normalizedName("Gewicht (kg)")).toBe("gewicht");
    expect(normalizedName("Außentemperatur")).toBe("aussentemperatur");
    expect(normalizedName("Warré")).toBe("warre");
  });
});

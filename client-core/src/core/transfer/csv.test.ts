import { describe, expect, it } from "vitest";
import {
  csvFile,
  isTimeZone,
  sheetCell,
  sheetDay,
  sheetInstant,
  wallClock,
  zonedInstant,
} from "./csv.ts";

describe("csvFile", () => {
  it("writes German with ; and decimal commas, English with , and points, both with a BOM and CRLF", () => {
    const rows = [["Volk 1", 38.5, { day: "2026-11-26T00:00:00.000Z" }, true]];
    expect(csvFile(["Volk", "Gewicht", "Datum", "Königin"], rows, "de")).toBe(
      "\uFEFFVolk;Gewicht;Datum;Königin\r\nVolk 1;38,5;26.11.2026;ja\r\n",
    );
    expect(csvFile(["Hive", "Weight", "Date", "Queen"], rows, "en")).toBe(
      "\uFEFFHive,Weight,Date,Queen\r\nVolk 1,38.5,2026-11-26,yes\r\n",
    );
  });

  it("quotes the separator, quotes, line breaks and edge spaces, and guards formulas", () => {
    const rows = [['a;b "c"', "line\nbreak", " x", "=HYPERLINK(1)", "-3", "1,5"]];
    expect(csvFile(["h"], rows, "de")).toBe(
      `\uFEFFh\r\n"a;b ""c""";"line\nbreak";" x";'=HYPERLINK(1);'-3;1,5\r\n`,
    );
    expect(csvFile(["h"], [["1,5"]], "en")).toBe('\uFEFFh\r\n"1,5"\r\n');
  });

  it("leaves empty cells empty and writes numbers as numbers", () => {
    expect(csvFile(["a", "b", "c"], [[null, undefined, -2.25]], "de")).toBe(
      "\uFEFFa;b;c\r\n;;-2,25\r\n",
    );
    expect(sheetCell(Number.NaN, "en")).toBe("");
    expect(sheetCell({ day: "" }, "de")).toBe("");
  });
});

describe("days and times in the reader's zone", () => {
  it("writes wall-clock days and times", () => {
    expect(sheetDay("2026-03-01", "de")).toBe("01.03.2026");
    expect(sheetInstant("2026-03-01T23:30:00", "de")).toBe("01.03.2026 23:30");
    expect(sheetInstant("2026-03-01T23:30", "en")).toBe("2026-03-01 23:30");
  });

  it("a day picked in Berlin is stored the evening before in UTC and read back as that day", () => {
    // The app's date picker stores the start of the local day: 26 Nov in Berlin (CET, +1).
    const stored = "2026-11-25T23:00:00.000Z";
    expect(wallClock(stored, "Europe/Berlin")).toBe("2026-11-26T00:00:00");
    expect(wallClock(stored, "UTC")).toBe("2026-11-25T23:00:00");
    expect(wallClock("2026-07-01T10:00:00Z", "America/New_York")).toBe("2026-07-01T06:00:00");
    expect(zonedInstant("2026-11-26T00:00:00", "Europe/Berlin")).toBe(stored);
    expect(zonedInstant("2026-07-01T06:00:00", "America/New_York")).toBe(
      "2026-07-01T10:00:00.000Z",
    );
  });

  it("round-trips across clock changes; a skipped time is taken an hour later", () => {
    for (const iso of [
      "2026-03-29T00:59:59.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T01:30:00.000Z",
    ]) {
      const wall = wallClock(iso, "Europe/Berlin");
      const back = zonedInstant(wall, "Europe/Berlin");
      expect(wallClock(back, "Europe/Berlin")).toBe(wall);
    }
    // 02:30 on 29 March 2026 does not exist in Berlin (02:00 → 03:00).
    expect(wallClock(zonedInstant("2026-03-29T02:30:00", "Europe/Berlin"), "Europe/Berlin")).toBe(
      "2026-03-29T03:30:00",
    );
  });

  it("knows time zones", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});

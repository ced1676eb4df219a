import { describe, expect, it } from "vitest";
import { csvFile, sheetCell, sheetDay, sheetInstant } from "./csv.ts";

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

describe("days and instants", () => {
  it("takes an instant's UTC day and time", () => {
    expect(sheetDay("2026-03-01", "de")).toBe("01.03.2026");
    expect(sheetInstant("2026-03-01T23:30:00+02:00", "de")).toBe("01.03.2026 21:30");
    expect(sheetInstant("2026-03-01T23:30:00Z", "en")).toBe("2026-03-01 23:30");
  });
});

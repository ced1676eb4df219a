import { describe, expect, it } from "vitest";
import { loadLanguage, translate } from "../../i18n.ts";
import { type RecordsIoWords, recordsIoMessages } from "./messages.ts";
import { importTotal, notCarriedLines, previewRows, problemText } from "./present.ts";
import type { ImportSummary } from "./transfer.ts";

// German loads on demand, as in the app.
await loadLanguage("de");

const words =
  (lng: "en" | "de"): RecordsIoWords =>
  (key, values) =>
    translate(recordsIoMessages, lng, key, values);

const summary: ImportSummary = {
  format: "openbeehive",
  counts: [
    { entity: "inspection", created: 120, existing: 3 },
    { entity: "apiary", created: 2, existing: 0 },
    { entity: "task", created: 0, existing: 0 },
    { entity: "hive", created: 0, existing: 5 },
  ],
  problems: [],
  notCarried: [],
};

describe("the import preview", () => {
  it("lists the kinds the file holds in the order they are written, and counts what is new", () => {
    expect(previewRows(summary).map((c) => c.entity)).toEqual(["apiary", "hive", "inspection"]);
    expect(importTotal(summary)).toBe(122);
  });

  it("says where a problem lies in the language, then why", () => {
    const t = words("de");
    expect(problemText(t, { line: 4, column: "Datum", message: "2026-13-01 is not a date" })).toBe(
      "Zeile 4, Spalte Datum: 2026-13-01 is not a date",
    );
    expect(
      problemText(words("en"), { entity: "hive", id: "h1", column: "name", message: "is empty" }),
    ).toBe("Hives h1: is empty");
    expect(problemText(t, { entity: "hive", id: "h1", message: "hive h1: name is empty" })).toBe(
      "hive h1: name is empty",
    );
    expect(
      problemText(t, {
        entity: "hive",
        id: "h1",
        path: "records.hive[0].boxes",
        column: "boxes",
        message: "hive h1: boxes must be between 0 and 20",
      }),
    ).toBe("hive h1: boxes must be between 0 and 20");
    expect(problemText(t, { path: "$.records", message: "is not an object" })).toBe(
      "$.records: is not an object",
    );
    expect(problemText(t, { message: "not a Hivekeep backup" })).toBe("not a Hivekeep backup");
  });

  it("lists what stays behind, most first", () => {
    const s = {
      ...summary,
      notCarried: [
        { key: "tasks.recurrence", count: 1 },
        { key: "hives.color", count: 7 },
      ],
    };
    expect(notCarriedLines(words("en"), s)).toEqual([
      "hives.color: 7 records",
      "tasks.recurrence: 1 record",
    ]);
    expect(notCarriedLines(words("de"), s)[0]).toBe("hives.color: 7 Einträge");
  });
});

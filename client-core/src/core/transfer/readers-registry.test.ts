import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkedPayload } from "../commands/payload-check.ts";
import { type EntityName, entities } from "../entities.ts";
import { readInspectionsCsv } from "./inspections-csv.ts";
import { readOpenBeehive } from "./openbeehive.ts";
import type { ReadFile } from "./record-set.ts";

const fixture = (path: string): string =>
  readFileSync(new URL(`../../../../test/fixtures/${path}`, import.meta.url), "utf8");

const ctx = () => {
  let n = 0;
  return {
    now: new Date("2026-11-27T10:00:00Z"),
    newId: () => `0193a000-0000-7000-8000-${String(++n).padStart(12, "0")}`,
  };
};

const files: [string, () => ReadFile][] = [
  ["the OpenBeehive backup", () => readOpenBeehive(fixture("openbeehive/backup.json"))],
  [
    "the German spreadsheet",
    () =>
      readInspectionsCsv(
        fixture("inspections/german.csv"),
        { apiaries: [{ id: "ap-1", name: "Waldrand" }], hives: [] },
        ctx(),
      ),
  ],
  [
    "the English spreadsheet",
    () =>
      readInspectionsCsv(fixture("inspections/english.csv"), { apiaries: [], hives: [] }, ctx()),
  ],
];

describe("what the readers make is what the write path takes", () => {
  it.each(files)(
    "%s: every row has only registry columns, valid values, every required one",
    (_, read) => {
      const file = read();
      expect(file.problems).toEqual([]);
      let rows = 0;
      for (const [entity, records] of Object.entries(file.records)) {
        const spec = entities[entity as EntityName];
        for (const { id, deleted, ...values } of records ?? []) {
          rows++;
          expect(typeof id).toBe("string");
          expect(deleted).toBeUndefined();
          // Throws at an unknown column or a value Push would refuse.
          expect(checkedPayload(spec, values as never)).toEqual(values);
          for (const required of spec.required)
            expect(values, `${entity} ${id}`).toHaveProperty(required);
        }
      }
      expect(rows).toBeGreaterThan(10);
    },
  );

  it("every id a record of a file points at is in the file (or, for a spreadsheet, known)", () => {
    const file = readOpenBeehive(fixture("openbeehive/backup.json"));
    const ids = new Map(
      Object.entries(file.records).map(([e, rows]) => [e, new Set(rows?.map((r) => r.id))]),
    );
    for (const [entity, records] of Object.entries(file.records)) {
      const spec = entities[entity as EntityName];
      for (const row of records ?? []) {
        for (const [column, c] of Object.entries(spec.columns)) {
          const target = row[column];
          if (c.ref === undefined || target === undefined || target === "") continue;
          expect(ids.get(c.ref)?.has(String(target)), `${entity} ${row.id}.${column}`).toBe(true);
        }
      }
    }
  });
});

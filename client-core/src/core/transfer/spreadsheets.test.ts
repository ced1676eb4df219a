import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { entities, entityNames } from "../entities.ts";
import { csvDelimiter } from "./csv.ts";
import type { RecordSet } from "./record-set.ts";
import { columnHeaders, refHeaders } from "./sheet-labels.ts";
import { exportFileName, spreadsheetTables, spreadsheetZip } from "./spreadsheets.ts";
import { spreadsheetXlsx, xlsxCell } from "./xlsx.ts";

const apiaryId = "0190a000-0000-7000-8000-000000000001";
const hiveId = "0190a000-0000-7000-8000-000000000002";
const goneHiveId = "0190a000-0000-7000-8000-000000000003";
const queenId = "0190a000-0000-7000-8000-000000000004";

/** A small organization: a live hive and a deleted one whose inspection is still on record. */
const records: RecordSet = {
  apiary: [{ id: apiaryId, name: "Am Waldrand", lat: 48.137, lng: 11.575 }],
  hive: [
    { id: hiveId, apiary_id: apiaryId, name: "Volk 1", type: 1, status: 1, boxes: 2, photo: "" },
    { id: goneHiveId, apiary_id: apiaryId, name: "Volk 2", type: 99, status: 5, deleted: true },
  ],
  placement: [
    { id: "p1", hive_id: hiveId, apiary_id: apiaryId, started_at: "2026-04-01T00:00:00.000Z" },
  ],
  queen: [{ id: queenId, hive_id: hiveId, year: 2025, marking: 5, active: true }],
  inspection: [
    {
      id: "i2",
      hive_id: goneHiveId,
      apiary_id: apiaryId,
      date: "2026-05-02T09:00:00.000Z",
      temperament: 2,
      photo_keys: ["data:image/jpeg;base64,AAAA", "data:image/jpeg;base64,BBBB"],
    },
    {
      id: "i1",
      hive_id: hiveId,
      apiary_id: apiaryId,
      queen_id: queenId,
      date: "2026-05-01T15:30:00.000Z",
      weight_kg: 38.5,
      temp_hive: 0,
      queen_seen: true,
      eggs_seen: false,
      stores: 1,
      note: "=SUM(A1)",
      created_at: "2026-05-01T16:05:00.000Z",
    },
    { id: "i0", hive_id: hiveId, date: "2026-04-20T00:00:00.000Z", deleted: true },
  ],
  task: [{ id: "t1", title: "Füttern", priority: 3, done: false }],
  treatment: [
    {
      id: "tr1",
      hive_id: hiveId,
      product: "Oxuvar",
      date: "2026-07-20T00:00:00.000Z",
      withdrawal_until: "2026-08-19T00:00:00.000Z",
    },
  ],
  harvest: [{ id: "h1", hive_id: hiveId, date: "2026-06-30T00:00:00.000Z", amount_kg: 12.25 }],
  event: [
    {
      id: "e1",
      type: 5,
      hive_id: hiveId,
      date: "2026-05-01T15:30:00.000Z",
      ref_entity: "inspection",
      ref_id: "i1",
    },
  ],
};

const table = (lang: "en" | "de", entity: string) => {
  const t = spreadsheetTables(records, lang).find((x) => x.entity === entity);
  if (t === undefined) throw new Error(entity);
  return t;
};
/** A row's cells by header. */
const byHeader = (lang: "en" | "de", entity: string, rowIndex: number) => {
  const t = table(lang, entity);
  return Object.fromEntries(t.header.map((h, i) => [h, t.rows[rowIndex]?.[i]]));
};

describe("spreadsheetTables", () => {
  it("has one table per record kind, in the registry's order, headers in the language", () => {
    expect(spreadsheetTables(records, "de").map((t) => t.name)).toEqual([
      "Stände",
      "Völker",
      "Standorte",
      "Durchsichten",
      "Königinnen",
      "Aufgaben",
      "Behandlungen",
      "Ernten",
      "Ereignisse",
    ]);
    expect(table("de", "inspection").header.slice(0, 8)).toEqual([
      "ID",
      "Datum",
      "Volk-ID",
      "Volk",
      "Stand-ID",
      "Stand",
      "Königin-ID",
      "Königin (Jahrgang)",
    ]);
    expect(table("de", "inspection").header).toContain("Gewicht (kg)");
    expect(table("en", "inspection").header).toContain("Weight (kg)");
    expect(table("en", "harvest").header).toContain("Amount (kg)");
  });

  it("labels every column of the registry in both languages (a new column needs its words)", () => {
    for (const entity of entityNames) {
      for (const [column, spec] of Object.entries(entities[entity].columns)) {
        if (spec.elementPrefix !== undefined) continue;
        const labelled =
          spec.ref !== undefined ? refHeaders[spec.ref] : columnHeaders[entity][column];
        expect(labelled, `${entity}.${column}`).toBeDefined();
      }
    }
  });

  it("writes live records only, ordered by date, with hive and apiary names beside their ids", () => {
    const t = table("de", "inspection");
    expect(t.rows.map((r) => r[0])).toEqual(["i1", "i2"]);
    const first = byHeader("de", "inspection", 0);
    expect(first.Volk).toBe("Volk 1");
    expect(first["Volk-ID"]).toBe(hiveId);
    expect(first.Stand).toBe("Am Waldrand");
    expect(first["Königin (Jahrgang)"]).toBe(2025);
    // The hive is deleted, its inspection is a live legal record: the name says so.
    expect(byHeader("de", "inspection", 1).Volk).toBe("Volk 2 (gelöscht)");
    expect(byHeader("en", "inspection", 1).Hive).toBe("Volk 2 (deleted)");
    expect(table("en", "hive").rows.map((r) => r[1])).toEqual(["Volk 1"]);
  });

  it("writes enums and booleans as words, counts photos, leaves 0 (not set) empty", () => {
    const de = byHeader("de", "inspection", 0);
    expect(de.Futter).toBe("Gut");
    expect(de["Königin gesehen"]).toBe(true);
    expect(de["Stifte gesehen"]).toBe(false);
    expect(de["Stocktemperatur (°C)"]).toBeNull();
    expect(de.Fotos).toBe(0);
    expect(byHeader("de", "inspection", 1).Fotos).toBe(2);
    expect(byHeader("de", "inspection", 1).Sanftmut).toBe("Sanft");
    expect(byHeader("en", "inspection", 1).Temperament).toBe("Gentle");
    expect(byHeader("de", "hive", 0).Beutentyp).toBe("Zander");
    expect(byHeader("de", "queen", 0).Zeichnung).toBe("Blau");
    expect(byHeader("en", "task", 0).Priority).toBe("High");
    expect(byHeader("de", "event", 0).Ereignis).toBe("Durchsicht");
    expect(byHeader("de", "event", 0)["Art des Eintrags"]).toBe("Durchsicht");
    expect(byHeader("en", "event", 0)["Record kind"]).toBe("Inspection");
    const photos = JSON.stringify(spreadsheetTables(records, "en"));
    expect(photos).not.toContain("data:image");
  });
});

describe("spreadsheetZip", () => {
  /** Keeps the byte order mark (a plain decode drops it), so the test sees it. */
  const withBom = new TextDecoder("utf-8", { ignoreBOM: true });
  const unzip = (lang: "en" | "de") =>
    Object.fromEntries(
      Object.entries(unzipSync(spreadsheetZip(records, lang, "2026-11-27T10:00:00.000Z"))).map(
        ([name, bytes]) => [name, withBom.decode(bytes)],
      ),
    );

  it("holds one CSV per kind, German with ; and 38,5 and 01.05.2026", () => {
    const files = unzip("de");
    expect(Object.keys(files).sort()).toEqual(
      [
        "apiaries.csv",
        "events.csv",
        "harvests.csv",
        "hives.csv",
        "inspections.csv",
        "placements.csv",
        "queens.csv",
        "tasks.csv",
        "treatments.csv",
      ].sort(),
    );
    const lines = (files["inspections.csv"] ?? "").split("\r\n");
    expect(lines[0]?.startsWith("\uFEFFID;Datum;Volk-ID;Volk;Stand-ID;Stand;")).toBe(true);
    const header = (lines[0] ?? "").slice(1).split(csvDelimiter("de"));
    const cells = (lines[1] ?? "").split(";");
    const at = (h: string) => cells[header.indexOf(h)];
    expect(at("Datum")).toBe("01.05.2026");
    expect(at("Gewicht (kg)")).toBe("38,5");
    expect(at("Königin gesehen")).toBe("ja");
    expect(at("Eingetragen")).toBe("01.05.2026 16:05");
    expect(at("Notiz")).toBe("'=SUM(A1)");
    expect(files["harvests.csv"]).toContain(";12,25;");
    expect(files["treatments.csv"]).toContain(";19.08.2026;");
  });

  it("holds English with , and 38.5 and 2026-05-01", () => {
    const files = unzip("en");
    const lines = (files["inspections.csv"] ?? "").split("\r\n");
    const header = (lines[0] ?? "").slice(1).split(",");
    const cells = (lines[1] ?? "").split(",");
    const at = (h: string) => cells[header.indexOf(h)];
    expect(at("Date")).toBe("2026-05-01");
    expect(at("Weight (kg)")).toBe("38.5");
    expect(at("Hive")).toBe("Volk 1");
    expect(at("Queen seen")).toBe("yes");
    expect(at("Eggs seen")).toBe("no");
    expect(files["apiaries.csv"]).toContain(",48.137,11.575,");
  });

  it("gives the same bytes for the same records and time", () => {
    const at = "2026-11-27T10:00:00.000Z";
    expect(spreadsheetZip(records, "de", at)).toEqual(spreadsheetZip(records, "de", at));
  });

  it("names the files by the export's day", () => {
    expect(exportFileName("backup", "2026-11-27T23:59:00.000Z")).toBe(
      "hivekeep-backup-2026-11-27.json",
    );
    expect(exportFileName("zip", "2026-11-27T10:00:00.000Z")).toBe(
      "hivekeep-spreadsheets-2026-11-27.zip",
    );
    expect(exportFileName("xlsx", "2026-11-27T10:00:00.000Z")).toBe(
      "hivekeep-spreadsheets-2026-11-27.xlsx",
    );
  });
});

describe("spreadsheetXlsx", () => {
  it("writes a workbook with one sheet per kind, numbers as numbers and days as dates", async () => {
    const files = unzipSync(await spreadsheetXlsx(records, "de"));
    const workbook = strFromU8(files["xl/workbook.xml"] ?? new Uint8Array());
    for (const name of ["Stände", "Völker", "Durchsichten", "Ereignisse"]) {
      expect(workbook).toContain(`name="${name}"`);
    }
    const sheetFiles = Object.keys(files).filter((f) => /^xl\/worksheets\/sheet\d+\.xml$/.test(f));
    expect(sheetFiles).toHaveLength(9);
    const all = Object.values(files)
      .map((b) => strFromU8(b))
      .join("\n");
    expect(all).toContain("<v>38.5</v>");
    expect(all).toContain("Gewicht (kg)");
    expect(all).toContain("dd.mm.yyyy");
  });

  it("turns a day into a UTC date and an unreadable one into text", () => {
    expect(xlsxCell({ day: "2026-05-01T15:30:00.000Z" }, "de")).toEqual({
      value: new Date("2026-05-01T00:00:00.000Z"),
      type: Date,
      format: "dd.mm.yyyy",
    });
    expect(xlsxCell({ day: "soon" }, "en")).toEqual({ value: "soon", type: String });
    expect(xlsxCell(true, "de")).toEqual({ value: "ja", type: String });
    expect(xlsxCell(null, "de")).toBeNull();
  });
});

describe("days and times in the reader's time zone", () => {
  it("writes a visit picked for a day in Berlin on that day, not on the UTC evening before", () => {
    const berlin: RecordSet = {
      ...records,
      // The app stores a day picked in Berlin as the start of that local day.
      inspection: [
        {
          id: "ib",
          hive_id: hiveId,
          date: "2026-11-25T23:00:00.000Z",
          created_at: "2026-11-25T23:30:00.000Z",
        },
      ],
    };
    const t = spreadsheetTables(berlin, "de", "Europe/Berlin").find(
      (x) => x.entity === "inspection",
    );
    const row = Object.fromEntries((t?.header ?? []).map((h, i) => [h, t?.rows[0]?.[i]]));
    expect(Object.values(row)).toContainEqual({ day: "2026-11-26" });
    expect(Object.values(row)).toContainEqual({ instant: "2026-11-26T00:30:00" });
    const utc = spreadsheetTables(berlin, "de").find((x) => x.entity === "inspection");
    expect(utc?.rows[0]).toContainEqual({ day: "2026-11-25" });
  });
});

describe("harvests inside a withdrawal period", () => {
  it("are marked with the day the period ends, by the one rule; others are not", () => {
    const withTreatment: RecordSet = {
      ...records,
      treatment: [
        {
          id: "t1",
          hive_id: hiveId,
          product: "Oxuvar",
          date: "2026-06-20T00:00:00.000Z",
          withdrawal_until: "2026-07-10T00:00:00.000Z",
        },
      ],
      harvest: [
        { id: "h1", hive_id: hiveId, date: "2026-06-30T00:00:00.000Z", amount_kg: 12.25 },
        { id: "h2", hive_id: hiveId, date: "2026-07-20T00:00:00.000Z", amount_kg: 5 },
      ],
    };
    const t = spreadsheetTables(withTreatment, "de").find((x) => x.entity === "harvest");
    expect(t?.header.at(-1)).toBe("In der Wartezeit geerntet, Wartezeit bis");
    expect(t?.rows.map((r) => r.at(-1))).toEqual([{ day: "2026-07-10" }, null]);
  });
});

/**
 * Moving in from elsewhere (issue 26), through TransferService.ImportRecords on every database
 * over HTTP and on a device (test/support/target.ts): an OpenBeehive backup of two seasons
 * (test/fixtures/openbeehive, every table, 500 rows) and spreadsheets of inspections in German
 * and English (test/fixtures/inspections) import completely; importing them again writes
 * nothing; a spreadsheet with bad lines is refused whole, every bad line named.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { callOk, expectError, feedHead, pullAll } from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

const fixture = (path: string): string =>
  readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");
const backupText = fixture("openbeehive/backup.json");
const backup = JSON.parse(backupText) as { data: Record<string, Record<string, unknown>[]> };
const uuid = (kind: number, n: number): string =>
  `01900000-000${kind.toString(16)}-7000-8000-${n.toString(16).padStart(12, "0")}`;

type Count = { entity: string; created?: number; existing?: number };
const createdOf = (counts: Count[]): Record<string, number> =>
  Object.fromEntries(counts.map((c) => [c.entity, c.created ?? 0]));

describe.each(targetKinds)("importing other programs' files on %s", (kind) => {
  describe("an OpenBeehive backup", () => {
    const t = useTestTarget(kind);

    it("a dry run counts every record and what is not carried, and writes nothing", async () => {
      const head = await feedHead(t);
      const body = await callOk(t, "TransferService/ImportRecords", {
        content: backupText,
        dryRun: true,
      });
      expect(body.format).toBe("openbeehive");
      expect(body.problems ?? []).toEqual([]);
      expect(createdOf(body.counts)).toEqual(
        Object.fromEntries(
          Object.entries(backup.data).map(([table, rows]) => [table, rows.length]),
        ),
      );
      expect(body.notCarried).toEqual(
        expect.arrayContaining([
          { field: "task.recurrence", rows: 5 },
          { field: "treatment.note", rows: 12 },
        ]),
      );
      expect((await pullAll(t, head)).changes).toEqual([]);
    });

    it("imports every record; a sample of each kind reads back as written", async () => {
      const body = await callOk(t, "TransferService/ImportRecords", { content: backupText });
      expect(body.written).toBe(true);
      expect(createdOf(body.counts)).toMatchObject({ hive: 12, inspection: 168, event: 239 });

      const moved = await callOk(t, "HiveService/GetHive", { id: uuid(2, 7) });
      expect(moved.hive).toMatchObject({ name: "Volk 7", apiaryId: uuid(1, 3) });
      const inspection = await callOk(t, "InspectionService/GetInspection", { id: uuid(5, 311) });
      const theirs = backup.data.inspection?.find((i) => i.id === uuid(5, 311)) ?? {};
      expect(inspection.inspection).toMatchObject({
        hiveId: uuid(2, 3),
        queenId: uuid(4, 0x64),
        date: "2026-07-01T09:15:00Z",
        weightKg: theirs.weight_kg,
        note: `Honig geerntet\n\nHoney taken: ${theirs.honey_kg} kg`,
      });
      const queens = await callOk(t, "QueenService/ListQueens", { hiveId: uuid(2, 3) });
      expect(queens.queens.map((q: { year: number }) => q.year).sort()).toEqual([2024, 2026]);
      const treatment = await callOk(t, "TreatmentService/GetTreatment", { id: uuid(7, 52) });
      expect(treatment.treatment).toMatchObject({
        product: "Ameisensäure 60 % ad us. vet.",
        withdrawalUntil: "2026-08-20T00:00:00Z",
      });
      const harvest = await callOk(t, "HarvestService/GetHarvest", { id: uuid(6, 21) });
      expect(harvest.harvest).toMatchObject({ batchNumber: "L2025-02", hiveId: uuid(2, 2) });
      const task = await callOk(t, "TaskService/GetTask", { id: uuid(8, 1) });
      expect(task.task).toMatchObject({ title: "Varroa-Windel kontrollieren", done: true });
    });

    it("importing it again creates nothing and the feed does not move", async () => {
      const head = await feedHead(t);
      const body = await callOk(t, "TransferService/ImportRecords", { content: backupText });
      expect(createdOf(body.counts)).toEqual(
        Object.fromEntries(Object.keys(backup.data).map((table) => [table, 0])),
      );
      expect((await pullAll(t, head)).changes).toEqual([]);
    });
  });

  describe("a German spreadsheet into an organization with apiaries and hives", () => {
    const t = useTestTarget(kind);

    it("finds the hives by name, makes the new ones, and a second import writes nothing", async () => {
      const apiary = async (name: string) =>
        (await callOk(t, "ApiaryService/CreateApiary", { name })).apiary.id;
      const sued = await apiary("Obstwiese Süd");
      const wald = await apiary("Waldrand");
      const hive = async (apiaryId: string, name: string) =>
        (
          await callOk(t, "HiveService/CreateHive", {
            apiaryId,
            name,
            date: "2026-03-01T00:00:00Z",
          })
        ).hive.id;
      const volk1 = await hive(sued, "Volk 1");
      await hive(sued, "Volk 2");
      const queen = await callOk(t, "QueenService/CreateQueen", {
        hiveId: volk1,
        year: 2025,
        introducedAt: "2026-03-01T00:00:00Z",
      });
      const content = fixture("inspections/german.csv");

      const body = await callOk(t, "TransferService/ImportRecords", { content });
      expect(body.format).toBe("inspections-csv");
      expect(createdOf(body.counts)).toMatchObject({
        hive: 2,
        placement: 2,
        inspection: 7,
        event: 9,
      });
      const list = await callOk(t, "InspectionService/ListInspections", { hiveId: volk1 });
      expect(list.inspections.map((i: { date: string }) => i.date).sort()).toEqual([
        "2026-04-14T10:30:00Z",
        "2026-05-05T00:00:00Z",
      ]);
      // Frozen as of their date, as an inspection entered here would be.
      for (const i of list.inspections) {
        expect(i).toMatchObject({ apiaryId: sued, queenId: queen.queen.id });
      }
      const hives = await callOk(t, "HiveService/ListHives", { apiaryId: wald });
      expect(hives.hives.map((h: { name: string }) => h.name).sort()).toEqual([
        "Bärbel",
        "Königin Luise",
      ]);

      const head = await feedHead(t);
      const again = await callOk(t, "TransferService/ImportRecords", { content });
      expect(Object.values(createdOf(again.counts)).every((n) => n === 0)).toBe(true);
      expect((await pullAll(t, head)).changes).toEqual([]);
    });
  });

  describe("an English spreadsheet into an empty organization", () => {
    const t = useTestTarget(kind);

    it("makes its apiaries and hives and reads every line", async () => {
      const body = await callOk(t, "TransferService/ImportRecords", {
        content: fixture("inspections/english.csv"),
      });
      expect(createdOf(body.counts)).toMatchObject({ apiary: 2, hive: 3, inspection: 5 });
      expect(body.notCarried).toEqual([{ field: "Inspector", rows: 3 }]);
      const apiaries = await callOk(t, "ApiaryService/ListApiaries", {});
      expect(apiaries.apiaries.map((a: { name: string }) => a.name).sort()).toEqual([
        "Home Yard",
        "Orchard",
      ]);
    });
  });

  describe("a spreadsheet read in the importer's time zone", () => {
    const t = useTestTarget(kind);

    it("a day is its start there, as the app's date picker stores it; a zone no one knows is refused", async () => {
      const content = "Date,Apiary,Hive,Weight\n2026-11-26,Zone Yard,Zone Hive,30.5\n";
      const bad = expectError(
        await t.call("TransferService/ImportRecords", { content, timeZone: "Mars/Olympus" }),
        400,
      );
      expect(bad.message).toMatch(/timeZone "Mars\/Olympus" is not a time zone/);
      await callOk(t, "TransferService/ImportRecords", { content, timeZone: "Europe/Berlin" });
      const hives = await callOk(t, "HiveService/ListHives", {});
      const hiveId = hives.hives.find((h: { name: string }) => h.name === "Zone Hive").id;
      const list = await callOk(t, "InspectionService/ListInspections", { hiveId });
      expect(list.inspections.map((i: { date: string }) => i.date)).toEqual([
        "2026-11-25T23:00:00Z",
      ]);
    });
  });

  describe("a spreadsheet with bad lines", () => {
    const t = useTestTarget(kind);

    it("is refused whole, and a dry run names every bad line", async () => {
      for (const n of [1, 2]) {
        const apiaryId = (await callOk(t, "ApiaryService/CreateApiary", { name: `Stand ${n}` }))
          .apiary.id;
        await callOk(t, "HiveService/CreateHive", { apiaryId, name: `Volk ${n}` });
      }
      const content = fixture("inspections/bad.csv");
      const head = await feedHead(t);
      const e = expectError(await t.call("TransferService/ImportRecords", { content }), 400);
      expect(e.code).toBe("invalid_argument");
      const body = await callOk(t, "TransferService/ImportRecords", { content, dryRun: true });
      expect(body.written ?? false).toBe(false);
      expect(body.problems.map((p: { line: number }) => p.line)).toEqual([
        3, 4, 5, 5, 5, 5, 5, 6, 6, 6, 7, 7, 8,
      ]);
      expect(body.problems[0]).toEqual({
        line: 3,
        column: "Datum",
        message: '"31.02.2026" is not a date: there is no such day or time',
      });
      expect((await pullAll(t, head)).changes).toEqual([]);
    });
  });
});

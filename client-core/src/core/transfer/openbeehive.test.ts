import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isOpenBeehive, readOpenBeehive } from "./openbeehive.ts";
import type { RecordRow } from "./record-set.ts";

// Written by test/fixtures/openbeehive/build.ts (a small business over two seasons).
const backupText = readFileSync(
  new URL("../../../../test/fixtures/openbeehive/backup.json", import.meta.url),
  "utf8",
);
const backup = JSON.parse(backupText) as { data: Record<string, Record<string, unknown>[]> };

const byId = (rows: readonly RecordRow[] | undefined, id: string): RecordRow => {
  const row = rows?.find((r) => r.id === id);
  if (row === undefined) throw new Error(`no row ${id}`);
  return row;
};
const uuid = (kind: number, n: number): string =>
  `01900000-000${kind.toString(16)}-7000-8000-${n.toString(16).padStart(12, "0")}`;

/** The backup with `edit` applied to a deep copy of its document. */
const edited = (edit: (doc: Record<string, unknown>) => void): string => {
  const doc = JSON.parse(backupText) as Record<string, unknown>;
  edit(doc);
  return JSON.stringify(doc);
};
const dataOf = (doc: Record<string, unknown>) =>
  doc.data as Record<string, Record<string, unknown>[]>;

describe("readOpenBeehive: the fixture backup", () => {
  const read = readOpenBeehive(backupText);

  it("reads every row of every table, without a problem", () => {
    expect(read.problems).toEqual([]);
    expect(read.format).toBe("openbeehive");
    const counts = Object.fromEntries(
      Object.entries(read.records).map(([entity, rows]) => [entity, rows?.length]),
    );
    const theirs = Object.fromEntries(
      Object.entries(backup.data).map(([table, rows]) => [table, rows.length]),
    );
    expect(counts).toEqual(theirs);
    expect(counts).toMatchObject({
      apiary: 3,
      hive: 12,
      queen: 13,
      placement: 13,
      inspection: 168,
    });
  });

  it("keeps ids and maps apiaries and hives column by column", () => {
    const apiary = byId(read.records.apiary, uuid(1, 1));
    expect(apiary).toEqual({
      id: uuid(1, 1),
      name: "Obstwiese Süd",
      address: "Am Kirschberg 3, 79100 Freiburg",
      lat: 47.98,
      lng: 7.85,
      created_at: "2025-03-01T09:00:00.000Z",
      updated_at: "2025-03-01T09:00:00.000Z",
    });
    const theirs = backup.data.hive?.find((h) => h.id === uuid(2, 12));
    const hive = byId(read.records.hive, uuid(2, 12));
    expect(hive).toMatchObject({
      apiary_id: uuid(1, 2),
      name: "Volk 12",
      status: 5,
      type: theirs?.type,
      boxes: theirs?.boxes,
      qr_code: "HK-012",
    });
    expect(hive).not.toHaveProperty("organization_id");
    expect(hive).not.toHaveProperty("photo");
  });

  it("renames placement start_at/end_at; a moved hive has both stays, in UTC", () => {
    const stays = read.records.placement?.filter((p) => p.hive_id === uuid(2, 7));
    expect(stays).toEqual([
      {
        id: uuid(3, 7),
        hive_id: uuid(2, 7),
        apiary_id: uuid(1, 2),
        started_at: "2025-03-27T00:00:00.000Z",
        ended_at: "2026-07-01T16:30:00.000Z",
      },
      {
        id: uuid(3, 0x64),
        hive_id: uuid(2, 7),
        apiary_id: uuid(1, 3),
        started_at: "2026-07-01T16:30:00.000Z",
        ended_at: null,
      },
    ]);
  });

  it("turns 0/1 into booleans and day-only dates into midnight UTC (queens)", () => {
    expect(byId(read.records.queen, uuid(4, 3))).toMatchObject({
      year: 2024,
      marking: 5,
      active: false,
      introduced_at: "2025-03-23T00:00:00.000Z",
      replaced_at: "2026-06-10T00:00:00.000Z",
    });
    expect(byId(read.records.queen, uuid(4, 0x64))).toMatchObject({
      hive_id: uuid(2, 3),
      active: true,
      replaced_at: null,
      note: "Umgeweiselt wegen Stechlust",
    });
  });

  it("maps an inspection, its offset date to UTC, and its extra columns to note lines", () => {
    const theirs = backup.data.inspection?.find((i) => i.id === uuid(5, 311)) ?? {};
    const ours = byId(read.records.inspection, uuid(5, 311));
    expect(theirs.date).toBe("2026-07-01T11:15:00+02:00");
    expect(ours).toMatchObject({
      hive_id: uuid(2, 3),
      date: "2026-07-01T09:15:00.000Z",
      weight_kg: theirs.weight_kg,
      temp_hive: theirs.temp_hive,
      humidity_outside: theirs.humidity_outside,
      queen_seen: theirs.queen_seen === 1,
      covered_larva: theirs.covered_larva === 1,
      stores: theirs.stores,
      calmness: theirs.calmness,
    });
    expect(ours.note).toBe(`Honig geerntet\n\nHoney taken: ${theirs.honey_kg} kg`);
    for (const gone of ["honey_kg", "fed_kg", "drone_frame_cut", "youngest_larva"]) {
      expect(ours).not.toHaveProperty(gone);
    }
    const fed = byId(read.records.inspection, uuid(5, 106));
    const fedTheirs = backup.data.inspection?.find((i) => i.id === uuid(5, 106)) ?? {};
    expect(fed.note).toBe(
      `Fed: ${fedTheirs.fed_kg} kg\nYoungest larva: ${fedTheirs.youngest_larva} days old`,
    );
    expect(byId(read.records.inspection, uuid(5, 103)).note).toBe(
      "Drone frame cut: yes\nYoungest larva: 4 days old",
    );
  });

  it("gives each inspection the apiary and queen of its hive as of its date", () => {
    // Hive 3's queen was replaced on 2026-06-10: inspections before have the old one.
    const hive3 = read.records.inspection?.filter((i) => i.hive_id === uuid(2, 3)) ?? [];
    for (const i of hive3) {
      const queen = String(i.date) < "2026-06-10" ? uuid(4, 3) : uuid(4, 0x64);
      expect(i.queen_id, String(i.date)).toBe(queen);
    }
    expect(new Set(hive3.map((i) => i.queen_id)).size).toBe(2);
    // Hive 7 moved to the heath on 2026-07-01.
    const hive7 = read.records.inspection?.filter((i) => i.hive_id === uuid(2, 7)) ?? [];
    for (const i of hive7) {
      const apiary = String(i.date) < "2026-07-01T16:30" ? uuid(1, 2) : uuid(1, 3);
      expect(i.apiary_id, String(i.date)).toBe(apiary);
    }
    expect(new Set(hive7.map((i) => i.apiary_id)).size).toBe(2);
  });

  it("maps harvests, treatments, tasks and events (detail → detail_json)", () => {
    expect(byId(read.records.harvest, uuid(6, 21))).toMatchObject({
      hive_id: uuid(2, 2),
      date: "2025-07-12T00:00:00.000Z",
      best_before: "2027-07-31T00:00:00.000Z",
      batch_number: "L2025-02",
      note: "etwas feucht, nachgetrocknet",
    });
    expect(byId(read.records.treatment, uuid(7, 52))).toEqual({
      id: uuid(7, 52),
      apiary_id: uuid(1, 1),
      hive_id: uuid(2, 5),
      queen_id: uuid(4, 5),
      date: "2026-08-06T05:30:00.000Z",
      product: "Ameisensäure 60 % ad us. vet.",
      active_ingredient: "Ameisensäure",
      dose: "2 ml je Wabe",
      method: "Nassenheider Verdunster",
      batch_number: "AS-2026-02",
      withdrawal_until: "2026-08-20T00:00:00.000Z",
      reason: "Varroa",
    });
    expect(byId(read.records.task, uuid(8, 1))).toEqual({
      id: uuid(8, 1),
      title: "Varroa-Windel kontrollieren",
      hive_id: uuid(2, 1),
      apiary_id: uuid(1, 1),
      due_at: "2026-05-01T00:00:00.000Z",
      done: true,
      priority: 3,
      created_at: "2026-03-01T12:00:00.000Z",
    });
    expect(byId(read.records.task, uuid(8, 3))).toMatchObject({ apiary_id: "", done: true });
    const moved = read.records.event?.find((e) => e.type === 4);
    expect(moved).toMatchObject({
      hive_id: uuid(2, 7),
      date: "2026-07-01T16:30:00.000Z",
      detail_json: JSON.stringify({ from: uuid(1, 2), to: uuid(1, 3) }),
      author_id: "user-openbeehive-1",
    });
    expect(moved).not.toHaveProperty("scope_id");
    expect(read.records.event?.filter((e) => e.type === 7).map((e) => e.amount_kg)).toEqual(
      read.records.harvest?.map((h) => h.amount_kg),
    );
  });

  it("counts what no column of ours holds", () => {
    expect(read.notCarried).toEqual({
      "apiary.note": 1,
      "treatment.note": 12,
      "task.note": 2,
      "task.recurrence": 5,
      "task.assigned_to": 1,
    });
  });
});

describe("readOpenBeehive: hostile and broken files", () => {
  const problemsOf = (text: string) => readOpenBeehive(text).problems;

  it("refuses what is not JSON, not an OpenBeehive backup, or of another major version", () => {
    expect(problemsOf(backupText.slice(0, 5000))).toEqual([
      { path: "$", message: expect.stringMatching(/^not JSON: /) },
    ]);
    expect(problemsOf('{"format":"hivekeep","data":{}}')).toEqual([
      { path: "$", message: 'not an OpenBeehive backup (no "openbeehive_export": true)' },
    ]);
    expect(problemsOf("[1,2]")[0]?.message).toMatch(/not an OpenBeehive backup/);
    expect(problemsOf(edited((d) => (d.schema_version = "1.0.0")))).toEqual([
      {
        path: "$.schema_version",
        message: "schema_version 1.0.0 is not supported (this reader knows 0.x)",
      },
    ]);
    expect(problemsOf(edited((d) => (d.schema_version = 1)))[0]?.path).toBe("$.schema_version");
    expect(problemsOf(edited((d) => (d.data = [])))).toEqual([
      { path: "$.data", message: "data must be an object" },
    ]);
    expect(readOpenBeehive(edited((d) => (d.schema_version = "0.3"))).problems).toEqual([]);
  });

  it("names the table that is not an array and the row without an id", () => {
    const text = edited((d) => {
      dataOf(d).hive = { rows: 3 } as never;
      delete dataOf(d).apiary?.[1]?.id;
      (dataOf(d).task as unknown[])[2] = "a task";
    });
    expect(problemsOf(text)).toEqual([
      { entity: "apiary", path: "$.data.apiary[1].id", message: "apiary row has no id" },
      { entity: "hive", path: "$.data.hive", message: "hive must be an array of rows" },
      { entity: "task", path: "$.data.task[2]", message: "task row must be an object" },
    ]);
  });

  it("names each value of the wrong type or outside its column's rules, with its record", () => {
    const text = edited((d) => {
      const i = dataOf(d).inspection?.[0] ?? {};
      i.queen_seen = "yes";
      i.weight_kg = "38,5";
      i.frames = 2.5;
      i.date = "26.11.2026";
      const q = dataOf(d).queen?.[0] ?? {};
      q.marking = 9;
      const h = dataOf(d).harvest?.[0] ?? {};
      h.hive_id = null;
      const e = dataOf(d).event?.[0] ?? {};
      e.id = "not an id!";
      dataOf(d).apiary?.push({ ...dataOf(d).apiary?.[0] });
    });
    const inspection = backup.data.inspection?.[0]?.id;
    expect(problemsOf(text)).toEqual([
      {
        entity: "apiary",
        id: uuid(1, 1),
        path: "$.data.apiary[3]",
        message: `apiary ${uuid(1, 1)} appears twice`,
      },
      {
        entity: "queen",
        id: uuid(4, 1),
        path: "$.data.queen[0].marking",
        message: "marking must be one of the enum numbers 0, 1, 2, 3, 4, 5",
      },
      {
        entity: "inspection",
        id: inspection,
        path: "$.data.inspection[0].date",
        message: 'date: "26.11.2026" is not a date (expected e.g. 2026-11-26)',
      },
      {
        entity: "inspection",
        id: inspection,
        path: "$.data.inspection[0].queen_seen",
        message: "queen_seen must be 0 or 1",
      },
      {
        entity: "inspection",
        id: inspection,
        path: "$.data.inspection[0].frames",
        message: "frames must be an integer",
      },
      {
        entity: "inspection",
        id: inspection,
        path: "$.data.inspection[0].weight_kg",
        message: "weight_kg must be a finite number",
      },
      {
        entity: "harvest",
        id: backup.data.harvest?.[0]?.id,
        path: "$.data.harvest[0].hive_id",
        message: "hive_id is required and cannot be empty",
      },
      {
        entity: "event",
        id: "not an id!",
        path: "$.data.event[0].id",
        message: 'id must be "" or 1-100 characters of [A-Za-z0-9_-]',
      },
    ]);
  });

  it("names a row without a required column, and lists at most 1000 problems", () => {
    const missing = edited((d) => {
      delete dataOf(d).inspection?.[2]?.date;
    });
    expect(problemsOf(missing)).toEqual([
      {
        entity: "inspection",
        id: backup.data.inspection?.[2]?.id,
        path: "$.data.inspection[2]",
        message: `inspection ${backup.data.inspection?.[2]?.id} has no date`,
      },
    ]);
    const junk = edited((d) => {
      dataOf(d).apiary = Array.from({ length: 1500 }, (_, i) => ({ name: `junk ${i}` }));
    });
    const problems = problemsOf(junk);
    expect(problems).toHaveLength(1001);
    expect(problems[999]?.path).toBe("$.data.apiary[999].id");
    expect(problems[1000]).toEqual({
      message: "500 more problems not listed: fix these and read the file again",
    });
  });

  it("counts unknown tables and columns instead of dropping them silently", () => {
    const read = readOpenBeehive(
      edited((d) => {
        dataOf(d).beehive_scale = [{ id: "s1" }, { id: "s2" }];
        const h = dataOf(d).hive?.[0] ?? {};
        h.frame_size = "Zander";
        h.unused = null;
      }),
    );
    expect(read.problems).toEqual([]);
    expect(read.notCarried).toMatchObject({ beehive_scale: 2, "hive.frame_size": 1 });
    expect(read.notCarried).not.toHaveProperty("hive.unused");
  });
});

describe("isOpenBeehive", () => {
  it("is true only for a document that says it is an OpenBeehive export", () => {
    expect(isOpenBeehive(backup)).toBe(true);
    expect(isOpenBeehive({ openbeehive_export: "true" })).toBe(false);
    expect(isOpenBeehive({ format: "hivekeep" })).toBe(false);
    expect(isOpenBeehive(null)).toBe(false);
    expect(isOpenBeehive([{ openbeehive_export: true }])).toBe(false);
  });
});

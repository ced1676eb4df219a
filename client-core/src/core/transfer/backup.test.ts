import { describe, expect, it } from "vitest";
import type { EntityName } from "../entities.ts";
import type { Hlc } from "../hlc.ts";
import { type BackupSource, backupFormat, readBackup, recordOf, writeBackup } from "./backup.ts";
import type { RecordRow } from "./record-set.ts";

const at = "2026-04-01T10:00:00.000Z";
const photo = "data:image/png;base64,AAAA";

/** A source over records per entity (`live`) and every record by id (`all`), in pages of 2. */
function source(
  live: Partial<Record<EntityName, RecordRow[]>>,
  all: Partial<Record<EntityName, RecordRow[]>> = live,
): BackupSource & { reads: number } {
  const s = {
    reads: 0,
    organization: { id: "org-1", name: 'Imkerei "Süd"' },
    exportedAt: at,
    async *pages(entity: EntityName) {
      s.reads++;
      const rows = live[entity] ?? [];
      for (let i = 0; i < rows.length; i += 2) yield rows.slice(i, i + 2);
    },
    async byIds(entity: EntityName, ids: readonly string[]) {
      return (all[entity] ?? []).filter((r) => ids.includes(r.id));
    },
  };
  return s;
}

async function text(chunks: AsyncIterable<string>): Promise<{ text: string; count: number }> {
  let out = "";
  let count = 0;
  for await (const c of chunks) {
    out += c;
    count++;
  }
  return { text: out, count };
}

describe("recordOf", () => {
  it("takes every registry column the row holds, photos as their values, no null timestamps, deleted marked", () => {
    const row = recordOf("inspection", {
      id: "i1",
      values: {
        hive_id: "h1",
        date: at,
        created_at: null,
        photo_keys: { adds: [{ tag: "x" as Hlc, value: photo }], removed: [] },
        weight_kg: 38.5,
        queen_seen: false,
      },
      deleted: true,
    });
    expect(row).toEqual({
      id: "i1",
      hive_id: "h1",
      date: at,
      photo_keys: [photo],
      weight_kg: 38.5,
      queen_seen: false,
      deleted: true,
    });
  });
});

describe("writeBackup", () => {
  it("writes the envelope and every record, plus the deleted records live ones refer to, transitively", async () => {
    const apiaries = [
      { id: "a1", name: "Home" },
      { id: "a2", name: "Old", deleted: true },
    ];
    const hives = [
      { id: "h1", apiary_id: "a1", name: "Volk 1" },
      { id: "h2", apiary_id: "a2", name: "Gone", deleted: true },
    ];
    const inspections = [
      { id: "i1", hive_id: "h1", date: at },
      { id: "i2", hive_id: "h2", date: at, photo_keys: [photo] },
      { id: "i3", hive_id: "h1", date: at },
    ];
    const src = source(
      {
        apiary: [apiaries[0] as RecordRow],
        hive: [hives[0] as RecordRow],
        inspection: inspections,
      },
      { apiary: apiaries, hive: hives, inspection: inspections },
    );
    const { text: file, count } = await text(writeBackup(src));
    expect(count).toBeGreaterThan(5);
    const parsed = JSON.parse(file);
    expect(parsed).toEqual({
      format: backupFormat,
      version: 1,
      exportedAt: at,
      organization: { id: "org-1", name: 'Imkerei "Süd"' },
      records: {
        apiary: apiaries,
        hive: hives,
        placement: [],
        inspection: inspections,
        queen: [],
        task: [],
        treatment: [],
        harvest: [],
        event: [],
      },
    });
    const read = readBackup(file);
    expect(read.problems).toEqual([]);
    expect(read.records.hive).toEqual(hives);
  });

  /** A source whose second read of each entity answers `second` (a write between the passes). */
  function changing(
    first: Partial<Record<EntityName, RecordRow[]>>,
    second: Partial<Record<EntityName, RecordRow[]>>,
    all: Partial<Record<EntityName, RecordRow[]>>,
  ): BackupSource {
    const reads = new Map<EntityName, number>();
    return {
      ...source(first, all),
      async *pages(entity: EntityName) {
        const n = (reads.get(entity) ?? 0) + 1;
        reads.set(entity, n);
        yield (n === 1 ? first : second)[entity] ?? [];
      },
    };
  }

  it("writes exactly what the first pass found, reading by id what the second one's pages skipped", async () => {
    const a1 = { id: "a1", name: "Home" };
    const h1 = { id: "h1", apiary_id: "a1", name: "One" };
    const h2 = { id: "h2", apiary_id: "a1", name: "Two" };
    const h3 = { id: "h3", apiary_id: "a1", name: "New meanwhile" };
    const src = changing(
      { apiary: [a1], hive: [h1, h2] },
      { apiary: [a1], hive: [h1, h3] },
      { apiary: [a1], hive: [h1, h2, h3] },
    );
    const { text: file } = await text(writeBackup(src));
    expect(JSON.parse(file).records.hive).toEqual([h1, h2]);
  });

  it("fails when a record came to refer to one the file lacks, and keeps a reference found nowhere", async () => {
    const a1 = { id: "a1", name: "Home" };
    const a2 = { id: "a2", name: "New meanwhile" };
    const h1 = { id: "h1", apiary_id: "a1", name: "One" };
    const moved = { ...h1, apiary_id: "a2" };
    const src = changing(
      { apiary: [a1], hive: [h1] },
      { apiary: [a1, a2], hive: [moved] },
      { apiary: [a1, a2], hive: [moved] },
    );
    await expect(text(writeBackup(src))).rejects.toThrow(
      "the organization changed while it was exported (hive h1 refers to apiary a2, which is not in the file): export again",
    );
    const orphan = { id: "i1", hive_id: "nowhere", date: at };
    const { text: file } = await text(writeBackup(source({ inspection: [orphan] })));
    expect(JSON.parse(file).records.inspection).toEqual([orphan]);
  });

  it("writes an empty organization as a readable file", async () => {
    const { text: file } = await text(writeBackup(source({})));
    expect(readBackup(file)).toMatchObject({ problems: [], records: { apiary: [] } });
  });
});

describe("readBackup", () => {
  const valid = {
    format: backupFormat,
    version: 1,
    exportedAt: at,
    organization: { id: "o", name: "n" },
    records: { apiary: [{ id: "a1", name: "Home" }] },
  };
  const problemsOf = (value: unknown) => readBackup(JSON.stringify(value)).problems;

  it("reads a valid file", () => {
    expect(readBackup(JSON.stringify(valid))).toEqual({
      format: "hivekeep",
      records: { apiary: [{ id: "a1", name: "Home" }] },
      problems: [],
      notCarried: {},
    });
  });

  it("refuses a truncated file, and anything that is not a JSON object", () => {
    const whole = JSON.stringify(valid);
    const cut = readBackup(whole.slice(0, whole.length - 10));
    expect(cut.problems).toHaveLength(1);
    expect(cut.problems[0]?.message).toMatch(/not complete JSON/);
    expect(cut.records).toEqual({});
    expect(readBackup("").problems[0]?.message).toMatch(/not complete JSON/);
    expect(problemsOf([valid])[0]?.message).toMatch(/not a JSON object/);
    expect(problemsOf(null)[0]?.message).toMatch(/not a JSON object/);
  });

  it("refuses another format and another version", () => {
    expect(problemsOf({ ...valid, format: "openbeehive_export" })).toEqual([
      {
        path: "format",
        message: 'the file is not a Hivekeep backup (format must be "hivekeep-backup")',
      },
    ]);
    expect(problemsOf({ ...valid, version: 2 })).toEqual([
      { path: "version", message: "backup version 2 is not one this Hivekeep reads (1)" },
    ]);
    expect(problemsOf({ ...valid, version: "1" })[0]?.path).toBe("version");
  });

  it("refuses unknown keys, entities and columns, and malformed envelopes, naming where", () => {
    const problems = problemsOf({
      ...valid,
      extra: 1,
      organization: "o",
      records: {
        beehive: [],
        hive: {},
        apiary: [
          "x",
          { id: "bad id!", name: "a" },
          { id: "a1", name: "ok", colour: "red" },
          { id: "a1", name: "twice" },
          { id: "a2", name: "a", deleted: "yes" },
        ],
      },
    });
    expect(problems.map((p) => p.path)).toEqual([
      "extra",
      "organization",
      "records.beehive",
      "records.hive",
      "records.apiary[0]",
      "records.apiary[1].id",
      "records.apiary[2].colour",
      "records.apiary[3]",
      "records.apiary[4].deleted",
    ]);
    expect(problems[6]).toMatchObject({ entity: "apiary", id: "a1", column: "colour" });
    expect(problemsOf({ ...valid, records: [] })[0]?.path).toBe("records");
  });

  it("refuses values of the wrong type or outside the column's rules, with entity, id and path", () => {
    const problems = problemsOf({
      ...valid,
      records: {
        hive: [{ id: "h1", apiary_id: 7, name: "x", boxes: "2" }],
        inspection: [
          { id: "i1", hive_id: "h1", date: "2026-02-30", photo_keys: "x", weight_kg: 1e9 },
          { id: "i2", hive_id: "h1", date: at, photo_keys: ["http://x"] },
        ],
      },
    });
    expect(problems.map((p) => `${p.entity} ${p.id} ${p.path}`)).toEqual([
      "hive h1 records.hive[0].apiary_id",
      "hive h1 records.hive[0].boxes",
      "inspection i1 records.inspection[0].date",
      "inspection i1 records.inspection[0].photo_keys",
      "inspection i1 records.inspection[0].weight_kg",
      "inspection i2 records.inspection[1].photo_keys",
    ]);
  });

  it("lists at most 1000 problems and counts the rest", () => {
    const many = Array.from({ length: 1500 }, (_, i) => ({ id: `a${i}`, name: 5 }));
    const problems = problemsOf({ ...valid, records: { apiary: many } });
    expect(problems).toHaveLength(1001);
    expect(problems.at(-1)?.message).toBe("and 500 more problems");
  });
});

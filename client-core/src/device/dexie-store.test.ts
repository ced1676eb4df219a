import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import { describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { Hlc } from "../core/hlc.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { replicaStoreSuite, suiteWallMs } from "../testing/replica-store-suite.ts";
import { DeviceClock } from "./device-clock.ts";
import { dexieStore, readRows } from "./dexie-store.ts";
import { type DeviceRow, openReplicaDb, storesV1, storesV2, storesV6 } from "./replica-db.ts";

const hlc = "000000000002000:00000:test" as Hlc;

let n = 0;
replicaStoreSuite("Dexie (fake-indexeddb)", async () => {
  n += 1;
  const db = openReplicaDb(`store-suite-${n}`);
  await db.open();
  const clock = new DeviceClock({ node: "suite-device" }, () => suiteWallMs);
  return {
    store: dexieStore(db, { clock }),
    clock,
    async close() {
      db.close();
      await Dexie.delete(`store-suite-${n}`);
    },
  };
});

describe("Replica schema version 2", () => {
  it("upgrades a version 1 replica in place: inspections get `live`, lists and maxBy use the new indexes", async () => {
    const name = "upgrade-v1";
    const hive = "0190a0b0-c0d0-7e0f-8000-00000000000a";
    const row = (id: string, date: string, deleted = false): Omit<DeviceRow, "live"> => ({
      id,
      scopeId: "apiary-1",
      values: { hive_id: hive, date },
      clock: { hive_id: hlc, date: hlc },
      deleted,
      complete: 1,
    });
    const v1 = new Dexie(name);
    v1.version(1).stores(storesV1());
    await v1.open();
    await v1
      .table("inspections")
      .bulkPut([
        row("i1", "2026-05-01T00:00:00.000Z"),
        row("i2", "2026-05-03T00:00:00.000Z"),
        row("i3", "2026-05-09T00:00:00.000Z", true),
        { ...row("i4", "2026-05-04T00:00:00.000Z"), complete: 0 },
      ]);
    await v1.table("hives").put({
      id: hive,
      scopeId: "apiary-1",
      values: { apiary_id: "apiary-1", name: "Nord" },
      clock: { apiary_id: hlc, name: hlc },
      deleted: false,
      complete: 1,
    });
    v1.close();

    const db = openReplicaDb(name);
    await db.open();
    try {
      const stored = await db.table<DeviceRow, string>("inspections").toArray();
      expect(Object.fromEntries(stored.map((r) => [r.id, r.live]))).toEqual({
        i1: 1,
        i2: 1,
        i3: 0,
        i4: 0,
      });
      const store = dexieStore(db, { clock: ignoreStamps });
      const page = await store.read((r) =>
        r.list("inspection", {
          where: [{ column: "hive_id", eq: hive }],
          orderBy: [
            { column: "date", desc: true },
            { column: "id", desc: true },
          ],
          limit: 1,
        }),
      );
      expect({ ids: page.rows.map((r) => r.id), total: page.total }).toEqual({
        ids: ["i2"],
        total: 2,
      });
      const latest = await store.read((r) => r.maxBy("inspection", "hive_id", [hive], "date"));
      expect(latest.get(hive)).toBe("2026-05-03T00:00:00.000Z");
      // A table without an ordered index is left as it was, and reads the same.
      const hives = await store.read((r) => r.list("hive", { orderBy: [{ column: "id" }] }));
      expect(hives.rows.map((r) => r.values.name)).toEqual(["Nord"]);
    } finally {
      db.close();
      await Dexie.delete(name);
    }
  });
});

describe("Replica schema version 6", () => {
  it("indexes a version 5 replica's events by hive and type: a hive's events of a type read alone", async () => {
    const name = "upgrade-v5";
    const event = (id: string, hive: string, type: number): DeviceRow => ({
      id,
      scopeId: "apiary-1",
      values: { hive_id: hive, type, date: "2026-05-01T00:00:00.000Z" },
      clock: { hive_id: hlc, type: hlc, date: hlc },
      deleted: false,
      complete: 1,
      live: 1,
    });
    const v5 = new Dexie(name);
    v5.version(5).stores({
      ...storesV2(),
      notices: "key",
      photos: "ref, usedAt",
      series: "[hiveId+start]",
      seriesRanges: "hiveId",
    });
    await v5.open();
    await v5
      .table("events")
      .bulkPut([
        event("e1", "h1", 3),
        event("e2", "h1", 1),
        event("e3", "h2", 3),
        event("e4", "h1", 3),
      ]);
    v5.close();

    const db = openReplicaDb(name);
    await db.open();
    try {
      expect(db.verno).toBeGreaterThanOrEqual(6);
      // The index exists and holds the rows already there.
      const ids = await db
        .table<DeviceRow, string>("events")
        .where("[values.hive_id+values.type]")
        .equals(["h1", 3])
        .primaryKeys();
      expect(ids.sort()).toEqual(["e1", "e4"]);
      // A list filtered on both answers through it, as the table would.
      const store = dexieStore(db, { clock: ignoreStamps });
      const page = await store.read((r) =>
        r.list("event", {
          where: [
            { column: "type", eq: 3 },
            { column: "hive_id", eq: "h1" },
          ],
          orderBy: [{ column: "id" }],
        }),
      );
      expect(page.rows.map((r) => r.id)).toEqual(["e1", "e4"]);
    } finally {
      db.close();
      await Dexie.delete(name);
    }
  });
});

describe("Replica schema versions 7 and 8", () => {
  it("marks a version 6 replica's live visits (the visits' indexes hold them, not readings or deleted visits) and makes its live readings' points", async () => {
    const name = "upgrade-v6";
    const inspection = (id: string, values: Record<string, unknown>, live: 0 | 1): DeviceRow => ({
      id,
      scopeId: "apiary-1",
      values: { hive_id: "h1", ...values },
      clock: Object.fromEntries(Object.keys({ hive_id: 1, ...values }).map((c) => [c, hlc])),
      deleted: live === 0,
      complete: 1,
      live,
    });
    const v6 = new Dexie(name);
    v6.version(6).stores({
      ...storesV6(),
      notices: "key",
      photos: "ref, usedAt",
      series: "[hiveId+start]",
      seriesRanges: "hiveId",
    });
    await v6.open();
    await v6
      .table("inspections")
      .bulkPut([
        inspection("v1", { date: "2026-05-01T00:00:00.000Z", note: "first" }, 1),
        inspection("r1", { date: "2026-05-02T00:00:00.000Z", weight_kg: 40 }, 1),
        inspection("v2", { date: "2026-05-03T00:00:00.000Z", queen_seen: true }, 0),
        inspection("v3", { date: "2026-05-04T00:00:00.000Z" }, 1),
      ]);
    v6.close();

    const db = openReplicaDb(name);
    await db.open();
    try {
      expect(db.verno).toBe(9);
      // Version 8 (reading-points.ts): the one live reading's point; version 7's marking ran
      // before the points' table existed and wrote none.
      expect(await db.table("readingPoints").toArray()).toEqual([
        {
          id: "r1",
          hiveId: "h1",
          at: Date.parse("2026-05-02T00:00:00.000Z"),
          weightKg: 40,
          tempHive: 0,
          tempOutside: 0,
          humidityHive: 0,
          humidityOutside: 0,
        },
      ]);
      const marked = await db
        .table<DeviceRow, string>("inspections")
        .where("[visit+values.hive_id+values.date]")
        .between([1, "h1", Dexie.minKey], [1, "h1", Dexie.maxKey])
        .primaryKeys();
      expect(marked).toEqual(["v1", "v3"]);
      const store = dexieStore(db, { clock: ignoreStamps });
      const page = await store.read((r) =>
        r.list("inspection", {
          orderBy: [
            { column: "date", desc: true },
            { column: "id", desc: true },
          ],
          limit: 5,
          visitsOnly: true,
        }),
      );
      expect(page.rows.map((r) => r.id)).toEqual(["v3", "v1"]);
    } finally {
      db.close();
      await Dexie.delete(name);
    }
  });
});

describe("readRows", () => {
  const row = (id: string): DeviceRow => ({
    id,
    scopeId: "apiary-1",
    values: { name: id },
    clock: { name: hlc },
    deleted: false,
    complete: 1,
    live: 1,
  });
  const id = (n: number) => `h${String(n).padStart(5, "0")}`;
  const change = (entityId: string): Change => ({
    entity: "hive",
    entityId,
    scopeId: "apiary-1",
    op: "upsert",
    payload: { name: "x" },
    hlc,
    authorId: "me",
  });

  it("finds the same rows whether their key range is read at once (dense) or row by row (sparse)", async () => {
    const name = "read-rows";
    const db = openReplicaDb(name);
    await db.open();
    try {
      // Stored: every even id of 0..999, and 2000..2999 (a dense block).
      const stored = [
        ...Array.from({ length: 500 }, (_, i) => id(2 * i)),
        ...Array.from({ length: 1000 }, (_, i) => id(2000 + i)),
      ];
      await db.table("hives").bulkPut(stored.map(row));
      const has = new Set(stored);
      for (const ids of [
        // 200 consecutive ids, half stored: the range holds 100 rows (read at once).
        Array.from({ length: 200 }, (_, i) => id(100 + i)),
        // 150 ids past everything stored: an empty range.
        Array.from({ length: 150 }, (_, i) => id(5000 + i)),
        // 120 ids spread over the dense block and beyond: the range holds about 1,000 rows
        // (read row by row).
        Array.from({ length: 120 }, (_, i) => id(1990 + 10 * i)),
        // A few ids: row by row.
        [id(2), id(3), id(2500)],
      ]) {
        const rows = await db.transaction("r", db.table("hives"), (tx) =>
          readRows(tx, ids.map(change)),
        );
        expect([...rows.keys()]).toEqual(ids.map((i) => `hive/${i}`));
        for (const i of ids) expect(rows.get(`hive/${i}`)?.id).toBe(has.has(i) ? i : undefined);
      }
    } finally {
      db.close();
      await Dexie.delete(name);
    }
  });
});

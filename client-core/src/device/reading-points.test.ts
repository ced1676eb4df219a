/**
 * The reading points' table (reading-points.ts) stays in step with the inspections whatever
 * writes them: the store's merged writes, a row put or deleted by hand (the pull's merge, the
 * readings window letting go), a cleared table, a transaction that fails.
 */
import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { Hlc } from "../core/hlc.ts";
import type { Values } from "../core/merge.ts";
import { hiveReadingPoints, pointsOfRows } from "../ops/reading-points.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { dexieStore } from "./dexie-store.ts";
import { readHivePoints } from "./reading-points.ts";
import { type DeviceRow, entityTable, openReplicaDb, type ReplicaDb } from "./replica-db.ts";

let n = 0;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function open(): Promise<ReplicaDb> {
  const name = `reading-points-${++n}`;
  const db = openReplicaDb(name);
  await db.open();
  closers.push(async () => {
    db.close();
    await Dexie.delete(name);
  });
  return db;
}

let clock = 0;
const change = (id: string, payload: Values, op: Change["op"] = "upsert"): Change => ({
  entity: "inspection",
  entityId: id,
  scopeId: "a1",
  op,
  payload,
  hlc: `${String(++clock).padStart(15, "0")}:00000:test` as Hlc,
  authorId: "me",
});

const day = Date.parse("2026-05-01T00:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

/** What the points must be: the rule over every live row (the fallback's read). */
async function expected(db: ReplicaDb, hiveId: string) {
  const rows = await entityTable(db, "inspection").toArray();
  return pointsOfRows(
    rows
      .filter((r) => r.complete === 1 && !r.deleted && r.values.hive_id === hiveId)
      .map((r) => ({
        id: r.id,
        scopeId: r.scopeId,
        values: r.values,
        clock: r.clock,
        deleted: false,
      })),
  );
}

describe("reading points", () => {
  it("follow a reading's edits: a new date, another hive, a visit and back, a delete", async () => {
    const db = await open();
    const store = dexieStore(db, { clock: ignoreStamps });
    const write = (changes: Change[]) => store.write((w) => w.apply(changes));
    const points = (hive: string) => readHivePoints(db, hive);

    await write([
      change("r1", { hive_id: "h1", date: iso(day + 60_000), weight_kg: 40.5, temp_hive: 34 }),
      change("r2", { hive_id: "h1", date: iso(day), weight_kg: 40 }),
      change("v1", { hive_id: "h1", date: iso(day + 30_000), weight_kg: 39, note: "looked" }),
    ]);
    expect(await points("h1")).toEqual([
      {
        id: "r2",
        at: day,
        weightKg: 40,
        tempHive: 0,
        tempOutside: 0,
        humidityHive: 0,
        humidityOutside: 0,
      },
      {
        id: "r1",
        at: day + 60_000,
        weightKg: 40.5,
        tempHive: 34,
        tempOutside: 0,
        humidityHive: 0,
        humidityOutside: 0,
      },
    ]);

    // r2 moves after r1; r1 becomes a visit; v1 becomes a reading.
    await write([
      change("r2", { date: iso(day + 120_000) }),
      change("r1", { note: "a look" }),
      change("v1", { note: null }),
    ]);
    expect((await points("h1")).map((p) => [p.id, p.at])).toEqual([
      ["v1", day + 30_000],
      ["r2", day + 120_000],
    ]);
    // v1 moves to another hive; r2 is deleted.
    await write([change("v1", { hive_id: "h2" }), change("r2", {}, "delete")]);
    expect(await points("h1")).toEqual([]);
    expect((await points("h2")).map((p) => p.id)).toEqual(["v1"]);
    // Read through the store: the same points.
    expect(await store.read((r) => hiveReadingPoints(r, "h2"))).toEqual(await points("h2"));
  });

  it("follow rows put, deleted and cleared by hand, and a failed transaction leaves neither", async () => {
    const db = await open();
    const row = (id: string, values: Values, live = true): DeviceRow => ({
      id,
      scopeId: "a1",
      values: { hive_id: "h1", date: iso(day + Number(id.slice(1)) * 60_000), ...values },
      clock: {},
      deleted: !live,
      complete: 1,
      live: live ? 1 : 0,
    });
    const table = entityTable(db, "inspection");
    await table.bulkPut([row("r1", { weight_kg: 1 }), row("r2", { weight_kg: 2 })]);
    await table.put(row("r3", { weight_kg: 3 }));
    expect((await readHivePoints(db, "h1")).map((p) => p.id)).toEqual(["r1", "r2", "r3"]);
    // The readings window lets r1 go; r2 is tombstoned; a partial row has no point.
    await table.bulkDelete(["r1"]);
    await table.put(row("r2", { weight_kg: 2 }, false));
    await table.put({ ...row("r4", { weight_kg: 4 }), complete: 0 });
    expect((await readHivePoints(db, "h1")).map((p) => p.id)).toEqual(["r3"]);

    await expect(
      db.transaction("rw", table, async (tx) => {
        await entityTable(tx, "inspection").put(row("r5", { weight_kg: 5 }));
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect((await readHivePoints(db, "h1")).map((p) => p.id)).toEqual(["r3"]);

    await table.where(":id").between("r0", "r9").delete();
    expect(await db.table("readingPoints").count()).toBe(0);
    await table.put(row("r6", { weight_kg: 6 }));
    await table.clear();
    expect(await db.table("readingPoints").count()).toBe(0);
  });

  it("are the rule's points of the live rows after any writes", async () => {
    const ids = ["i1", "i2", "i3", "i4"];
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("reading" as const),
        id: fc.constantFrom(...ids),
        hive: fc.constantFrom("h1", "h2"),
        minute: fc.integer({ min: 0, max: 5 }),
        kg: fc.double({ min: -5, max: 80, noNaN: true }),
      }),
      fc.record({ kind: fc.constant("visit" as const), id: fc.constantFrom(...ids) }),
      fc.record({ kind: fc.constant("plain" as const), id: fc.constantFrom(...ids) }),
      fc.record({ kind: fc.constant("delete" as const), id: fc.constantFrom(...ids) }),
      fc.record({ kind: fc.constant("evict" as const), id: fc.constantFrom(...ids) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const db = await open();
        const store = dexieStore(db, { clock: ignoreStamps });
        for (const o of ops) {
          if (o.kind === "evict") {
            await entityTable(db, "inspection").delete(o.id);
            continue;
          }
          const c =
            o.kind === "reading"
              ? change(o.id, {
                  hive_id: o.hive,
                  date: iso(day + o.minute * 60_000),
                  weight_kg: o.kg,
                })
              : o.kind === "visit"
                ? change(o.id, { note: "seen" })
                : o.kind === "plain"
                  ? change(o.id, { note: null })
                  : change(o.id, {}, "delete");
          await store.write((w) => w.apply([c]));
        }
        for (const hive of ["h1", "h2"]) {
          expect(await readHivePoints(db, hive)).toEqual(await expected(db, hive));
        }
      }),
      { numRuns: 40 },
    );
  });
});

/**
 * The app's reads of visits and readings (ops/hive-history.ts) on the device's Dexie replica
 * (its indexes) and on the in-memory store: the same answers.
 */
import "fake-indexeddb/auto";
import { EventType } from "@hivekeep/proto";
import { Dexie } from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { EntityName } from "../core/entities.ts";
import type { Hlc } from "../core/hlc.ts";
import type { Values } from "../core/merge.ts";
import { hiveAlerts, hiveHistory, lastVisits, recentVisits } from "../ops/hive-history.ts";
import { MemoryStore } from "../ops/memory-store.ts";
import type { ReplicaStore } from "../ops/replica-store.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { dexieStore } from "./dexie-store.ts";
import { openReplicaDb } from "./replica-db.ts";

const t0 = Date.parse("2026-05-01T00:00:00.000Z");
const min = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

let n = 0;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const stores: [string, () => Promise<ReplicaStore>][] = [
  ["memory", async () => new MemoryStore(ignoreStamps)],
  [
    "Dexie",
    async () => {
      const name = `hive-history-${++n}`;
      const db = openReplicaDb(name);
      await db.open();
      closers.push(async () => {
        db.close();
        await Dexie.delete(name);
      });
      return dexieStore(db, { clock: ignoreStamps });
    },
  ],
];

describe.each(stores)("hive history on the %s store", (_, open) => {
  let clock = 0;
  const change = (entity: EntityName, id: string, payload: Values): Change => ({
    entity,
    entityId: id,
    scopeId: "a1",
    op: "upsert",
    payload,
    hlc: `${String(++clock).padStart(15, "0")}:00000:test` as Hlc,
    authorId: "me",
  });

  /** Hive h1: a visit at t0, 30 readings every 15 min, a visit, 10 readings; hive h2: readings only. */
  async function seed(store: ReplicaStore) {
    const changes: Change[] = [
      change("hive", "h1", { name: "One", apiary_id: "a1" }),
      change("hive", "h2", { name: "Two", apiary_id: "a1" }),
      change("event", "e-created", {
        type: EventType.CREATED,
        hive_id: "h1",
        apiary_id: "a1",
        date: iso(t0 - min),
      }),
    ];
    const visit = (id: string, at: number, extra: Values) => {
      changes.push(change("inspection", id, { hive_id: "h1", date: iso(at), ...extra }));
      changes.push(
        change("event", `e-${id}`, {
          type: EventType.INSPECTION,
          hive_id: "h1",
          ref_id: id,
          date: iso(at),
        }),
      );
    };
    visit("v1", t0, { note: "first look", weight_kg: 30 });
    for (let i = 1; i <= 40; i++) {
      const at = t0 + i * 15 * min;
      if (i === 31) visit("v2", at, { queen_seen: true });
      else visit(`r${String(i).padStart(2, "0")}`, at, { weight_kg: 40 + i / 10, temp_hive: 34 });
    }
    for (let i = 0; i < 5; i++) {
      changes.push(
        change("inspection", `s${i}`, { hive_id: "h2", date: iso(t0 + i * min), weight_kg: 20 }),
      );
    }
    await store.write((w) => w.apply(changes));
  }

  it("splits a hive's inspections into visits (newest first) and readings (oldest first, as columns)", async () => {
    const store = await open();
    await seed(store);
    const h = await store.read((r) => hiveHistory(r, "h1", "org"));
    expect(h.visits.map((v) => v.id)).toEqual(["v2", "v1"]);
    expect(h.readings.at).toHaveLength(39);
    expect(h.readings.at[0]).toBe(t0 + 15 * min);
    expect(h.readings.at.at(-1)).toBe(t0 + 40 * 15 * min);
    expect(h.readings.weightKg[0]).toBeCloseTo(40.1);
    expect(h.readings.tempHive.every((v) => v === 34)).toBe(true);
    expect(h.readings.humidityHive.every((v) => v === 0)).toBe(true);
    // The charts draw the readings and what visits measured: v1 weighed 30 kg by hand; v2
    // measured nothing and adds no point.
    expect(h.measurements.at).toHaveLength(40);
    expect(h.measurements.at[0]).toBe(t0);
    expect(h.measurements.weightKg[0]).toBe(30);
    expect(h.measurements.at.slice(1)).toEqual(h.readings.at);
  });

  it("gives a timeline without the readings' INSPECTION events, in ListEvents' order", async () => {
    const store = await open();
    await seed(store);
    const h = await store.read((r) => hiveHistory(r, "h1", "org"));
    expect(h.events.map((e) => e.id)).toEqual(["e-v2", "e-v1", "e-created"]);
  });

  it("finds each hive's last visit past the readings after it, and none for a scale-only hive", async () => {
    const store = await open();
    await seed(store);
    const last = await store.read((r) => lastVisits(r, ["h1", "h2", "h3"]));
    expect([...last]).toEqual([["h1", iso(t0 + 31 * 15 * min)]]);
  });

  it("follows a reading that becomes a visit, a visit that becomes a reading, and a deleted visit", async () => {
    const store = await open();
    await seed(store);
    // r40 (the newest reading) gets a note: now h1's last visit; v2 loses its visit column and
    // is a reading; the scale-only hive h2 gets a visit, which is then deleted.
    await store.write((w) =>
      w.apply([
        change("inspection", "r40", { note: "looked in" }),
        change("inspection", "v2", { queen_seen: null, weight_kg: 43 }),
        change("inspection", "s3", { note: "once" }),
      ]),
    );
    const read = () =>
      store.read(async (r) => ({
        last: [...(await lastVisits(r, ["h1", "h2"]))],
        recent: (await recentVisits(r, 10, "org")).map((v) => v.id),
      }));
    expect(await read()).toEqual({
      last: [
        ["h1", iso(t0 + 40 * 15 * min)],
        ["h2", iso(t0 + 3 * min)],
      ],
      recent: ["r40", "s3", "v1"],
    });
    await store.write((w) => w.apply([{ ...change("inspection", "s3", {}), op: "delete" }]));
    expect(await read()).toEqual({
      last: [["h1", iso(t0 + 40 * 15 * min)]],
      recent: ["r40", "v1"],
    });
  });

  it("lists the newest visits of the tenant, not the readings", async () => {
    const store = await open();
    await seed(store);
    const visits = await store.read((r) => recentVisits(r, 10, "org"));
    expect(visits.map((v) => v.id)).toEqual(["v2", "v1"]);
    const one = await store.read((r) => recentVisits(r, 1, "org"));
    expect(one.map((v) => v.id)).toEqual(["v2"]);
  });

  it("alerts on a swarm of the last week and a starving hive in winter, each from its apiary's season", async () => {
    const store = await open();
    const jan = Date.parse("2027-01-10T12:00:00.000Z");
    const changes: Change[] = [
      change("apiary", "a1", { name: "North" }),
      change("apiary", "a2", { name: "South", lat: -33.9 }),
      change("hive", "h1", { name: "One", apiary_id: "a1" }),
      change("hive", "h2", { name: "Two", apiary_id: "a1" }),
      change("hive", "h3", { name: "Three", apiary_id: "a2" }),
    ];
    // h1: a swarm in May; h2: weighed by hand in December, light; h3: the same drop in the south.
    const kgs = [42, 42, 42, 39.5, 39.4, 39.4];
    kgs.forEach((kg, i) => {
      changes.push(
        change("inspection", `m${i}`, {
          hive_id: "h1",
          date: iso(t0 + i * 15 * min),
          weight_kg: kg,
        }),
      );
      changes.push(
        change("inspection", `s${i}`, {
          hive_id: "h3",
          date: iso(t0 + i * 15 * min),
          weight_kg: kg,
        }),
      );
    });
    changes.push(
      change("inspection", "hand", {
        hive_id: "h2",
        date: iso(jan - 30 * 86_400_000),
        weight_kg: 17,
        note: "lifted",
      }),
    );
    await store.write((w) => w.apply(changes));

    const may = await store.read((r) => hiveAlerts(r, ["h1", "h2", "h3"], t0 + 86_400_000, 20));
    expect([...may.keys()]).toEqual(["h1"]);
    expect(may.get("h1")).toEqual([{ kind: "swarm", at: t0 + 45 * min, fromKg: 42, toKg: 39.5 }]);
    // A week later the swarm is no longer news.
    const later = await store.read((r) => hiveAlerts(r, ["h1"], t0 + 8 * 86_400_000, 20));
    expect(later.size).toBe(0);

    const winter = await store.read((r) => hiveAlerts(r, ["h1", "h2", "h3"], jan, 20));
    expect([...winter.keys()]).toEqual(["h2"]);
    expect(winter.get("h2")).toEqual([
      { kind: "starving", at: jan - 30 * 86_400_000, kg: 17, thresholdKg: 20 },
    ]);
    const unset = await store.read((r) => hiveAlerts(r, ["h2"], jan, undefined));
    expect(unset.size).toBe(0);
  });

  it("gives the hive page the same alerts from its one pass over the hive's rows", async () => {
    const store = await open();
    const jan = Date.parse("2027-01-10T12:00:00.000Z");
    const changes: Change[] = [
      change("apiary", "a1", { name: "North" }),
      change("apiary", "a2", { name: "South", lat: -33.9 }),
      change("hive", "h1", { name: "One", apiary_id: "a1" }),
      change("hive", "h3", { name: "Three", apiary_id: "a2" }),
    ];
    // A swarm in May among readings, a visit's hand weighing in December (the latest weight of
    // the winter), and a visit within an hour of a second drop (no swarm: the beekeeper).
    const kgs = [42, 42, 42, 39.5, 39.4, 39.4, 39.4, 39.4, 39.4, 39.4, 39.4, 39.4, 37, 36.9];
    for (const hive of ["h1", "h3"]) {
      kgs.forEach((kg, i) => {
        changes.push(
          change("inspection", `${hive}-m${i}`, {
            hive_id: hive,
            date: iso(t0 + i * 15 * min),
            weight_kg: kg,
          }),
        );
      });
      changes.push(
        change("inspection", `${hive}-v`, {
          hive_id: hive,
          date: iso(t0 + 12 * 15 * min - 10 * min),
          queen_seen: true,
        }),
        change("inspection", `${hive}-hand`, {
          hive_id: hive,
          date: iso(jan - 30 * 86_400_000),
          weight_kg: 17,
          note: "lifted",
        }),
      );
    }
    await store.write((w) => w.apply(changes));

    const cases = [
      { nowMs: t0 + 86_400_000, thresholdKg: 20 },
      { nowMs: t0 + 8 * 86_400_000, thresholdKg: 20 },
      { nowMs: jan, thresholdKg: 20 },
      { nowMs: jan, thresholdKg: 10 },
      { nowMs: jan, thresholdKg: undefined },
    ];
    const seen: unknown[] = [];
    for (const at of cases) {
      for (const hive of ["h1", "h3"]) {
        const alone = await store.read((r) => hiveAlerts(r, [hive], at.nowMs, at.thresholdKg));
        const page = await store.read((r) => hiveHistory(r, hive, "org", at));
        expect(page.alerts).toEqual(alone.get(hive) ?? []);
        seen.push(...page.alerts.map((a) => `${hive} ${a.kind}`));
      }
    }
    // The cases reach both kinds (the comparison is not of empty lists only).
    expect(seen).toEqual(["h1 swarm", "h1 starving"]);
    // Not asked: none.
    expect((await store.read((r) => hiveHistory(r, "h1", "org"))).alerts).toEqual([]);
  });
});

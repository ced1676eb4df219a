/**
 * The device's reading series (reading-series-cache.ts): days before the readings window from
 * the server, cached for offline and fetched again after `seriesRefreshMs`; days in the window
 * from the replica's rows by the one rule; offline the cache, and where no fetch ever came, the
 * replica's rows. Time and the network are injected (no timers).
 */
import "fake-indexeddb/auto";
import { Code, ConnectError } from "@connectrpc/connect";
import { Dexie } from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { Hlc } from "../core/hlc.ts";
import {
  chartSeriesSpan,
  readingSeries,
  type SeriesBucket,
  type SeriesRow,
  seriesDayMs,
} from "../core/reading-series.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { dexieStore } from "./dexie-store.ts";
import { readingSeriesCache, seriesRefreshMs, windowCutoff } from "./reading-series-cache.ts";
import { openReplicaDb, type ReplicaDb, storesV2, storesV8 } from "./replica-db.ts";

const day = seriesDayMs;
/** 2026-06-20T10:00Z */
const start = Date.UTC(2026, 5, 20, 10);
const iso = (ms: number) => new Date(ms).toISOString();

let n = 0;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** The server: every reading of the hive, answered by the rule; offline throws unavailable. */
class FakeServer {
  rows: SeriesRow[] = [];
  offline = false;
  calls: [number, number][] = [];
  fetch = async (_hive: string, from: number, to: number): Promise<SeriesBucket[]> => {
    if (this.offline) throw new ConnectError("offline", Code.Unavailable);
    this.calls.push([from, to]);
    return readingSeries(this.rows, from, to, 1);
  };
}

/** The replica of this name opened at the current version, closed and deleted after the test. */
async function openClosed(name: string): Promise<ReplicaDb> {
  const db = openReplicaDb(name);
  await db.open();
  closers.push(async () => {
    db.close();
    await Dexie.delete(name);
  });
  return db;
}

async function setup(readingDays = 10) {
  const db = await openClosed(`series-cache-${++n}`);
  const store = dexieStore(db, { clock: ignoreStamps });
  const server = new FakeServer();
  const clock = { now: start };
  let hlc = 0;
  const cache = readingSeriesCache({
    db,
    fetch: server.fetch,
    now: () => clock.now,
    online: () => !server.offline,
    readingDays: () => readingDays,
  });
  /** A reading on the server and, when `held`, in the replica too. */
  const reading = async (id: string, at: number, weight: number, held = true) => {
    server.rows.push({ id, at, values: { weight_kg: weight } });
    if (!held) return;
    const change: Change = {
      entity: "inspection",
      entityId: id,
      scopeId: "a1",
      op: "upsert",
      payload: { hive_id: "h1", date: iso(at), weight_kg: weight },
      hlc: `${String(++hlc).padStart(15, "0")}:00000:test` as Hlc,
      authorId: "me",
    };
    await store.write((w) => w.apply([change]));
  };
  return { db, cache, server, clock, reading };
}

describe("reading series on a device", () => {
  it("takes days before the window from the server and days in it from the replica", async () => {
    const { cache, server, reading } = await setup();
    // 40 days of readings, 4 a day; the device holds only the window's (10 days).
    const cutoff = windowCutoff(start, 10);
    for (let k = 0; k < 160; k++) {
      const at = start - 40 * day + k * 6 * 3_600_000;
      await reading(`r${k}`, at, 30 + (k % 7), at >= cutoff - day);
    }
    const got = await cache.series("h1", start - 40 * day, start + 1);
    expect(got.cutoff).toBe(cutoff);
    expect(got.fetchedAt).toBe(start);
    expect(server.calls).toEqual([[Date.UTC(2026, 4, 11), cutoff]]);
    // Exactly the rule over every reading of the hive: the server's part and the replica's.
    expect(got.buckets).toEqual(
      readingSeries(server.rows, Date.UTC(2026, 4, 11), Date.UTC(2026, 5, 21), 1),
    );
    // A reading the device wrote in the window shows at once, without asking the server.
    await reading("mine", start - 1000, 99);
    const again = await cache.series("h1", start - 40 * day, start + 1);
    expect(server.calls).toHaveLength(1);
    expect(again.buckets.at(-1)?.columns.weight_kg?.max).toBe(99);
    // A chart that draws the window's readings itself asks for the days before it only.
    const before = await cache.series("h1", start - 40 * day, start + 1, { beforeWindow: true });
    expect(before.buckets).toEqual(again.buckets.filter((b) => b.start < cutoff));
  });

  it("fetches a range again only after 6 hours, and only while online", async () => {
    const { cache, server, clock, reading } = await setup();
    await reading("old", start - 20 * day, 40, false);
    const first = await cache.series("h1", start - 30 * day, start);
    expect(first.buckets.map((b) => b.columns.weight_kg?.max)).toEqual([40]);
    // A scale's late backlog reaches the server: the cache answers until it is 6 hours old.
    await reading("late", start - 19 * day, 41, false);
    clock.now = start + seriesRefreshMs - 1;
    expect((await cache.series("h1", start - 30 * day, start)).buckets).toHaveLength(1);
    expect(server.calls).toHaveLength(1);
    // Older than 6 hours but offline: the cache, as fetched.
    clock.now = start + seriesRefreshMs;
    server.offline = true;
    const offline = await cache.series("h1", start - 30 * day, start);
    expect(offline.buckets).toEqual(first.buckets);
    expect(offline.fetchedAt).toBe(start);
    // Online again: fetched anew.
    server.offline = false;
    const fresh = await cache.series("h1", start - 30 * day, start);
    expect(fresh.buckets.map((b) => b.columns.weight_kg?.max)).toEqual([40, 41]);
    expect(fresh.fetchedAt).toBe(start + seriesRefreshMs);
    expect(server.calls).toHaveLength(2);
  });

  it("while fresh, a day that left the window is fetched alone; a longer range fetches all", async () => {
    const { cache, server, clock } = await setup();
    // 2026-06-20T23:00Z: an hour before the window moves by a day.
    clock.now = Date.UTC(2026, 5, 20, 23);
    const cutoff = windowCutoff(clock.now, 10);
    await cache.series("h1", cutoff - 5 * day, clock.now);
    clock.now += 2 * 3_600_000;
    expect(windowCutoff(clock.now, 10)).toBe(cutoff + day);
    await cache.series("h1", cutoff - 5 * day, clock.now);
    await cache.series("h1", cutoff - 9 * day, clock.now);
    expect(server.calls).toEqual([
      [cutoff - 5 * day, cutoff],
      [cutoff, cutoff + day],
      [cutoff - 9 * day, cutoff + day],
    ]);
  });

  it("offline with nothing fetched: the days before the window from whatever the replica holds", async () => {
    const { cache, server, reading } = await setup();
    server.offline = true;
    await reading("held", start - 20 * day, 38);
    await reading("not-held", start - 19 * day, 39, false);
    const got = await cache.series("h1", start - 30 * day, start);
    expect(got.fetchedAt).toBeUndefined();
    expect(got.buckets.map((b) => b.columns.weight_kg?.max)).toEqual([38]);
  });

  it("a range asked for beyond what was fetched: the cached days, the rest from the replica", async () => {
    const { cache, server, reading } = await setup();
    await reading("a", start - 20 * day, 40, false);
    await reading("b", start - 50 * day, 35);
    await cache.series("h1", start - 30 * day, start);
    server.offline = true;
    const got = await cache.series("h1", start - 60 * day, start);
    expect(got.buckets.map((b) => b.columns.weight_kg?.max)).toEqual([35, 40]);
  });

  it("fetches ahead the span of every hive with readings, once while fresh, never offline", async () => {
    const { db, cache, server, clock, reading } = await setup();
    const store = dexieStore(db, { clock: ignoreStamps });
    // Two hives; only h1 has readings on the device (its window's), and older ones on the server.
    for (const [k, id] of ["h1", "h2"].entries()) {
      await store.write((w) =>
        w.apply([
          {
            entity: "hive",
            entityId: id,
            scopeId: "a1",
            op: "upsert",
            payload: { apiary_id: "a1", name: `Hive ${id}` },
            hlc: `00000000000000${k}:00000:hive` as Hlc,
            authorId: "me",
          },
        ]),
      );
    }
    await reading("old", start - 100 * day, 40, false);
    await reading("recent", start - day, 42);
    const [from, to] = chartSeriesSpan(start);
    expect(await cache.keepAhead(from, to)).toBe(1);
    const cutoff = windowCutoff(start, 10);
    expect(server.calls).toEqual([[from - (from % day), cutoff]]);
    // Fresh: nothing asked again; the page's read of the same span is answered by the cache.
    expect(await cache.keepAhead(from, to)).toBe(0);
    const page = await cache.series("h1", from, to, { beforeWindow: true });
    expect(server.calls).toHaveLength(1);
    expect(page.fetchedAt).toBe(start);
    expect(page.buckets.map((b) => b.columns.weight_kg?.max)).toEqual([40]);
    // Stale but offline: nothing asked; online again: fetched anew.
    clock.now = start + seriesRefreshMs;
    server.offline = true;
    expect(await cache.keepAhead(from, to)).toBe(0);
    server.offline = false;
    expect(await cache.keepAhead(from, to)).toBe(1);
    expect(server.calls).toHaveLength(2);
  });

  it("a version 4 replica opens as the current version with its rows and photos, and the series tables empty", async () => {
    const name = `series-upgrade-${++n}`;
    const v4 = new Dexie(name);
    v4.version(4).stores({ ...storesV2(), notices: "key", photos: "ref, usedAt" });
    await v4.open();
    await v4
      .table("photos")
      .put({ ref: "hkphoto:x", dataUrl: "data:image/png;base64,AA", usedAt: 1 });
    await v4.table("meta").put({ key: "cursor", value: "42" });
    v4.close();
    const db = await openClosed(name);
    expect(db.verno).toBe(9);
    expect(await db.photos.count()).toBe(1);
    expect((await db.meta.get("cursor"))?.value).toBe("42");
    expect(await db.series.count()).toBe(0);
    await db.seriesRanges.put({ hiveId: "h1", from: 0, to: day, fetchedAt: 1 });
    expect(await db.seriesRanges.get("h1")).toMatchObject({ to: day });
  });

  it("a version 8 replica's cached buckets are packed by the upgrade and read back the same", async () => {
    const name = `series-upgrade-${++n}`;
    const rows: SeriesRow[] = [];
    for (let k = 0; k < 40; k++) {
      const values =
        k % 3 === 0
          ? { weight_kg: 30 + k / 7, temp_hive: 34.25 }
          : { weight_kg: 31 - k / 9, humidity_outside: 70 + k };
      rows.push({ id: `r${k}`, at: start - 20 * day + k * 9 * 3_600_000, values });
    }
    const from = Date.UTC(2026, 4, 30);
    const to = windowCutoff(start, 10);
    const buckets = readingSeries(rows, from, to, 1);
    expect(buckets.some((b) => b.columns.temp_hive === undefined)).toBe(true);
    const v8 = new Dexie(name);
    v8.version(8).stores(storesV8());
    await v8.open();
    await v8.table("series").bulkPut(buckets.map((b) => ({ ...b, hiveId: "h1" })));
    await v8.table("seriesRanges").put({ hiveId: "h1", from, to, fetchedAt: start });
    v8.close();
    const db = await openClosed(name);
    expect(db.verno).toBe(9);
    const cache = readingSeriesCache({
      db,
      fetch: async () => {
        throw new Error("not asked: the range is fresh");
      },
      now: () => start,
      online: () => true,
      readingDays: () => 10,
    });
    const got = await cache.series("h1", from, start + 1, { beforeWindow: true });
    expect(got.buckets).toEqual(buckets);
  });
});

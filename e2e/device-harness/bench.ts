/**
 * What the benchmark runs inside the page (test/bench/device.ts): the baseline of a first sync
 * (raw Dexie bulkPut of the same rows into the same indexes), the local write loop, and the hive
 * page's data with years of scale readings.
 */
import { Dexie } from "dexie";
import { downsample } from "../../client-core/src/core/downsample.ts";
import { entities, entityNames } from "../../client-core/src/core/entities.ts";
import { readingSeries, type SeriesRow } from "../../client-core/src/core/reading-series.ts";
import { defaultReadingDays } from "../../client-core/src/core/readings-window.ts";
import { readingPointsTable } from "../../client-core/src/device/reading-points.ts";
import { windowCutoff } from "../../client-core/src/device/reading-series-cache.ts";
import { openReplicaDb, packBucket } from "../../client-core/src/device/replica-db.ts";
import { chartData } from "../../pwa/src/screens/hives/chart-data.ts";

/**
 * Long main-thread tasks (the Long Tasks API, which reports tasks of 50 ms or more), from now on:
 * the stop function gives the longest (0 = none) and how many there were.
 */
export function watchLongTasks(): () => { longest: number; count: number } {
  let longest = 0;
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      longest = Math.max(longest, e.duration);
      count++;
    }
  });
  observer.observe({ type: "longtask" });
  return () => {
    // Entries observed but not yet delivered to the callback.
    for (const e of observer.takeRecords()) {
      longest = Math.max(longest, e.duration);
      count++;
    }
    observer.disconnect();
    return { longest, count };
  };
}

/** Seconds to bulkPut every row of the replica into a fresh database of the same schema. */
export async function rawBulkPut(chunk = 5000): Promise<{ seconds: number; rows: number }> {
  const source = window.hivekeep.db;
  const name = `raw-bench-${Date.now()}`;
  const target = openReplicaDb(name);
  await target.open();
  const tables = await Promise.all(
    entityNames.map(async (e) => ({
      table: entities[e].table,
      rows: await source.table(entities[e].table).toArray(),
    })),
  );
  const start = performance.now();
  let rows = 0;
  for (const { table, rows: all } of tables) {
    for (let i = 0; i < all.length; i += chunk) {
      const part = all.slice(i, i + chunk);
      await target.transaction("rw", target.table(table), () => target.table(table).bulkPut(part));
      rows += part.length;
    }
  }
  const seconds = (performance.now() - start) / 1000;
  target.close();
  await Dexie.delete(name);
  return { seconds, rows };
}

/** Milliseconds from createInspection until a live query of the hive's inspections has it. */
export async function localWriteLoop(
  hiveId: string,
  writes: number,
): Promise<{ seen: number[]; written: number[] }> {
  const client = window.hivekeep;
  let latest: string[] = [];
  let wake: () => void = () => {};
  const sub = client
    .live((c) => c.inspections.listInspections({ hiveId, page: { pageSize: 5 } }))
    .subscribe({
      next: (r) => {
        latest = r.inspections.map((i) => i.id);
        wake();
      },
    });
  const times: number[] = [];
  const written: number[] = [];
  for (let i = 0; i < writes; i++) {
    const start = performance.now();
    const { inspection } = await client.inspections.createInspection({
      hiveId,
      weightKg: 40 + i / 10,
    });
    written.push(performance.now() - start);
    const id = inspection?.id ?? "";
    while (!latest.includes(id)) await new Promise<void>((resolve) => (wake = resolve));
    times.push(performance.now() - start);
  }
  sub.unsubscribe();
  return { seen: times, written };
}

/** Median milliseconds of local reads a screen makes, on the replica as it stands. */
export async function localReads(runs: number): Promise<Record<string, number>> {
  const client = window.hivekeep;
  const reads: Record<string, () => Promise<unknown>> = {
    listHives: () => client.hives.listHives({}),
    listInspections: () => client.inspections.listInspections({}),
    getDashboard: () => client.stats.getDashboard({}),
  };
  const medians: Record<string, number> = {};
  for (const [name, read] of Object.entries(reads)) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await read();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    medians[name] = Math.round((times[Math.floor(times.length / 2)] ?? 0) * 10) / 10;
  }
  return medians;
}

/**
 * A synthetic phone photo (4032×3024: a close-up of comb, cells of varied shade with fine grain) encoded as the app stores photos now and as it did before issue 28:
 * the data URLs and their sizes, for the photo figure (test/bench/photos.ts).
 */
export async function benchPhotos(seed = 1): Promise<{
  now: { dataUrl: string; width: number; height: number };
  former: { dataUrl: string; width: number; height: number };
}> {
  const { preparePhoto, photoLadder, formerPhotoLadder } = await import(
    "../../pwa/src/screens/inspections/photo.ts"
  );
  const width = 4032;
  const height = 3024;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no 2d context");
  let state = seed;
  const random = () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
  // Cells, as in a close-up of a frame: rows of circles 80 px across on darker wax, some capped.
  ctx.fillStyle = "rgb(125, 80, 28)";
  ctx.fillRect(0, 0, width, height);
  const r = 40;
  for (let y = 0, row = 0; y < height + r; y += r * 1.73, row++) {
    for (let x = row % 2 ? r : 0; x < width + r; x += r * 2) {
      const shade = random();
      ctx.fillStyle = `rgb(${150 + shade * 50}, ${95 + shade * 35}, ${30 + shade * 15})`;
      ctx.beginPath();
      ctx.arc(x, y, r - 2, 0, Math.PI * 2);
      ctx.fill();
      if (random() < 0.3) {
        ctx.fillStyle = "rgb(245, 235, 200)";
        ctx.beginPath();
        ctx.arc(x + random() * 4, y + random() * 4, 3, 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }
  // Grain: a camera's noise, which is what makes real photos large as JPEG.
  const grain = ctx.getImageData(0, 0, width, height);
  for (let i = 0; i < grain.data.length; i += 4) {
    const n = (random() - 0.5) * 10;
    grain.data[i] = (grain.data[i] ?? 0) + n;
    grain.data[i + 1] = (grain.data[i + 1] ?? 0) + n;
    grain.data[i + 2] = (grain.data[i + 2] ?? 0) + n;
  }
  ctx.putImageData(grain, 0, 0);
  const source = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.95 });
  return {
    now: await preparePhoto(source, photoLadder),
    former: await preparePhoto(source, formerPhotoLadder),
  };
}

/**
 * Writes `n` 15-minute scale readings (measurement-only inspections, as the device stores a
 * pulled one: values, a stamp per column, live) of a hive straight into the replica, ending now,
 * in 5000-row transactions: the hive page figure's data (issue 29) without syncing it.
 */
const dayMs = 86_400_000;
/** The start of the three years up to the end of today that the hive page's chart asks for. */
const pageSeriesTo = (now: number) => Math.ceil(now / dayMs) * dayMs;
const pageSeriesFrom = (now: number) => pageSeriesTo(now) - 3 * 365 * dayMs;

export async function seedReadings(
  hiveId: string,
  apiaryId: string,
  n: number,
): Promise<{ held: number; buckets: number }> {
  const client = window.hivekeep;
  const db = client.db;
  const table = db.table(entities.inspection.table);
  const now = client.now().getTime();
  const end = now - 60_000;
  // The device holds the readings window only (Pull's reading_days); the days before it are
  // the server's day buckets, cached as a fetch leaves them (the rule's answer: the server's SQL
  // answers the same to the bit, test/contract/reading-series.test.ts).
  const cutoff = windowCutoff(now, defaultReadingDays);
  const stamp = (ms: number) => `${String(ms).padStart(15, "0")}:00000:bench-scale`;
  const older: SeriesRow[] = [];
  let held = 0;
  for (let i = 0; i < n; i += 5000) {
    const rows: unknown[] = [];
    for (let k = i; k < Math.min(n, i + 5000); k++) {
      const at = end - (n - 1 - k) * 15 * 60_000;
      const date = new Date(at).toISOString();
      const hlc = stamp(at);
      const values = {
        hive_id: hiveId,
        apiary_id: apiaryId,
        queen_id: "",
        date,
        created_at: date,
        weight_kg: Math.round((40 + 8 * Math.sin(k / 2000) + (k % 7) / 10) * 100) / 100,
        temp_hive: 34 + (k % 5) / 10,
        temp_outside: 10 + 10 * Math.sin(k / 96),
        humidity_hive: 60 + (k % 9),
        humidity_outside: 70 + (k % 11),
      };
      const id = `0190bench-${hiveId.slice(0, 8)}-${String(k).padStart(8, "0")}`;
      if (at < cutoff) {
        older.push({ id, at, values });
        continue;
      }
      const clock = Object.fromEntries(Object.keys(values).map((c) => [c, hlc]));
      rows.push({ id, scopeId: apiaryId, values, clock, deleted: false, complete: 1, live: 1 });
    }
    held += rows.length;
    await db.transaction("rw", table, () => table.bulkPut(rows));
  }
  // The range the hive page asks for (three years up to the end of today), fetched just now.
  const from = pageSeriesFrom(now);
  const buckets = readingSeries(older, from, cutoff, 1);
  await db.series.bulkPut(buckets.map((b) => packBucket(hiveId, b)));
  await db.seriesRanges.put({ hiveId, from, to: cutoff, fetchedAt: now });
  return { held, buckets: buckets.length };
}

/**
 * The hive page with a three-year chart (issue 29), `runs` times each, alternating. Ours is what
 * the page computes: `client.history.hive` (visits, readings as columns, timeline: the readings
 * window the device holds) and `client.readings.series` over three years (the cached day buckets
 * before the window, the rule over the window's rows), merged for the chart (chart-data.ts) and
 * the weight thinned to `buckets` points. The baseline reads the same data raw: the hive's
 * reading points and visits through the same Dexie indexes, and the cached buckets through
 * theirs.
 * Milliseconds per run.
 */
export async function hivePageLoop(
  hiveId: string,
  runs: number,
  buckets = 400,
): Promise<{
  ours: number[];
  raw: number[];
  lastVisit: number[];
  readings: number;
  visits: number;
  points: number;
  days: number;
  /** The two reads alone, after each run: what the page's time is made of. */
  historyAlone: number[];
  seriesAlone: number[];
}> {
  const client = window.hivekeep;
  const table = client.db.table(entities.inspection.table);
  const ours: number[] = [];
  const raw: number[] = [];
  const lastVisit: number[] = [];
  let readings = 0;
  let visits = 0;
  let points = 0;
  let days = 0;
  const cachedAt = (await client.db.seriesRanges.get(hiveId))?.fetchedAt;
  const historyAlone: number[] = [];
  const seriesAlone: number[] = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    const now = client.now().getTime();
    const [h, series] = await Promise.all([
      client.history.hive(hiveId),
      client.readings.series(hiveId, pageSeriesFrom(now), pageSeriesTo(now), {
        beforeWindow: true,
      }),
    ]);
    // The cached path: a fetch from the server here would be another figure.
    if (series.fetchedAt !== cachedAt) throw new Error("the series was fetched, not cached");
    const data = chartData(h.measurements, series.buckets, series.cutoff);
    const x = data.columns.at.map((ms) => ms / 1000);
    points = downsample(x, data.columns.weightKg, buckets).length;
    ours.push(performance.now() - start);
    readings =
      h.readings.at.length +
      series.buckets.filter((b) => b.start < series.cutoff).reduce((sum, b) => sum + b.count, 0);
    visits = h.visits.length;
    days = series.buckets.length;
    start = performance.now();
    await Promise.all([
      client.db
        .table(readingPointsTable)
        .where("[hiveId+at]")
        .between([hiveId, Dexie.minKey], [hiveId, Dexie.maxKey])
        .toArray(),
      table
        .where("[visit+values.hive_id+values.date]")
        .between([1, hiveId, Dexie.minKey], [1, hiveId, Dexie.maxKey])
        .toArray(),
      client.db.series
        .where("[hiveId+start]")
        .between([hiveId, Dexie.minKey], [hiveId, Dexie.maxKey])
        .toArray(),
    ]);
    raw.push(performance.now() - start);
    start = performance.now();
    await client.history.hive(hiveId);
    historyAlone.push(performance.now() - start);
    start = performance.now();
    await client.readings.series(hiveId, pageSeriesFrom(now), pageSeriesTo(now), {
      beforeWindow: true,
    });
    seriesAlone.push(performance.now() - start);
    // The overview's and the hive list's read: the last visit, past the readings after it.
    start = performance.now();
    await client.history.lastVisits([hiveId]);
    lastVisit.push(performance.now() - start);
  }
  return { ours, raw, lastVisit, readings, visits, points, days, historyAlone, seriesAlone };
}

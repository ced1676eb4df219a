/**
 * What the benchmark runs inside the page (test/bench/device.ts): the baseline of a first sync
 * (raw Dexie bulkPut of the same rows into the same indexes) and the local write loop.
 */
import { Dexie } from "dexie";
import { entities, entityNames } from "../../client-core/src/core/entities.ts";
import { openReplicaDb } from "../../client-core/src/device/replica-db.ts";

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

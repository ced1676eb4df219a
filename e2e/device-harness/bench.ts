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

/**
 * `pnpm bench` (device part): the device half in headless Chromium against the real server.
 *
 * - initial-sync: an empty replica pulls the sample season (`seedSeason`, scaled to at least
 *   50,000 changes) through `syncNow`; baseline: raw Dexie bulkPut of the same rows into the same
 *   indexes, in the same page, in 5000-row transactions. Ratio = raw time / our time (so the
 *   same work: changes per second both ways). Also the longest main-thread task while syncing
 *   (Long Tasks API) and the replica's size on disk (StorageManager.estimate).
 * - local-write: createInspection on the replica holding the season, until a live query of the
 *   hive's inspections has the new row; p50 and p95.
 *
 * BENCH_DEVICE_HIVES (hives per apiary, 4 apiaries; default 270: about 51,500 changes) scales
 * the season, seeded through the server's handlers in process on PGlite (about 6 minutes here;
 * seeding on the Postgres server took twice as long);
 * BENCH_DEVICE_WRITES (default 60) the write loop.
 */
/// <reference lib="dom" />
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRouterTransport } from "@connectrpc/connect";
import pino from "pino";
import { v7 as uuidv7 } from "uuid";
// The page's globals (window.hivekeep, window.hivekeepBench) for the code run in it.
import type {} from "../../e2e/device-harness/main.ts";
import { launchChromium, newPhoneContext } from "../../e2e/support/chromium.ts";
import { buildDeviceHarness } from "../../e2e/support/device-harness.ts";
import { localCallerInterceptor } from "../../server/src/rpc/auth-interceptor.ts";
import { errorInterceptor, routes } from "../../server/src/rpc/router.ts";
import { seedSeason } from "../../server/src/seed/season.ts";
import { newServerClock } from "../../server/src/store/server-clock.ts";
import { localCaller } from "../../server/src/store/tenants.ts";
import { startTestServer } from "../support/server.ts";

const hivesPerApiary = Number(process.env.BENCH_DEVICE_HIVES ?? 270);
const writes = Number(process.env.BENCH_DEVICE_WRITES ?? 60);

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

const dir = await buildDeviceHarness();
const server = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: dir });
const browser = await launchChromium();
try {
  const seedStart = performance.now();
  // Through the server's own handlers in process (no HTTP): the rules of the API, faster.
  const deps = {
    db: server.server.db,
    clock: newServerClock(),
    newId: () => uuidv7(),
    notifier: server.server.notifier,
    log: pino({ level: "silent" }),
    shutdown: new AbortController().signal,
  };
  const transport = createRouterTransport(routes(deps), {
    router: { interceptors: [errorInterceptor(deps), localCallerInterceptor(localCaller)] },
  });
  const summary = await seedSeason(transport, {
    now: new Date("2026-10-01T12:00:00Z"),
    hivesPerApiary,
  });
  console.log(
    `seeded ${JSON.stringify(summary)} in ${round((performance.now() - seedStart) / 1000, 1)} s`,
  );

  const context = await newPhoneContext(browser);
  const page = await context.newPage();
  page.on("pageerror", (err) => console.error("page error:", err));
  page.on("console", (m) => {
    if (m.type() === "error") console.error("page console:", m.text());
  });
  await page.goto(`${server.url}/index.html`);
  const sync = await page.evaluate(async () => {
    const client = await window.hivekeepReady;
    const longest = window.hivekeepBench.watchLongTasks();
    const start = performance.now();
    await client.sync.syncNow();
    const seconds = (performance.now() - start) / 1000;
    const longestTaskMs = longest();
    const cursor = (await client.db.table("meta").get("cursor"))?.value as string;
    const estimate = await navigator.storage.estimate();
    const hive = (await client.hives.listHives({ page: { pageSize: 1 } })).hives[0]?.id ?? "";
    const counts = await Promise.all(
      client.db.tables
        .filter((t) => !["outbox", "quarantine", "meta"].includes(t.name))
        .map((t) => t.count()),
    );
    const rows = counts.reduce((a, b) => a + b, 0);
    return {
      seconds,
      longestTaskMs,
      changes: Number(cursor),
      rows,
      usage: estimate.usage ?? 0,
      hive,
    };
  });
  // The write loop before the baseline, whose tens of thousands of rows read into memory would
  // leave the garbage collector work to do during the loop; 10 writes warm up, not counted.
  await page.evaluate((hive) => window.hivekeepBench.localWriteLoop(hive, 10), sync.hive);
  const times = await page.evaluate(({ hive, n }) => window.hivekeepBench.localWriteLoop(hive, n), {
    hive: sync.hive,
    n: writes,
  });
  const reads = await page.evaluate(() => window.hivekeepBench.localReads(5));
  const raw = await page.evaluate(() => window.hivekeepBench.rawBulkPut());
  const sorted = [...times.seen].sort((a, b) => a - b);
  const writtenSorted = [...times.written].sort((a, b) => a - b);
  const results = {
    season: summary,
    initialSync: {
      changes: sync.changes,
      rows: sync.rows,
      oursChangesPerSecond: Math.round(sync.changes / sync.seconds),
      // The baseline writes the rows the replica holds when it runs (the season's, and the write
      // loop's few more): compared per row, so both sides do the same work.
      rawChangesPerSecond: Math.round((sync.changes * raw.rows) / sync.rows / raw.seconds),
      ratio: round(sync.rows / sync.seconds / (raw.rows / raw.seconds)),
      target: 0.5,
      // The Long Tasks API reports tasks of 50 ms or more only: 0 = none.
      longestMainThreadTaskMs: round(sync.longestTaskMs, 0),
      longestTaskTargetMs: 50,
      replicaBytes: sync.usage,
    },
    // Median ms of a screen's reads on the season's replica (no target yet; for the PWA).
    localReadsMedianMs: reads,
    localWrite: {
      writes,
      p50Ms: round(quantile(sorted, 0.5), 1),
      p95Ms: round(quantile(sorted, 0.95), 1),
      maxMs: round(sorted.at(-1) ?? Number.NaN, 1),
      targetP95Ms: 16,
      callP50Ms: round(quantile(writtenSorted, 0.5), 1),
      callP95Ms: round(quantile(writtenSorted, 0.95), 1),
    },
  };
  console.log(JSON.stringify(results, null, 2));
  const out = join(import.meta.dirname, "..", "..", "bench-results");
  mkdirSync(out, { recursive: true });
  const file = join(out, `device-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${file}`);
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

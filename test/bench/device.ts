/**
 * The device half in headless Chromium against the real server (figures `initial-sync` and
 * `local-write`), on the database of the run.
 *
 * - initial-sync: an empty replica (a fresh browser profile each time) pulls the sample season
 *   (`seedSeason`, scaled to at least 50,000 changes; about 2,000 with --quick) through
 *   `syncNow`. Baseline: raw Dexie bulkPut of the same rows into the same indexes, in the same
 *   page, in 5000-row transactions. Both are rates of rows written per second (so the same work
 *   both ways); they alternate, after one sync to warm up. Also the longest main-thread task
 *   while syncing (Long Tasks API: it sees tasks of 50 ms or more, so 0 means none), target
 *   ≤ 50 ms, and the replica's size on disk (StorageManager.estimate).
 * - local-write: createInspection on the replica holding the season, until a live query of the
 *   hive's inspections has the new row: p50 and p95 over the writes after 10 warm-up writes.
 *   There is no baseline: the target (p95 ≤ 16 ms, one frame) is absolute.
 * - hive-page-readings (issue 29): one hive of that replica gets three years of 15-minute scale
 *   readings (105,000; 10,000 with --quick; BENCH_DEVICE_READINGS overrides) as a device holds
 *   them: the readings window (30 days) as rows in the replica, the days before it as the
 *   server's day buckets in the series cache (as a fetch of GetReadingSeries leaves them); then
 *   the hive page's data (`client.history.hive`: visits, readings as columns, timeline), the
 *   three-year series (`client.readings.series`), the chart's merge of both and the weight's
 *   thinning, p95 over 20 runs. Baseline: raw Dexie reads of the same reading points, visits and
 *   buckets through the same indexes. Target p95 ≤ 200 ms.
 *
 * The season is seeded through the server's handlers in process (no HTTP: the rules of the API,
 * faster). BENCH_DEVICE_HIVES (hives per apiary, 4 apiaries; default 270, about 51,500 changes)
 * and BENCH_DEVICE_WRITES (default 60) override the sizes.
 */
/// <reference lib="dom" />
// The page's globals (window.hivekeep, window.hivekeepBench) for the code run in it.
import type {} from "../../e2e/device-harness/main.ts";
import { launchChromium, newPhoneContext } from "../../e2e/support/chromium.ts";
import { buildDeviceHarness } from "../../e2e/support/device-harness.ts";
import { inProcessTransport } from "../../server/src/seed/in-process.ts";
import { seedSeason } from "../../server/src/seed/season.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { type BenchContext, type BenchRun, compared, quantile, round, spread } from "./report.ts";

type Browser = Awaited<ReturnType<typeof launchChromium>>;

/** The sample season through the server's own handlers, in process. */
const seed = (server: TestServer, hivesPerApiary: number) =>
  seedSeason(inProcessTransport(server.server.db, server.server.notifier), {
    now: new Date("2026-10-01T12:00:00Z"),
    hivesPerApiary,
  });

/** A fresh profile (empty replica) that syncs the whole feed once. */
async function firstSync(browser: Browser, url: string) {
  const context = await newPhoneContext(browser);
  const page = await context.newPage();
  page.on("pageerror", (err) => console.error("page error:", err));
  page.on("console", (m) => {
    if (m.type() === "error") console.error("page console:", m.text());
  });
  await page.goto(`${url}/index.html`);
  const sync = await page.evaluate(async () => {
    const client = await window.hivekeepReady;
    const longest = window.hivekeepBench.watchLongTasks();
    const start = performance.now();
    await client.sync.syncNow();
    const seconds = (performance.now() - start) / 1000;
    const longTasks = longest();
    const cursor = (await client.db.table("meta").get("cursor"))?.value as string;
    const estimate = await navigator.storage.estimate();
    const hive = (await client.hives.listHives({ page: { pageSize: 1 } })).hives[0]?.id ?? "";
    const counts = await Promise.all(
      client.db.tables
        .filter((t) => !["outbox", "quarantine", "meta"].includes(t.name))
        .map((t) => t.count()),
    );
    return {
      seconds,
      longTasks,
      changes: Number(cursor),
      rows: counts.reduce((a, b) => a + b, 0),
      usage: estimate.usage ?? 0,
      hive,
    };
  });
  return { context, page, sync };
}

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  const hivesPerApiary = Number(process.env.BENCH_DEVICE_HIVES ?? (ctx.quick ? 10 : 270));
  const writes = Number(process.env.BENCH_DEVICE_WRITES ?? (ctx.quick ? 20 : 60));
  const rounds = ctx.quick ? 1 : 3;
  const dir = await buildDeviceHarness();
  const server = await startTestServer("pglite", {
    HIVEKEEP_PWA_DIR: dir,
    ...(ctx.databaseUrl ? { DATABASE_URL: ctx.databaseUrl } : {}),
  });
  const browser = await launchChromium();
  try {
    const seedStart = performance.now();
    const season = await seed(server, hivesPerApiary);
    const seedSeconds = round((performance.now() - seedStart) / 1000, 1);

    // Ours: rows written per second by a first sync; baseline: by raw bulkPut of the same rows.
    // One sync (and its bulkPut) warms up; each round then alternates sync and bulkPut.
    const ours: number[] = [];
    const raw: number[] = [];
    const longest: number[] = [];
    let longTasks = 0;
    let last: Awaited<ReturnType<typeof firstSync>> | undefined;
    for (let i = 0; i <= rounds; i++) {
      await last?.context.close();
      last = await firstSync(browser, server.url);
      const { sync, page } = last;
      const bulk = await page.evaluate(() => window.hivekeepBench.rawBulkPut());
      if (i === 0) continue;
      ours.push(sync.rows / sync.seconds);
      raw.push(bulk.rows / bulk.seconds);
      longest.push(sync.longTasks.longest);
      longTasks += sync.longTasks.count;
    }
    if (!last) throw new Error("no sync ran");
    const { page, sync } = last;
    const longestTask = Math.max(...longest);
    const sizeNote = ctx.quick
      ? `--quick: ${sync.changes} changes (the full run syncs at least 50,000)`
      : `${sync.changes} changes`;
    const initialSync = compared(
      {
        name: "initial-sync",
        database: ctx.database,
        unit: "rows/s",
        baseline: "raw Dexie bulkPut of the same rows into the same indexes, same page",
        target: "ratio ≥ 0.5; longest main-thread task ≤ 50 ms",
        notes: `${sizeNote} into an empty replica (${sync.rows} rows), ${rounds} round(s) after one warm-up; season seeded in ${seedSeconds} s`,
        details: {
          changes: sync.changes,
          rows: sync.rows,
          "changes/s (median)": Math.round((spread(ours).median * sync.changes) / sync.rows),
          "longest main-thread task ms (0 = none ≥ 50)": round(longestTask, 0),
          "main-thread tasks ≥ 50 ms, all rounds": longTasks,
          "replica bytes": sync.usage,
          "season hives": season.hives,
        },
      },
      { ours, baseline: raw },
      "better",
      (ratio) => ratio >= 0.5 && longestTask <= 50,
    );

    // The write loop on the last replica: 10 writes warm up, not counted.
    await page.evaluate((hive) => window.hivekeepBench.localWriteLoop(hive, 10), sync.hive);
    const times = await page.evaluate(
      ({ hive, n }) => window.hivekeepBench.localWriteLoop(hive, n),
      { hive: sync.hive, n: writes },
    );
    const seen = [...times.seen].sort((a, b) => a - b);
    const written = [...times.written].sort((a, b) => a - b);
    const p95 = quantile(seen, 0.95);
    const localWrite: BenchRun = {
      name: "local-write",
      database: ctx.database,
      value: round(p95, 1),
      unit: "ms (p95)",
      baseline: null,
      baselineValue: null,
      ratio: null,
      target: "p95 ≤ 16 ms",
      met: p95 <= 16,
      notes: `createInspection until a live query of the hive's inspections has it; ${writes} writes on a replica of ${sync.rows} rows, after 10 warm-up writes`,
      samples: { ours: spread(times.seen) },
      details: {
        "p50 ms": round(quantile(seen, 0.5), 1),
        "p95 ms": round(p95, 1),
        "max ms": round(seen.at(-1) ?? Number.NaN, 1),
        "call alone p50 ms": round(quantile(written, 0.5), 1),
        "call alone p95 ms": round(quantile(written, 0.95), 1),
      },
    };
    // The hive page with three years of 15-minute scale readings (issue 29), on the same replica.
    const readingCount = Number(
      process.env.BENCH_DEVICE_READINGS ?? (ctx.quick ? 10_000 : 105_000),
    );
    const pageRuns = ctx.quick ? 5 : 20;
    const seedReadingsStart = performance.now();
    const seeded = await page.evaluate(
      async ({ hive, n }) => {
        const h = (await window.hivekeep.hives.getHive({ id: hive })).hive;
        return window.hivekeepBench.seedReadings(hive, h?.apiaryId ?? "", n);
      },
      { hive: sync.hive, n: readingCount },
    );
    const seedReadingsSeconds = round((performance.now() - seedReadingsStart) / 1000, 1);
    await page.evaluate((hive) => window.hivekeepBench.hivePageLoop(hive, 2), sync.hive);
    const loop = await page.evaluate(({ hive, n }) => window.hivekeepBench.hivePageLoop(hive, n), {
      hive: sync.hive,
      n: pageRuns,
    });
    const oursSorted = [...loop.ours].sort((a, b) => a - b);
    const rawSorted = [...loop.raw].sort((a, b) => a - b);
    const pageP95 = quantile(oursSorted, 0.95);
    const rawP95 = quantile(rawSorted, 0.95);
    const hivePage: BenchRun = {
      name: "hive-page-readings",
      database: ctx.database,
      value: round(pageP95, 1),
      unit: "ms (p95)",
      baseline:
        "raw Dexie reads of the same hive's reading points, visits and cached day buckets through the same indexes, same page",
      baselineValue: round(rawP95, 1),
      ratio: round(rawP95 / pageP95, 3),
      target: "p95 ≤ 200 ms (issue 29: a hive page with a three-year weight chart)",
      met: pageP95 <= 200,
      notes: `client.history.hive (visits, readings as columns, timeline) and client.readings.series over 3 years (cached day buckets before the 30-day window, the rule over its rows), merged for the chart and the weight thinned to 400 points, for a hive with ${loop.readings} readings (${seeded.held} held as rows in the window, the rest as ${seeded.buckets} cached day buckets; ${loop.visits} visits) among a replica of ${sync.rows} rows; ${pageRuns} runs after 2 warm-up, alternating with the baseline; readings written into the replica in ${seedReadingsSeconds} s`,
      samples: { ours: spread(loop.ours), baseline: spread(loop.raw) },
      details: {
        readings: loop.readings,
        "readings held as rows (the window)": seeded.held,
        "days in the series": loop.days,
        "p50 ms": round(quantile(oursSorted, 0.5), 1),
        "p95 ms": round(pageP95, 1),
        "raw p50 ms": round(quantile(rawSorted, 0.5), 1),
        "raw p95 ms": round(rawP95, 1),
        "weight points drawn": loop.points,
        "history.hive alone p50 ms": round(
          quantile(
            [...loop.historyAlone].sort((a, b) => a - b),
            0.5,
          ),
          1,
        ),
        "readings.series alone p50 ms (cached)": round(
          quantile(
            [...loop.seriesAlone].sort((a, b) => a - b),
            0.5,
          ),
          1,
        ),
        "last visit p50 ms (all readings newer than it)": round(
          quantile(
            [...loop.lastVisit].sort((a, b) => a - b),
            0.5,
          ),
          1,
        ),
      },
    };
    await last.context.close();
    return [initialSync, localWrite, hivePage];
  } finally {
    await browser.close();
    await server.stop();
  }
}

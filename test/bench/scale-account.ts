/**
 * Issue 29's account on a new device (figures `scale-account-usable`, `scale-account-replica`,
 * `scale-account-chart`): 3 scales × 3 years of 15-minute readings (315,360) plus a season of
 * weekly visits with two photos each (the sample season, 4 hives per apiary: 12 hives, 312
 * visits, 624 photos of the size stored since issue 28), seeded through the server's handlers in
 * process (server/src/seed/scales.ts `seedScaleAccount`; the readings through CreateReadings in
 * batches of 5,000, ending at the server's now). Headless Chromium opens the built PWA (pwa/dist, built
 * afresh) from the real server in a fresh phone-sized profile, as a new phone would:
 *
 * - scale-account-usable: seconds from the navigation until the overview shows its data, the
 *   first sync is over (the sync bar says "Synced"), and then every hive page, opened in turn as
 *   a tap does, shows its data (the overview's hive count and newest visit; each hive's last
 *   visit, and on a scale's hive its newest reading). The pages are opened one after the other,
 *   so the figure counts each page's own time too (an upper bound of when the beekeeper can use
 *   any page). Target ≤ 10 s. No baseline: the target is absolute, and nothing else on this
 *   machine does the same work (a raw transfer of the same bytes would measure only the
 *   network).
 * - scale-account-replica: the replica's size once the first sync (and the fetch-ahead of recent
 *   visits' photos) is over: StorageManager.estimate's usage for the origin. Target < 100 MB.
 * - scale-account-chart: a scale's hive page opened from another screen, the period "All" chosen,
 *   until the weight chart is drawn over every reading (e2e/support/scale-account.ts
 *   `chartRuns`): p95 over 20 runs (5 with --quick) after 3 to warm up, over the three scale
 *   hives in turn. Target p95 ≤ 200 ms. No baseline.
 *
 * --quick: 2 hives per apiary, 4 weeks of visits, 60 days of readings. BENCH_SCALE_DAYS,
 * BENCH_SCALE_HIVES (per apiary) and BENCH_SCALE_WEEKS override the sizes.
 */
/// <reference lib="dom" />
import type {} from "../../e2e/device-harness/main.ts";
import { launchChromium, newPhoneContext } from "../../e2e/support/chromium.ts";
import { buildDeviceHarness } from "../../e2e/support/device-harness.ts";
import { ensurePwaBuilt } from "../../e2e/support/pwa.ts";
import {
  chartRuns,
  everyHiveShown,
  firstSyncDone,
  overviewShown,
} from "../../e2e/support/scale-account.ts";
import { inProcessTransport } from "../../server/src/seed/in-process.ts";
import { seedScaleAccount } from "../../server/src/seed/scales.ts";
import { startTestServer } from "../support/server.ts";
import { type BenchContext, type BenchRun, quantile, round, spread } from "./report.ts";

type Browser = Awaited<ReturnType<typeof launchChromium>>;

/** pwa/dist, built once per bench run, so the figures are the code's as it is. */
let built: string | undefined;

/**
 * `n` photos as the app stores them (the device harness's 12-megapixel frame of comb, encoded by
 * the app's photo.ts), each its own: a JPEG comment with its number after the start marker.
 */
export async function benchPhotos(browser: Browser, n: number): Promise<string[]> {
  const server = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: await buildDeviceHarness() });
  const context = await newPhoneContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/index.html`);
    const { dataUrl } = (await page.evaluate(() => window.hivekeepBench.benchPhotos())).now;
    const comma = dataUrl.indexOf(",");
    const jpeg = Buffer.from(dataUrl.slice(comma + 1), "base64");
    return Array.from({ length: n }, (_, i) => {
      const text = Buffer.from(`hivekeep bench photo ${i}`);
      const marker = Buffer.from([0xff, 0xfe, 0, 0]);
      marker.writeUInt16BE(text.length + 2, 2);
      const photo = Buffer.concat([jpeg.subarray(0, 2), marker, text, jpeg.subarray(2)]);
      return `${dataUrl.slice(0, comma + 1)}${photo.toString("base64")}`;
    });
  } finally {
    await context.close();
    await server.stop();
  }
}

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  const size = {
    hivesPerApiary: Number(process.env.BENCH_SCALE_HIVES ?? (ctx.quick ? 2 : 4)),
    weeks: Number(process.env.BENCH_SCALE_WEEKS ?? (ctx.quick ? 4 : 26)),
    scaleDays: Number(process.env.BENCH_SCALE_DAYS ?? (ctx.quick ? 60 : 3 * 365)),
  };
  const chartRunsCounted = ctx.quick ? 5 : 20;
  built ??= ensurePwaBuilt(true);
  const browser = await launchChromium();
  const server = await startTestServer("pglite", {
    HIVEKEEP_PWA_DIR: built,
    ...(ctx.databaseUrl ? { DATABASE_URL: ctx.databaseUrl } : {}),
  });
  try {
    // Enough photos for every visit of the season (3 apiaries' hives, weekly): two each.
    const photos = await benchPhotos(browser, 2 * 3 * size.hivesPerApiary * size.weeks);
    const transport = inProcessTransport(server.server.db, server.server.notifier);
    const account = await seedScaleAccount(transport, {
      ...size,
      photos: (visit) => [photos[2 * visit] ?? "", photos[2 * visit + 1] ?? ""],
    });
    const photoKiB = round((photos[0]?.length ?? 0) / 1024, 0);
    // A full run takes many minutes: say where it is.
    console.log(
      `scale-account on ${ctx.database}: seeded ${account.readings} readings and ${account.season.photos} photos in ${round(account.seconds.season + account.seconds.readings, 0)} s; a new device opens the app`,
    );

    // A new phone: a fresh profile opens the app.
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    page.on("pageerror", (err) => console.error("page error:", err));
    // The sync's bytes as received (the pulls run in a worker, which the page's resource timing
    // does not see; Playwright sees its requests).
    const sizes: Promise<number>[] = [];
    page.on("requestfinished", (request) => {
      if (request.url().includes("SyncService/")) {
        sizes.push(request.sizes().then((s) => s.responseBodySize));
      }
    });
    const start = performance.now();
    await page.goto(server.url);
    await overviewShown(page, account);
    const overviewMs = performance.now() - start;
    // The first sync runs on with the overview open (where the app opens); a long one says
    // how far it has come every 30 s.
    const progress = setInterval(() => {
      page
        .locator(".syncbar__state")
        .textContent()
        .then((text) => console.log(`scale-account: ${text}`))
        .catch(() => {});
    }, 30_000);
    try {
      await firstSyncDone(page);
    } finally {
      clearInterval(progress);
    }
    const syncedMs = performance.now() - start;
    const pages = await everyHiveShown(page, account);
    const usableMs = performance.now() - start;
    console.log(`scale-account on ${ctx.database}: usable after ${round(usableMs / 1000, 1)} s`);
    const scalePages = account.hives.flatMap((h, i) => (h.scale ? [pages[i] ?? 0] : []));

    // The replica once the sync and its fetch-ahead of photos are over: the usage stops moving
    // (two readings 2 s apart agree).
    const usage = () => page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
    let replica = await usage();
    for (let i = 0; i < 60; i++) {
      await page.waitForTimeout(2000);
      const now = await usage();
      if (now === replica) break;
      replica = now;
    }
    const fetched = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);

    // The three-year chart: 3 runs warm up, then the counted ones.
    const scaleHives = account.hives.filter((h) => h.scale);
    await chartRuns(page, scaleHives, 3);
    const chart = await chartRuns(page, scaleHives, chartRunsCounted);
    await context.close();

    const sorted = [...chart].sort((a, b) => a - b);
    const p95 = quantile(sorted, 0.95);
    const mb = (bytes: number) => round(bytes / 1_000_000, 1);
    const what = `${account.readings} readings of 3 scales (${size.scaleDays} days each, 15-minute), ${account.season.inspections} visits of ${account.hives.length} hives with ${account.season.photos} photos (${photoKiB} KiB each)`;
    const seeded = `seeded in ${round(account.seconds.season, 1)} s (season and photos) + ${round(account.seconds.readings, 1)} s (readings through CreateReadings, ${round(account.readings / account.seconds.readings, 0)} readings/s)`;
    const quick = ctx.quick ? "; --quick: a small account, not for quoting" : "";
    const account_ = {
      readings: account.readings,
      visits: account.season.inspections,
      photos: account.season.photos,
      hives: account.hives.length,
      "seed season s": round(account.seconds.season, 1),
      "seed readings s": round(account.seconds.readings, 1),
    };
    return [
      {
        name: "scale-account-usable",
        database: ctx.database,
        value: round(usableMs / 1000, 2),
        unit: "s",
        baseline: null,
        baselineValue: null,
        ratio: null,
        target: "≤ 10 s (issue 29: the overview and every hive page show their data)",
        met: usableMs <= 10_000,
        notes: `a fresh phone profile opens the built PWA; until the overview shows the hive count and newest visit, the first sync is over, and then each hive page in turn (as a tap) shows its last visit and, with a scale, its newest reading; ${what}; ${seeded}${quick}`,
        details: {
          "overview s": round(overviewMs / 1000, 2),
          "hive pages s (sum)": round(pages.reduce((a, b) => a + b, 0) / 1000, 2),
          "slowest hive page ms": round(Math.max(...pages), 0),
          "slowest scale hive page ms": round(Math.max(...scalePages), 0),
          "first sync over s": round(syncedMs / 1000, 2),
          "sync KiB fetched": round(fetched / 1024, 0),
          ...account_,
        },
      },
      {
        name: "scale-account-replica",
        database: ctx.database,
        value: mb(replica),
        unit: "MB",
        baseline: null,
        baselineValue: null,
        ratio: null,
        target: "< 100 MB",
        met: replica < 100_000_000,
        notes: `navigator.storage.estimate() usage once the first sync and its photo fetch-ahead are over; ${what}${quick}`,
        details: { "replica bytes": replica, "sync KiB fetched": round(fetched / 1024, 0) },
      },
      {
        name: "scale-account-chart",
        database: ctx.database,
        value: round(p95, 1),
        unit: "ms (p95)",
        baseline: null,
        baselineValue: null,
        ratio: null,
        target: "p95 ≤ 200 ms (issue 29: a hive page with a three-year weight chart)",
        met: p95 <= 200,
        notes: `a scale's hive page opened from the task list (as a tap), period "All" chosen, until the weight chart is drawn over every reading; ${chartRunsCounted} runs after 3 warm-up, over the 3 scale hives in turn, on the replica of the usable figure${quick}`,
        samples: { ours: spread(chart) },
        details: {
          "p50 ms": round(quantile(sorted, 0.5), 1),
          "p95 ms": round(p95, 1),
          "max ms": round(sorted.at(-1) ?? Number.NaN, 1),
          "readings per scale": round(account.readings / 3, 0),
        },
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

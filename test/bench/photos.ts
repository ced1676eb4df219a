/**
 * What photos by reference (issue 29) save a new device (figure `photo-sync`), in headless
 * Chromium against the real server: a first sync into an empty replica of N inspections with one
 * photo each, of the size stored since issue 28 (up to 2048 px within 512 KiB), with photos by
 * reference (ours: the device fetches a photo when it shows it) against photos in their rows (the
 * baseline, as every device synced before). Its seconds, the bytes it fetched and the replica's
 * size on disk (StorageManager.estimate), and how long one photo then takes to open online.
 *
 * The visits are 60 days old, outside the 30 days whose photos a device fetches ahead after a
 * sync (device/photos.ts `keepRecent`), so the first sync is all that is measured. The photo is a
 * synthetic 12-megapixel frame encoded in the page by the app's own code (photo.ts). First syncs
 * alternate between the two after one warm-up each. Ratio = baseline / ours seconds (higher is
 * better, as everywhere).
 *
 * The server runs on PGlite (the figure is about the device and the bytes, not the database);
 * on Postgres the module measures nothing. BENCH_PHOTO_INSPECTIONS (default 40; 8 with --quick)
 * overrides the number of inspections.
 */
/// <reference lib="dom" />

import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { ApiaryService, HiveService, InspectionService } from "@hivekeep/proto";
import type {} from "../../e2e/device-harness/main.ts";
import { launchChromium, newPhoneContext } from "../../e2e/support/chromium.ts";
import { buildDeviceHarness } from "../../e2e/support/device-harness.ts";
import { inProcessTransport } from "../../server/src/seed/in-process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { type BenchContext, type BenchRun, compared, round } from "./report.ts";

type Browser = Awaited<ReturnType<typeof launchChromium>>;

/** N inspections of one hive, 60 days old, each with `photo`. */
async function seed(server: TestServer, inspections: number, photo: string): Promise<void> {
  const transport = inProcessTransport(server.server.db, server.server.notifier);
  const { apiary } = await createClient(ApiaryService, transport).createApiary({ name: "Bench" });
  const { hive } = await createClient(HiveService, transport).createHive({
    name: "Photos",
    apiaryId: apiary?.id ?? "",
  });
  const service = createClient(InspectionService, transport);
  for (let i = 0; i < inspections; i++) {
    const { inspection } = await service.createInspection({
      hiveId: hive?.id ?? "",
      date: timestampFromDate(new Date(Date.now() - 60 * 86_400_000)),
    });
    await service.addInspectionPhoto({ inspectionId: inspection?.id ?? "", photo });
  }
}

/**
 * A fresh profile's first sync: seconds, bytes fetched, replica bytes, photos listed; with photos
 * by reference also the milliseconds one photo takes to open (fetched) and its size.
 */
async function firstSync(browser: Browser, url: string, photoRefs: boolean) {
  const context = await newPhoneContext(browser);
  try {
    const page = await context.newPage();
    page.on("pageerror", (err) => console.error("page error:", err));
    await page.goto(`${url}/index.html?photoRefs=${photoRefs ? 1 : 0}`);
    return await page.evaluate(async () => {
      const client = await window.hivekeepReady;
      performance.clearResourceTimings();
      performance.setResourceTimingBufferSize(100_000);
      const start = performance.now();
      await client.sync.syncNow();
      const seconds = (performance.now() - start) / 1000;
      const fetched = performance
        .getEntriesByType("resource")
        .reduce((sum, e) => sum + ((e as PerformanceResourceTiming).encodedBodySize ?? 0), 0);
      const hive = (await client.hives.listHives({})).hives[0]?.id ?? "";
      const { inspections } = await client.inspections.listInspections({
        hiveId: hive,
        page: { pageSize: 1000 },
      });
      const photos = inspections.reduce((n, i) => n + i.photoKeys.length, 0);
      const usage = (await navigator.storage.estimate()).usage ?? 0;
      // Opening one photo online: at once when it is in the row, fetched when by reference.
      const first = inspections[0];
      const openStart = performance.now();
      const shown = await client.photos.resolve(first?.id ?? "", first?.photoKeys[0] ?? "");
      const openMs = performance.now() - openStart;
      const photoBytes = shown.kind === "ready" ? shown.src.length : 0;
      return { seconds, fetched, usage, photos, openMs, photoBytes };
    });
  } finally {
    await context.close();
  }
}

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  if (ctx.database !== "pglite") return [];
  const inspections = Number(process.env.BENCH_PHOTO_INSPECTIONS ?? (ctx.quick ? 8 : 40));
  const rounds = ctx.quick ? 1 : 3;
  const dir = await buildDeviceHarness();
  const browser = await launchChromium();
  let server: TestServer | undefined;
  try {
    server = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: dir });
    // The photo, by the app's own encoder.
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/index.html`);
    const photos = await page.evaluate(() => window.hivekeepBench.benchPhotos());
    await context.close();
    await seed(server, inspections, photos.now.dataUrl);

    const samples = { ours: [] as number[], baseline: [] as number[] };
    let last: { refs?: Awaited<ReturnType<typeof firstSync>>; rows?: typeof last.refs } = {};
    for (let i = 0; i <= rounds; i++) {
      // Which goes first alternates; round 0 warms both up.
      const order = i % 2 === 0 ? (["refs", "rows"] as const) : (["rows", "refs"] as const);
      for (const side of order) {
        const sync = await firstSync(browser, server.url, side === "refs");
        if (sync.photos !== inspections) {
          throw new Error(`${side}: the replica lists ${sync.photos} photos, not ${inspections}`);
        }
        if (sync.photoBytes !== photos.now.dataUrl.length) {
          throw new Error(`${side}: the photo opened is not the one stored`);
        }
        last = { ...last, [side]: sync };
        if (i > 0) (side === "refs" ? samples.ours : samples.baseline).push(sync.seconds);
      }
    }
    const refs = last.refs;
    const rows = last.rows;
    if (!refs || !rows) throw new Error("no sync ran");
    const kb = (bytes: number) => round(bytes / 1024, 0);
    return [
      compared(
        {
          name: "photo-sync",
          database: ctx.database,
          unit: "s",
          baseline: "the same first sync with photos in their rows (as before issue 29)",
          target:
            "a first sync fetches no full-size photo (fetched < one photo); a photo opens online within 1 s",
          notes: `${inspections} inspections 60 days old with one photo each (a synthetic 4032×3024 frame encoded by photo.ts), first sync into an empty replica, ${rounds} round(s) after one warm-up`,
          details: {
            photo: `${photos.now.width}×${photos.now.height}, ${kb(photos.now.dataUrl.length)} KiB`,
            "fetched KiB by reference": kb(refs.fetched),
            "fetched KiB in rows": kb(rows.fetched),
            "replica KiB by reference": kb(refs.usage),
            "replica KiB in rows": kb(rows.usage),
            "photo open ms by reference (fetched)": round(refs.openMs, 0),
            "photo open ms in rows": round(rows.openMs, 0),
          },
        },
        samples,
        "worse",
        () => refs.fetched < photos.now.dataUrl.length && refs.openMs < 1000,
      ),
    ];
  } finally {
    await browser.close();
    await server?.stop();
  }
}

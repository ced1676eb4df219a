/**
 * What photos of the size stored since issue 28 (up to 2048 px within 512 KiB) cost a device
 * against the former 640 px ones (figure `photo-sync`), in headless Chromium against the real
 * server: a first sync into an empty replica of N inspections with one photo each, its seconds,
 * the bytes it fetched and the replica's size on disk (StorageManager.estimate).
 *
 * The photo is the same synthetic 12-megapixel frame encoded both ways in the page by the app's
 * own code (photo.ts, `benchPhotos` in the device harness). Two servers, one per size, seeded the
 * same way; first syncs alternate between them after one warm-up each. Ratio = former / now
 * seconds (higher is better, as everywhere): it says how much slower a first sync is. The
 * replica and byte ratios are in the details. There is no target to meet yet: the heavy-data
 * issue decides how photos travel (rows should not carry full photos through every first sync);
 * this figure is what it starts from.
 *
 * Both servers run on PGlite (the figure is about the device and the bytes, not the database);
 * on Postgres the module measures nothing. BENCH_PHOTO_INSPECTIONS (default 40; 8 with --quick)
 * overrides the number of inspections.
 */
/// <reference lib="dom" />

import { createClient } from "@connectrpc/connect";
import { ApiaryService, HiveService, InspectionService } from "@hivekeep/proto";
import type {} from "../../e2e/device-harness/main.ts";
import { launchChromium, newPhoneContext } from "../../e2e/support/chromium.ts";
import { buildDeviceHarness } from "../../e2e/support/device-harness.ts";
import { inProcessTransport } from "../../server/src/seed/in-process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { type BenchContext, type BenchRun, compared, round } from "./report.ts";

type Browser = Awaited<ReturnType<typeof launchChromium>>;

/** N inspections of one hive, each with `photo`. */
async function seed(server: TestServer, inspections: number, photo: string): Promise<void> {
  const transport = inProcessTransport(server.server.db, server.server.notifier);
  const { apiary } = await createClient(ApiaryService, transport).createApiary({ name: "Bench" });
  const { hive } = await createClient(HiveService, transport).createHive({
    name: "Photos",
    apiaryId: apiary?.id ?? "",
  });
  const service = createClient(InspectionService, transport);
  for (let i = 0; i < inspections; i++) {
    const { inspection } = await service.createInspection({ hiveId: hive?.id ?? "" });
    await service.addInspectionPhoto({ inspectionId: inspection?.id ?? "", photo });
  }
}

/** A fresh profile's first sync: seconds, bytes fetched, replica bytes. */
async function firstSync(browser: Browser, url: string) {
  const context = await newPhoneContext(browser);
  try {
    const page = await context.newPage();
    page.on("pageerror", (err) => console.error("page error:", err));
    await page.goto(`${url}/index.html`);
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
      return { seconds, fetched, usage: (await navigator.storage.estimate()).usage ?? 0, photos };
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
  const servers: TestServer[] = [];
  try {
    const former = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: dir });
    servers.push(former);
    const now = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: dir });
    servers.push(now);

    // The photo, both ways, by the app's own encoder.
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    await page.goto(`${now.url}/index.html`);
    const photos = await page.evaluate(() => window.hivekeepBench.benchPhotos());
    await context.close();
    await seed(former, inspections, photos.former.dataUrl);
    await seed(now, inspections, photos.now.dataUrl);

    const samples = { ours: [] as number[], baseline: [] as number[] };
    let last: { now?: Awaited<ReturnType<typeof firstSync>>; former?: typeof last.now } = {};
    for (let i = 0; i <= rounds; i++) {
      // Which goes first alternates; round 0 warms both up.
      const order = i % 2 === 0 ? (["now", "former"] as const) : (["former", "now"] as const);
      for (const side of order) {
        const sync = await firstSync(browser, (side === "now" ? now : former).url);
        if (sync.photos !== inspections) {
          throw new Error(`${side}: the replica has ${sync.photos} photos, not ${inspections}`);
        }
        last = { ...last, [side]: sync };
        if (i > 0) (side === "now" ? samples.ours : samples.baseline).push(sync.seconds);
      }
    }
    const n = last.now;
    const f = last.former;
    if (!n || !f) throw new Error("no sync ran");
    const kb = (bytes: number) => round(bytes / 1024, 0);
    return [
      compared(
        {
          name: "photo-sync",
          database: ctx.database,
          unit: "s",
          baseline: "the same first sync with the former 640 px photos",
          target: "none yet (the heavy-data issue sets how photos travel); ratio = former / now",
          notes: `${inspections} inspections with one photo each (a synthetic 4032×3024 frame encoded by photo.ts), first sync into an empty replica, ${rounds} round(s) after one warm-up`,
          details: {
            "photo now": `${photos.now.width}×${photos.now.height}, ${kb(photos.now.dataUrl.length)} KiB`,
            "photo former": `${photos.former.width}×${photos.former.height}, ${kb(photos.former.dataUrl.length)} KiB`,
            "fetched KiB now": kb(n.fetched),
            "fetched KiB former": kb(f.fetched),
            "fetched ratio now/former": round(n.fetched / f.fetched, 2),
            "replica KiB now": kb(n.usage),
            "replica KiB former": kb(f.usage),
            "replica ratio now/former": round(n.usage / f.usage, 2),
          },
        },
        samples,
        "worse",
        () => true,
      ),
    ];
  } finally {
    await browser.close();
    for (const s of servers) await s.stop();
  }
}

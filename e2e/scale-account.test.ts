/**
 * Issue 29's account on a new device, in Chromium against the real server, at a size for CI:
 * the sample season (6 hives, three weeks of visits with two photos each) and three hive scales
 * with 60 days of 15-minute readings (17,280) ending now. A fresh profile opens the app and
 * becomes usable: the overview and every hive page show their data (e2e/support/scale-account.ts
 * says by what), and a scale's hive page shows its newest reading and draws its weight chart over
 * every reading. No timing is asserted: the bench (`pnpm bench --only scale-account`) times the
 * same steps at full size.
 */
import { expect, it } from "vitest";
import { inProcessTransport } from "../server/src/seed/in-process.ts";
import { type ScaleAccount, seedScaleAccount } from "../server/src/seed/scales.ts";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { pngImage } from "./support/field.ts";
import {
  chartRuns,
  everyHiveShown,
  firstSyncDone,
  overviewShown,
} from "./support/scale-account.ts";

/** Two small photos per visit, each its own (a PNG of its own size). */
const photos = (visit: number) =>
  [0, 1].map((k) => `data:image/png;base64,${pngImage(32 + 2 * visit + k).toString("base64")}`);

browserSuite("PWA: a new device with a 3-scale account", () => {
  const app = useBrowserApp();

  // About 30 s on an idle machine (seeding 17,280 readings is a third); the limit leaves room for
  // a loaded one.
  it("shows the overview and every hive page with its data, and a scale's weight chart", {
    timeout: 180_000,
  }, async () => {
    const { db, notifier } = app.server.server;
    const account: ScaleAccount = await seedScaleAccount(inProcessTransport(db, notifier), {
      hivesPerApiary: 2,
      weeks: 3,
      scaleDays: 60,
      photos,
    });
    expect(account.season.photos).toBe(2 * account.season.inspections);
    expect(account.readings).toBe(3 * 60 * 96);
    expect(account.hives.filter((h) => h.scale)).toHaveLength(3);

    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await overviewShown(page, account);
    await firstSyncDone(page);
    await everyHiveShown(page, account);

    // A scale's hive page (its newest reading's time was checked above): the latest readings
    // hold a weight, and with the period "All" the weight chart is drawn from the hive's oldest
    // measurement (chartRuns waits for its summary and canvas).
    const scaleHives = account.hives.filter((h) => h.scale);
    await chartRuns(page, scaleHives, 1);
    const weight = page.locator(".hive-charts figure.chart").first();
    expect(await weight.locator("canvas").count()).toBeGreaterThan(0);
    await expect
      .poll(() => weight.locator(".chart__summary").textContent())
      .toMatch(/^Hive weight: [\d,]+ measurements from /);
    expect(await page.locator(".hive-latest dt").allTextContents()).toContain("Weight");
    expect(pageErrors).toEqual([]);
  });
});

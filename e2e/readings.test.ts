/**
 * Readings in the app (issue 29), in Chromium against the real server: a hive scale posts
 * measurement-only inspections through the API; the hive's one visit was 30 days ago. The
 * overview lists the hive as due (readings are no visit) and shows a weight alert; the hive
 * page lists the visit alone (no "Readings only" rows), shows the alert and the scale's latest
 * values. Screenshots of the hive page at phone and desktop size go to
 * e2e/screenshots/readings-*.png (HIVEKEEP_SHOTS overrides the folder). A second test draws three
 * years of a scale from the server's day buckets (GetReadingSeries) and the same chart offline.
 *
 * The alert depends on the season of today's date (the server's clock is real): in a month of
 * some hemisphere's swarm season (April–July north, October–January south) the apiary stands
 * there and the scale records a swarm's drop; in the four months of neither (February, March,
 * August, September: winter in one hemisphere) the beekeeper sets a winter weight in Settings
 * and the hive "may be starving". Both rules are unit- and component-tested at fixed times.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { heading, navigate, openControlled, rpc, waitAllSynced } from "./support/field.ts";

const shots = process.env.HIVEKEEP_SHOTS ?? join(import.meta.dirname, "screenshots");
const hiveName = "Scale hive";
const hour = 3_600_000;
const day = 24 * hour;

const month = new Date().getUTCMonth();
/** The scenario of this month: a swarm in the hemisphere whose season it is, else a light hive in winter. */
const scenario: { kind: "swarm" | "starving"; lat: number } = [3, 4, 5, 6].includes(month)
  ? { kind: "swarm", lat: 48.1 }
  : [9, 10, 11, 0].includes(month)
    ? { kind: "swarm", lat: -33.9 }
    : { kind: "starving", lat: [1, 2].includes(month) ? 48.1 : -33.9 };

/** A card of the page by its title. */
const card = (page: Page, title: string): Locator =>
  page
    .locator("section.card")
    .filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });

browserSuite("PWA: a hive scale's readings are measurements, not visits", () => {
  const app = useBrowserApp();

  it("lists the hive as due, shows no reading as a visit, and alerts on its weight", async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", {
      name: "Hillside",
      lat: scenario.lat,
    });
    const { hive } = await rpc(app.server, "HiveService/CreateHive", {
      apiaryId: apiary.id,
      name: hiveName,
      date: iso(now - 60 * day),
    });
    await rpc(app.server, "InspectionService/CreateInspection", {
      hiveId: hive.id,
      date: iso(now - 30 * day),
      note: "Strong colony, ten frames of bees.",
      queenSeen: true,
    });
    // The scale: every 12 hours for four weeks; then, yesterday, four readings 15 minutes apart.
    const base = scenario.kind === "swarm" ? 42 : 15;
    for (let t = now - 28 * day; t < now - 2 * day; t += 12 * hour) {
      await rpc(app.server, "InspectionService/CreateInspection", {
        hiveId: hive.id,
        date: iso(t),
        weightKg: base,
        tempHive: 34.5,
      });
    }
    const drop =
      scenario.kind === "swarm" ? [base, base, base - 2.4, base - 2.5] : [15, 15, 15, 15];
    for (const [k, weightKg] of drop.entries()) {
      await rpc(app.server, "InspectionService/CreateInspection", {
        hiveId: hive.id,
        date: iso(now - day + k * 15 * 60_000),
        weightKg,
        tempHive: 34.5,
      });
    }

    const { page, pageErrors } = await app.openPage();
    await openControlled(page, app.server.url);
    await waitAllSynced(page);
    if (scenario.kind === "starving") {
      await navigate(page, "Settings");
      await page.getByRole("textbox", { name: /Warn when a hive weighs less than/ }).fill("20");
      await navigate(page, "Overview");
    }
    const alertName = scenario.kind === "swarm" ? "Possible swarm" : "May be starving";

    // The overview: due (the last visit was 30 days ago), the alert, one recent visit.
    const due = card(page, "Due for inspection");
    await due.getByRole("link", { name: /^Scale hive Hillside Last visit 30 days ago/ }).waitFor();
    const alerts = card(page, "Alerts");
    await alerts.getByRole("link", { name: new RegExp(`^${hiveName}: ${alertName}`) }).waitFor();
    const recent = card(page, "Recent inspections");
    await recent.getByText("Strong colony").waitFor();
    expect(await recent.locator("li").count()).toBe(1);

    // The hive page: the visit alone, the alert, the scale's latest values.
    await alerts.getByRole("link", { name: new RegExp(`^${hiveName}`) }).click();
    await heading(page, hiveName).waitFor();
    await page.locator(".hive-alert").filter({ hasText: alertName }).waitFor();
    const visits = card(page, "Inspections");
    await visits.locator("li").first().waitFor();
    expect(await visits.locator("li").count()).toBe(1);
    expect(await page.getByText("Readings only").count()).toBe(0);
    await page.getByText(/^Scale last contact: /).waitFor();
    // The charts load when scrolled near.
    await page.locator(".hive-charts").scrollIntoViewIfNeeded();
    await page.locator(".hive-charts canvas").first().waitFor();

    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, "readings-phone.png"), fullPage: true });
    const desk = await app.openPage({ size: "desktop", serviceWorkers: "block" });
    await desk.page.goto(`${app.server.url}/hives/${hive.id}`);
    await heading(desk.page, hiveName).waitFor();
    if (scenario.kind === "swarm") {
      await desk.page.locator(".hive-alert").filter({ hasText: alertName }).waitFor();
    }
    await desk.page.locator(".hive-charts").scrollIntoViewIfNeeded();
    await desk.page.locator(".hive-charts canvas").first().waitFor();
    await desk.page.screenshot({ path: join(shots, "readings-desktop.png"), fullPage: true });
    expect([...pageErrors, ...desk.pageErrors]).toEqual([]);
  });

  it("draws three years from the server's day buckets, and the same chart offline", async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", { name: "Far field" });
    const { hive } = await rpc(app.server, "HiveService/CreateHive", {
      apiaryId: apiary.id,
      name: "Three-year hive",
      date: iso(now - 3 * 365 * day - 10 * day),
    });
    // Three years of a scale every 6 hours: the colony grows each summer and eats in winter.
    const readings = [];
    for (let t = now - 3 * 365 * day; t < now - hour; t += 6 * hour) {
      const season = Math.sin((2 * Math.PI * (t / day)) / 365);
      readings.push({
        hiveId: hive.id,
        date: iso(t),
        weightKg: Math.round((38 + 12 * season + (t % 7) / 10) * 100) / 100,
        tempHive: Math.round((30 + 5 * season) * 10) / 10,
        humidityHive: 60,
      });
    }
    await rpc(app.server, "InspectionService/CreateReadings", { readings });

    const { page, context, pageErrors } = await app.openPage();
    const asked: string[] = [];
    page.on("requestfinished", (r) => {
      if (r.url().endsWith("/GetReadingSeries")) asked.push(r.url());
    });
    await openControlled(page, app.server.url);
    await waitAllSynced(page);
    const summary = page.locator(".chart__summary").filter({ hasText: /^Hive weight: / });

    // After its first sync the device fetched the hive's years ahead (the page was never
    // opened): offline from now on, the page draws all three years.
    await expect.poll(() => seriesCached(page, hive.id), { timeout: 30_000 }).toBe(true);
    expect(asked.length).toBeGreaterThanOrEqual(1);
    await context.setOffline(true);
    await page.evaluate((path) => history.pushState(null, "", path), `/hives/${hive.id}`);
    await heading(page, "Three-year hive").waitFor();
    await page.locator(".hive-charts").scrollIntoViewIfNeeded();
    await page.locator(".hive-charts").getByRole("radio", { name: "All", exact: true }).check();
    await summary.filter({ hasText: `${readings.length} measurements` }).waitFor();
    const offlineFirst = await summary.textContent();
    await context.setOffline(false);

    await page.goto(`${app.server.url}/hives/${hive.id}`);
    await heading(page, "Three-year hive").waitFor();
    await page.locator(".hive-charts").scrollIntoViewIfNeeded();
    await page.locator(".hive-charts canvas").first().waitFor();
    mkdirSync(shots, { recursive: true });
    await page
      .locator(".hive-charts")
      .screenshot({ path: join(shots, "readings-1y-charts-phone.png") });
    await page.locator(".hive-charts").getByRole("radio", { name: "All", exact: true }).check();
    await summary.filter({ hasText: `${readings.length} measurements` }).waitFor();
    expect(asked.length).toBeGreaterThanOrEqual(1);
    const online = await summary.textContent();
    expect(offlineFirst).toBe(online);
    await page.screenshot({ path: join(shots, "readings-3y-phone.png"), fullPage: true });
    await page
      .locator(".hive-charts")
      .screenshot({ path: join(shots, "readings-3y-charts-phone.png") });

    // Offline: the page again, from the cache (no request reaches the server).
    const before = asked.length;
    await context.setOffline(true);
    await navigate(page, "Overview");
    await page.goBack();
    await heading(page, "Three-year hive").waitFor();
    await page.locator(".hive-charts").scrollIntoViewIfNeeded();
    await page.locator(".hive-charts").getByRole("radio", { name: "All", exact: true }).check();
    await summary.filter({ hasText: `${readings.length} measurements` }).waitFor();
    expect(await summary.textContent()).toBe(online);
    expect(asked.length).toBe(before);
    await page.screenshot({ path: join(shots, "readings-3y-phone-offline.png"), fullPage: true });
    await context.setOffline(false);

    const desk = await app.openPage({ size: "desktop", serviceWorkers: "block" });
    await desk.page.goto(`${app.server.url}/hives/${hive.id}`);
    await waitAllSynced(desk.page);
    await heading(desk.page, "Three-year hive").waitFor();
    await desk.page.locator(".hive-charts").scrollIntoViewIfNeeded();
    await desk.page
      .locator(".hive-charts")
      .getByRole("radio", { name: "All", exact: true })
      .check();
    await desk.page
      .locator(".chart__summary")
      .filter({ hasText: `${readings.length} measurements` })
      .first()
      .waitFor();
    await desk.page
      .locator(".hive-charts")
      .screenshot({ path: join(shots, "readings-3y-desktop.png") });
    expect([...pageErrors, ...desk.pageErrors]).toEqual([]);
  });
});

/**
 * Whether the page's replica holds a fetched series range of the hive (the `seriesRanges` store
 * of the app's IndexedDB database, read raw).
 */
function seriesCached(page: Page, hiveId: string): Promise<boolean> {
  return page.evaluate(async (id) => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    for (const { name } of await indexedDB.databases()) {
      if (name === undefined) continue;
      const db = await request(indexedDB.open(name));
      try {
        if (!db.objectStoreNames.contains("seriesRanges")) continue;
        const range = await request(
          db.transaction("seriesRanges").objectStore("seriesRanges").get(id),
        );
        if (range !== undefined) return true;
      } finally {
        db.close();
      }
    }
    return false;
  }, hiveId);
}

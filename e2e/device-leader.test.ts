/**
 * The device half in Chromium: one sync leader per replica across the tabs of a profile (Web
 * Locks). Only the leader syncs; writes from every tab reach the server through the shared
 * outbox; when the leader's tab closes, another takes over.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test/support/server.ts";
import {
  browserSuite,
  launchChromium,
  newPhoneContext,
  takeCspViolations,
} from "./support/chromium.ts";
import { buildDeviceHarness } from "./support/device-harness.ts";

browserSuite("device: sync leader across tabs", () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    const dir = await buildDeviceHarness();
    browser = await launchChromium();
    server = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: dir });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** SyncService calls (Push, Pull, Subscribe) each page made. */
  const syncCalls = new Map<Page, number>();
  const open = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    page.on("pageerror", (err) => console.error("page error:", err));
    syncCalls.set(page, 0);
    const count = (url: string) => {
      if (url.includes("/hivekeep.v1.SyncService/"))
        syncCalls.set(page, (syncCalls.get(page) ?? 0) + 1);
    };
    page.on("request", (r) => count(r.url()));
    await page.goto(`${server.url}/index.html`);
    await page.evaluate(async () => {
      const client = await window.hivekeepReady;
      client.sync.start();
    });
    return page;
  };
  const leads = (page: Page) => page.evaluate(() => window.hivekeep.sync.status.leader);
  const apiaryNames = async () =>
    ((await server.call("ApiaryService/ListApiaries", {})).body.apiaries ?? []).map(
      (a: { name: string }) => a.name,
    );

  it("elects one leader; writes from both tabs sync; closing the leader hands over", async () => {
    const context = await newPhoneContext(browser);
    const first = await open(context);
    const second = await open(context);
    await expect.poll(async () => [await leads(first), await leads(second)]).toEqual([true, false]);

    for (const [page, name] of [
      [first, "From the leader"],
      [second, "From the other tab"],
    ] as const) {
      await page.evaluate((n) => window.hivekeep.apiaries.createApiary({ name: n }), name);
    }
    await expect
      .poll(apiaryNames, { timeout: 15_000 })
      .toEqual(expect.arrayContaining(["From the leader", "From the other tab"]));
    // The other tab sees the leader's pulls through the shared replica.
    await expect
      .poll(() => second.evaluate(async () => (await window.hivekeep.sync.status).pending))
      .toBe(0);

    // A write on the server reaches both tabs' live queries: the leader's pull Worker writes
    // the replica, and Dexie's change events cross from the Worker to every page.
    for (const page of [first, second]) {
      await page.evaluate(() => {
        (window as unknown as { seen: string[] }).seen = [];
        window.hivekeep
          .live((c) => c.apiaries.listApiaries({}))
          .subscribe({
            next: (r) => {
              (window as unknown as { seen: string[] }).seen = r.apiaries.map((a) => a.name);
            },
          });
      });
    }
    await server.call("ApiaryService/CreateApiary", { name: "From the server" });
    for (const page of [first, second]) {
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen), {
          timeout: 15_000,
        })
        .toContain("From the server");
    }

    // A pull of several pages (5,000 readings: 10,000 changes): the other tab hears its
    // progress from the leader (its sync bar shows it, its screens are paced) and its end.
    await second.evaluate(() => {
      const w = window as unknown as { heard: (number | null)[] };
      w.heard = [];
      window.hivekeep.sync.subscribe((s) => {
        const now = s.pulling ? s.pulling.changes : null;
        if (w.heard.at(-1) !== now) w.heard.push(now);
      });
    });
    const apiary = (await server.call("ApiaryService/CreateApiary", { name: "Scale yard" })).body
      .apiary;
    const hive = (
      await server.call("HiveService/CreateHive", { apiaryId: apiary.id, name: "Scale" })
    ).body.hive;
    const minute = 60_000;
    const end = Date.now();
    const readings = Array.from({ length: 5000 }, (_, i) => ({
      hiveId: hive.id,
      date: new Date(end - (5000 - i) * minute).toISOString(),
      weightKg: 40 + (i % 100) / 100,
    }));
    const created = await server.call("InspectionService/CreateReadings", { readings });
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(200);
    const heard = () =>
      second.evaluate(() => (window as unknown as { heard: (number | null)[] }).heard);
    await expect.poll(async () => (await heard()).at(-1), { timeout: 30_000 }).toBe(null);
    // The changes merged so far, page by page, then the end.
    const progress = (await heard()).slice(0, -1);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(progress.every((n) => typeof n === "number" && n > 0)).toBe(true);
    expect(await second.evaluate(() => window.hivekeep.sync.status.leader)).toBe(false);
    // It read what the leader's cycle saved: when it last synced.
    await expect
      .poll(() => second.evaluate(() => window.hivekeep.sync.status.lastSyncedAt !== undefined))
      .toBe(true);

    // Only the leader syncs: the other tab has made no Push, Pull or Subscribe call.
    expect(syncCalls.get(first)).toBeGreaterThan(0);
    expect(syncCalls.get(second)).toBe(0);

    const closedAt = Date.now();
    await first.close();
    await expect.poll(() => leads(second), { timeout: 10_000 }).toBe(true);
    console.info(`leadership handed over in ${Date.now() - closedAt} ms`);

    await second.evaluate(() => window.hivekeep.apiaries.createApiary({ name: "After takeover" }));
    await expect.poll(apiaryNames, { timeout: 15_000 }).toContain("After takeover");
    expect(takeCspViolations(context)).toEqual([]);
    await context.close();
  });
});

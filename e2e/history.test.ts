/**
 * History as it happened (issue 25): a beekeeper enters, offline, a hive set up in March, moved
 * in May and inspected in June, in that order, with the dates they happened; the hive page's
 * timeline and placements show them by date, the set-up first. A set-up date in the future is
 * refused with the rule's words. Back online, the server has the same history. Screenshots of
 * the new-hive form (phone) and the hive page at phone and desktop size go to
 * e2e/screenshots/history-*.png (HIVEKEEP_SHOTS overrides the folder).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { heading, navigate, openControlled, rpc, syncBar, waitAllSynced } from "./support/field.ts";

const shots = process.env.HIVEKEEP_SHOTS ?? join(import.meta.dirname, "screenshots");
const hiveName = "Volk Lindenhof 7";

/** The latest March … June that lies wholly in the past: this year from July on, else last year. */
const today = new Date();
const year = today.getMonth() >= 6 ? today.getFullYear() : today.getFullYear() - 1;
const march = `${year}-03-15`;
const may = `${year}-05-10T09:00`;
const june = `${year}-06-12T10:30`;

/** The hive page's timeline, each entry's text in the order shown. */
const timeline = (page: Page) =>
  page.locator(".hive-timeline > li").evaluateAll((items) => items.map((li) => li.textContent));

browserSuite("PWA: entering a hive's history as it happened", () => {
  const app = useBrowserApp();

  it("a hive set up in March, moved in May, inspected in June: the timeline follows the dates", async () => {
    for (const name of ["Lindenhof", "Heide"]) {
      await rpc(app.server, "ApiaryService/CreateApiary", { name });
    }
    const { page, context, pageErrors } = await app.openPage();
    await openControlled(page, app.server.url);
    await waitAllSynced(page);
    await context.setOffline(true);
    await syncBar(page).filter({ hasText: "Offline" }).waitFor();

    // The hive, set up in March at Lindenhof; a date in the future is refused first.
    await navigate(page, "Apiaries");
    await page.getByRole("link", { name: "Lindenhof" }).click();
    await page.getByRole("link", { name: "Add a hive here" }).click();
    await heading(page, "New hive").waitFor();
    await page.getByLabel("Name", { exact: true }).fill(hiveName);
    const setUp = page.getByLabel(/^Set up on/);
    const localDay = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    expect(await setUp.inputValue()).toBe(localDay(new Date()));
    expect(await setUp.getAttribute("max")).toBe(localDay(new Date()));
    await setUp.fill(localDay(new Date(Date.now() + 3 * 24 * 3_600_000)));
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByRole("alert")
      .filter({
        hasText: "This date is in the future. Enter when it happened: today at the latest.",
      })
      .waitFor();
    await setUp.fill(march);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, "history-form-phone.png"), fullPage: true });
    await page.getByRole("button", { name: "Save" }).click();
    await heading(page, hiveName).waitFor();
    const hiveId = new URL(page.url()).pathname.split("/").at(-1) ?? "";

    // Moved to Heide in May: before the fix the placement started today and this was refused.
    await page.getByRole("link", { name: "Move hive" }).click();
    await heading(page, `Move hive: ${hiveName}`).waitFor();
    await page.getByLabel("New apiary").selectOption({ label: "Heide" });
    await page.getByLabel(/^Moved on/).fill(may);
    await page.getByRole("button", { name: "Move hive" }).click();
    await heading(page, hiveName).waitFor();

    // Inspected in June.
    await page.getByRole("link", { name: "Inspect" }).click();
    await heading(page, `Inspect ${hiveName}`).waitFor();
    await page.getByLabel(/^Date/).fill(june);
    await page.getByLabel("Note").fill("Strong colony after the move.");
    await page.getByRole("button", { name: "Save inspection" }).click();
    await heading(page, hiveName).waitFor();

    // The timeline, newest first: June's inspection, May's move, March's set-up.
    await expect.poll(async () => (await timeline(page)).length).toBe(3);
    const [first, second, third] = await timeline(page);
    expect(first).toMatch(/^Inspection.*Jun 12/);
    expect(second).toMatch(/^Moved.*May 10.*From Lindenhof to Heide/);
    expect(third).toMatch(/^Hive set up.*Mar 15.*At Lindenhof/);
    // The placements: at Heide since May 10, at Lindenhof from March 15 until then.
    const placements = page.locator(".hive-card").filter({ hasText: "Placement history" });
    await placements.getByText(/Heide/).waitFor();
    const stays = await placements
      .locator("li")
      .evaluateAll((items) => items.map((li) => li.textContent));
    expect(stays).toEqual([
      expect.stringMatching(/^Heide.*Current.*May 10/),
      expect.stringMatching(/^Lindenhof.*Mar 15.*May 10/),
    ]);

    await page.screenshot({ path: join(shots, "history-phone.png"), fullPage: true });

    // Back online: the server has the same history, by date.
    await context.setOffline(false);
    await waitAllSynced(page);
    const { events } = await rpc(app.server, "EventService/ListEvents", { hiveId });
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      "EVENT_TYPE_INSPECTION",
      "EVENT_TYPE_MOVED",
      "EVENT_TYPE_CREATED",
    ]);
    expect(new Date(events[2].date).getMonth()).toBe(2); // March, local time as entered

    // The same page on a desktop, synced from the server.
    const desk = await app.openPage({ size: "desktop", serviceWorkers: "block" });
    await desk.page.goto(`${app.server.url}/hives/${hiveId}`);
    await heading(desk.page, hiveName).waitFor();
    await expect.poll(async () => (await timeline(desk.page)).length).toBe(3);
    expect(await timeline(desk.page)).toEqual(await timeline(page));
    await desk.page.screenshot({ path: join(shots, "history-desktop.png"), fullPage: true });
    expect([...pageErrors, ...desk.pageErrors]).toEqual([]);
  });
});

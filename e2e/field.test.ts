/**
 * The field scenario: the app opened once with signal, then a day at the apiary with none.
 * Offline, the precached app opens, and an apiary, a hive, an inspection with a photo, a queen,
 * a treatment, a harvest and a task are recorded; after a reload they are all still there. Back
 * online they sync: the server's own RPCs return them, and another device open on the server
 * shows them without a manual refresh (the Subscribe stream pokes it).
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import {
  heading,
  listItem,
  navigate,
  openControlled,
  pngImage,
  rpc,
  syncBar,
  waitAllSynced,
} from "./support/field.ts";

const apiaryName = "Waldrand";
const hiveName = "Volk Waldrand 1";
const thisYear = new Date().getFullYear();

/** What the hive page shows once everything of the day is recorded. */
async function seesTheDay(page: Page): Promise<void> {
  await heading(page, hiveName).waitFor();
  for (const text of [
    "First look at the new colony.",
    "Own breeding",
    "Oxuvar 5.7%",
    "Forest honey",
    "Add a honey super",
  ]) {
    await page.getByText(text).first().waitFor();
  }
}

/** A switch turned on from the keyboard (Space), as a keyboard user does it. */
async function turnOn(page: Page, name: string): Promise<void> {
  const toggle = page.getByRole("switch", { name });
  await toggle.press("Space");
  await expect.poll(() => toggle.isChecked()).toBe(true);
}

browserSuite("PWA: a day in the field without signal", () => {
  const app = useBrowserApp();

  it("records everything offline, keeps it over a reload, and syncs it when back online", async () => {
    const { page, context, pageErrors } = await app.openPage();
    await openControlled(page, app.server.url);
    await waitAllSynced(page);

    // Another device on the same server, which stays online and open on the hive list.
    const other = await app.openPage({ serviceWorkers: "block" });
    await other.page.goto(`${app.server.url}/hives`);
    await heading(other.page, "Hives").waitFor();
    await waitAllSynced(other.page);

    // No signal: the app still opens, from the service worker's cache.
    await context.setOffline(true);
    await page.reload();
    await heading(page, "Overview").waitFor();
    await syncBar(page).filter({ hasText: "Offline — saved on this device" }).waitFor();

    // An apiary…
    await navigate(page, "Apiaries");
    await page.getByRole("link", { name: "New apiary" }).click();
    await page.getByLabel("Name", { exact: true }).fill(apiaryName);
    await page.getByLabel("Address").fill("Forest edge, behind the mill");
    await page.getByRole("button", { name: "Save" }).click();
    await heading(page, apiaryName).waitFor();

    // …a hive standing there…
    await page.getByRole("link", { name: "Add a hive here" }).click();
    await heading(page, "New hive").waitFor();
    await page.getByLabel("Name", { exact: true }).fill(hiveName);
    await page.getByRole("button", { name: "More Boxes" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await heading(page, hiveName).waitFor();
    const hivePath = new URL(page.url()).pathname;

    // …an inspection with a photo…
    await page.getByRole("link", { name: "Inspect" }).click();
    await heading(page, `Inspect ${hiveName}`).waitFor();
    await turnOn(page, "Queen seen");
    await turnOn(page, "Eggs seen");
    await page.getByRole("button", { name: "More Frames" }).click();
    await page
      .getByRole("group", { name: "Stores" })
      .getByRole("radio", { name: "Good", exact: true })
      .check();
    await page.getByLabel("Note").fill("First look at the new colony.");
    await page.getByLabel("Choose from gallery").setInputFiles({
      name: "brood-frame.png",
      mimeType: "image/png",
      buffer: pngImage(480),
    });
    await page.getByRole("img", { name: "Photo 1" }).waitFor();
    await page.getByRole("button", { name: "Save inspection" }).click();
    await heading(page, hiveName).waitFor();
    await page.getByText("First look at the new colony.").first().waitFor();

    // …a queen…
    await page.getByRole("link", { name: "New queen" }).click();
    await heading(page, "New queen").waitFor();
    await page.getByLabel("Year").fill(String(thisYear));
    await page.getByLabel("Origin").fill("Own breeding");
    await page.getByRole("button", { name: "Save queen" }).click();
    await heading(page, hiveName).waitFor();

    // …a treatment…
    await page.getByRole("link", { name: "Record treatment" }).click();
    await heading(page, "New treatment").waitFor();
    await page.getByLabel("Product").fill("Oxuvar 5.7%");
    await page.getByRole("button", { name: "Save treatment" }).click();
    await heading(page, hiveName).waitFor();

    // …a harvest…
    await page.getByRole("link", { name: "Record harvest" }).click();
    await heading(page, "New harvest").waitFor();
    await page.getByLabel("Amount").fill("7,5");
    await page.getByLabel("Variety").fill("Forest honey");
    await page.getByRole("button", { name: "Save harvest" }).click();
    await heading(page, hiveName).waitFor();

    // …and a task.
    await page.getByRole("link", { name: "Add task" }).click();
    await heading(page, "New task").waitFor();
    await page.getByLabel("Title").fill("Add a honey super");
    await page.getByRole("button", { name: "Save task" }).click();
    await heading(page, hiveName).waitFor();
    await seesTheDay(page);
    await syncBar(page)
      .filter({ hasText: /changes waiting/ })
      .waitFor();

    // Still no signal: a reload keeps all of it (it is on the device).
    await page.reload();
    await seesTheDay(page);
    expect(new URL(page.url()).pathname).toBe(hivePath);
    await navigate(page, "Tasks");
    await listItem(page, "Add a honey super").waitFor();
    await page.goBack();
    await seesTheDay(page);

    // Signal again: the bar says so, and everything syncs.
    await context.setOffline(false);
    await syncBar(page).filter({ hasText: "Back online" }).waitFor();
    await waitAllSynced(page);

    const { apiaries } = await rpc(app.server, "ApiaryService/ListApiaries");
    const apiary = apiaries.find((a: { name: string }) => a.name === apiaryName);
    expect(apiary).toMatchObject({ address: "Forest edge, behind the mill", hiveCount: 1 });
    const { hives } = await rpc(app.server, "HiveService/ListHives", { apiaryId: apiary.id });
    expect(hives).toEqual([expect.objectContaining({ name: hiveName, boxes: 1 })]);
    const hiveId = hives[0].id;
    expect(hivePath).toBe(`/hives/${hiveId}`);

    const { inspections } = await rpc(app.server, "InspectionService/ListInspections", {
      hiveId,
    });
    expect(inspections).toEqual([
      expect.objectContaining({
        apiaryId: apiary.id,
        note: "First look at the new colony.",
        queenSeen: true,
        eggsSeen: true,
        frames: 10,
        stores: "STORES_GOOD",
      }),
    ]);
    expect(inspections[0].photoKeys).toHaveLength(1);
    expect(inspections[0].photoKeys[0]).toMatch(/^data:image\//);

    const { queens } = await rpc(app.server, "QueenService/ListQueens", { hiveId });
    expect(queens).toEqual([
      expect.objectContaining({ year: thisYear, origin: "Own breeding", active: true }),
    ]);
    const { treatments } = await rpc(app.server, "TreatmentService/ListTreatments", { hiveId });
    expect(treatments).toEqual([
      expect.objectContaining({ product: "Oxuvar 5.7%", apiaryId: apiary.id }),
    ]);
    const { harvests } = await rpc(app.server, "HarvestService/ListHarvests", { hiveId });
    expect(harvests).toEqual([
      expect.objectContaining({ amountKg: 7.5, variety: "Forest honey", apiaryId: apiary.id }),
    ]);
    const { tasks } = await rpc(app.server, "TaskService/ListTasks", { hiveId });
    expect(tasks).toEqual([
      expect.objectContaining({ title: "Add a honey super", apiaryId: apiary.id }),
    ]);

    // The other device shows the new hive without a reload, and all of the day inside it.
    const otherItem = listItem(other.page, hiveName);
    await otherItem.waitFor();
    await otherItem.getByRole("link").first().click();
    await seesTheDay(other.page);

    expect(pageErrors).toEqual([]);
    expect(other.pageErrors).toEqual([]);
  });
});

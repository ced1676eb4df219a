/**
 * Correcting the record (issue 25), in Chromium: offline, a beekeeper corrects a mistyped
 * inspection and deletes another entered twice; back online, both reach the server (read back
 * through its API). Then screenshots of edit forms and delete confirmations at phone and
 * desktop size into e2e/screenshots (looked at by hand; the confirmation's buttons at least 48 px
 * high).
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite, type ScreenSize } from "./support/chromium.ts";
import { heading, navigate, openControlled, rpc, syncBar, waitAllSynced } from "./support/field.ts";

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const shots = process.env.HIVEKEEP_SHOTS ?? join(import.meta.dirname, "screenshots");

browserSuite("PWA: correcting the record offline", () => {
  const app = useBrowserApp();

  it("corrects a mistyped inspection and deletes a doubled one offline; both reach the server", async () => {
    const call = (path: string, body: unknown) => rpc(app.server, path, body);
    const { apiary } = await call("ApiaryService/CreateApiary", { name: "Obstwiese" });
    const { hive } = await call("HiveService/CreateHive", { apiaryId: apiary.id, name: "Volk 7" });
    const { inspection: typo } = await call("InspectionService/CreateInspection", {
      hiveId: hive.id,
      date: daysAgo(2),
      frames: 10,
      note: "Quen seen, 7 brood frames",
    });
    const { inspection: twice } = await call("InspectionService/CreateInspection", {
      hiveId: hive.id,
      date: daysAgo(1),
      note: "Entered twice",
    });

    const { page, context, pageErrors } = await app.openPage();
    await openControlled(page, app.server.url);
    await waitAllSynced(page);

    await context.setOffline(true);
    await syncBar(page).filter({ hasText: "Offline" }).waitFor();
    await navigate(page, "Hives");
    await page.getByRole("link", { name: /^Volk 7/ }).click();
    await heading(page, "Volk 7").waitFor();

    // The mistyped one: Edit → the form in edit mode, the note corrected.
    await page.locator(`a[href="/inspections/${typo.id}"]`).first().click();
    await heading(page, "Inspection of Volk 7").waitFor();
    await page.getByRole("link", { name: "Edit inspection" }).click();
    await heading(page, "Edit inspection of Volk 7").waitFor();
    await page.getByLabel("Note").fill("Queen seen, 7 brood frames");
    await page.getByRole("button", { name: "Save changes" }).click();
    await heading(page, "Inspection of Volk 7").waitFor();
    await page.getByText("Queen seen, 7 brood frames").waitFor();

    // The doubled one: Delete, confirmed with its consequence.
    await page.getByRole("link", { name: "Back" }).click();
    await heading(page, "Volk 7").waitFor();
    await page.locator(`a[href="/inspections/${twice.id}"]`).first().click();
    await heading(page, "Inspection of Volk 7").waitFor();
    await page.getByRole("button", { name: "Delete inspection" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /^Delete this inspection of / })
      .waitFor();
    await page.getByRole("button", { name: "Delete inspection" }).click();
    await heading(page, "Volk 7").waitFor();
    await expect.poll(() => page.locator(`a[href="/inspections/${twice.id}"]`).count()).toBe(0);

    // Back online: both changes are pushed.
    await context.setOffline(false);
    await waitAllSynced(page);
    const { inspections } = await call("InspectionService/ListInspections", { hiveId: hive.id });
    expect(inspections.map((i: { id: string }) => i.id)).toEqual([typo.id]);
    expect(inspections[0].note).toBe("Queen seen, 7 brood frames");
    expect(inspections[0].frames).toBe(10);
    const gone = await app.server.call("InspectionService/GetInspection", { id: twice.id });
    expect(gone.status).toBe(404);
    expect(pageErrors).toEqual([]);
  });

  it("screenshots: an edit form and a delete's confirmation at phone and desktop size", async () => {
    mkdirSync(shots, { recursive: true });
    const call = (path: string, body: unknown) => rpc(app.server, path, body);
    const { apiary } = await call("ApiaryService/CreateApiary", { name: "Lindenhof" });
    const { hive } = await call("HiveService/CreateHive", { apiaryId: apiary.id, name: "Volk 1" });
    const { inspection } = await call("InspectionService/CreateInspection", {
      hiveId: hive.id,
      date: daysAgo(3),
      frames: 18,
      broodFrames: 6,
      queenSeen: true,
      note: "Calm colony.",
    });
    const { treatment } = await call("TreatmentService/CreateTreatment", {
      hiveId: hive.id,
      product: "Oxuvar 5.7%",
      dose: "30 ml",
      date: daysAgo(3),
      withdrawalUntil: new Date(Date.now() + 20 * 86_400_000).toISOString(),
    });
    const { queen } = await call("QueenService/CreateQueen", {
      hiveId: hive.id,
      year: new Date().getFullYear() - 1,
      introducedAt: daysAgo(200),
    });
    const { task } = await call("TaskService/CreateTask", {
      title: "Add a honey super",
      hiveId: hive.id,
      dueAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    for (const size of ["phone", "desktop"] as const satisfies readonly ScreenSize[]) {
      const { page, pageErrors } = await app.openPage({ size, serviceWorkers: "block" });
      await page.goto(`${app.server.url}/inspections/${inspection.id}/edit`);
      await heading(page, "Edit inspection of Volk 1").waitFor();
      await page.screenshot({ path: `${shots}/app-inspection-edit-${size}.png`, fullPage: true });

      await page.goto(`${app.server.url}/treatments/${treatment.id}/edit`);
      await heading(page, "Edit treatment with Oxuvar 5.7%").waitFor();
      await page.getByRole("button", { name: "Delete treatment" }).click();
      const confirm = page.getByRole("alert").filter({ hasText: /^Delete this treatment/ });
      await confirm.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/app-treatment-delete-${size}.png`, fullPage: true });
      // The confirmation's buttons are full-size targets.
      for (const name of ["Delete treatment", "Keep"]) {
        const box = await page.getByRole("button", { name, exact: true }).boundingBox();
        expect(box?.height, name).toBeGreaterThanOrEqual(48);
      }

      await page.goto(`${app.server.url}/tasks/${task.id}/edit`);
      await heading(page, "Edit task").waitFor();
      await page.screenshot({ path: `${shots}/app-task-edit-${size}.png`, fullPage: true });

      await page.goto(`${app.server.url}/queens/${queen.id}/edit`);
      await heading(page, "Edit queen").waitFor();
      await page.getByRole("button", { name: "Delete queen" }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: /no queen reigns in this hive then until you add one\.$/ })
        .waitFor();
      await page.screenshot({ path: `${shots}/app-queen-delete-${size}.png`, fullPage: true });
      expect(pageErrors).toEqual([]);
    }
  });
});

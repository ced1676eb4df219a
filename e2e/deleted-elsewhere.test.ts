/**
 * Issue 25, "deleted elsewhere": device A, offline, inspects a hive and moves it, while another
 * device deletes the hive. When A is back online, A is told (Needs attention lists the hive and
 * the inspection, with what A wrote), the hive's page says it was deleted on another device
 * instead of "Not found", and the inspection stays a record A can open. Screenshots at phone
 * and desktop size go to e2e/screenshots/conflicts-*.png (HIVEKEEP_SHOTS overrides the folder).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite, type ScreenSize } from "./support/chromium.ts";
import { heading, openControlled, rpc, syncBar, waitAllSynced } from "./support/field.ts";

const shots = process.env.HIVEKEEP_SHOTS ?? join(import.meta.dirname, "screenshots");

async function shot(page: Page, name: string, size: ScreenSize): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `conflicts-${name}-${size}.png`), fullPage: true });
}

browserSuite("PWA: a hive deleted on another device while this one worked on it offline", () => {
  const app = useBrowserApp();

  for (const size of ["phone", "desktop"] as const) {
    it(`tells device A, keeps the hive's page and the inspection reachable (${size})`, async () => {
      const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", {
        name: `Heide ${size}`,
      });
      await rpc(app.server, "ApiaryService/CreateApiary", { name: `Wald ${size}` });
      const { hive } = await rpc(app.server, "HiveService/CreateHive", {
        apiaryId: apiary.id,
        name: `Volk ${size}`,
      });
      const { page, context, pageErrors } = await app.openPage({ size });
      const hivePath = `/hives/${hive.id}`;
      await openControlled(page, `${app.server.url}${hivePath}`);
      await heading(page, `Volk ${size}`).waitFor();
      await waitAllSynced(page);

      // A goes offline, inspects the hive and moves it.
      await context.setOffline(true);
      await syncBar(page).filter({ hasText: "Offline" }).waitFor();
      await page.getByRole("link", { name: "Inspect" }).click();
      await heading(page, `Inspect Volk ${size}`).waitFor();
      await page.getByLabel("Note").fill("Calm, brood on six frames.");
      await page.getByRole("button", { name: "Save inspection" }).click();
      await heading(page, `Volk ${size}`).waitFor();
      await page.getByRole("link", { name: "Move hive" }).click();
      await heading(page, "Move hive").waitFor();
      await page.getByLabel("New apiary").selectOption({ label: `Wald ${size}` });
      await page.getByRole("button", { name: "Move hive" }).click();
      await heading(page, `Volk ${size}`).waitFor();
      await syncBar(page)
        .filter({ hasText: /waiting/ })
        .waitFor();

      // Meanwhile another device deletes the hive.
      await rpc(app.server, "HiveService/DeleteHive", { id: hive.id });

      // A is back online: its work is pushed, the delete pulled.
      await context.setOffline(false);
      await waitAllSynced(page);
      const banner = page.getByTestId("hive-deleted-elsewhere");
      await banner.waitFor();
      expect(await banner.textContent()).toMatch(/This hive was deleted on another device/);
      await heading(page, `Volk ${size}`).waitFor();
      await page.getByText("Calm, brood on six frames.").first().waitFor();
      expect(await page.getByRole("link", { name: "Inspect", exact: true }).count()).toBe(0);
      await syncBar(page)
        .getByRole("link", { name: /attention/ })
        .waitFor();
      await shot(page, "hive-page", size);

      // Needs attention names the hive and the inspection, until dismissed.
      await syncBar(page)
        .getByRole("link", { name: /attention/ })
        .click();
      await heading(page, "Needs attention").waitFor();
      const notices = page.locator("[data-notice]");
      await expect.poll(() => notices.count()).toBe(2);
      await page.getByText(/Deleted on another device .* while you were working on it/).waitFor();
      await page
        .getByText(new RegExp(`Hive “Volk ${size}” was deleted on another device`))
        .waitFor();
      await shot(page, "attention", size);

      // The inspection stays reachable from its notice.
      await page
        .locator(`[data-notice^="inspection/"]`)
        .getByRole("link", { name: "Open the record" })
        .click();
      await heading(page, `Inspection of Volk ${size}`).waitFor();
      await page.getByText("Calm, brood on six frames.").first().waitFor();
      await shot(page, "inspection", size);

      // Dismissed, the notices go; the sync bar no longer counts them.
      await page.goBack();
      await heading(page, "Needs attention").waitFor();
      for (let i = 0; i < 2; i++)
        await page.getByRole("button", { name: "Dismiss" }).first().click();
      await page.getByText("Nothing needs attention").waitFor();
      expect(
        await syncBar(page)
          .getByRole("link", { name: /attention/ })
          .count(),
      ).toBe(0);
      expect(pageErrors).toEqual([]);
    });
  }
});

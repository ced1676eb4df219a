/**
 * Two devices edit the same hive while both are offline — each a different field (A renames it,
 * B adds a box), and one field to the same value (the note) — and then reconnect. Both end up
 * showing the same hive, the one the server's GetHive returns, and it holds both edits: changes
 * merge column by column, and an edit records only the columns it changes (so B's later change
 * does not carry the name B never touched).
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { heading, openControlled, rpc, syncBar, waitAllSynced } from "./support/field.ts";

/** The hive as its page shows it: name, boxes and note. */
async function shownHive(page: Page): Promise<{ name: string; boxes: string; note: string }> {
  const name = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
  const boxes =
    (await page
      .getByText(/^\d+ box(es)?$/)
      .first()
      .textContent()) ?? "";
  const note =
    (await page
      .getByText(/^Checked after the storm\.$|^As set up in spring\.$/)
      .first()
      .textContent()) ?? "";
  return { name, boxes, note };
}

browserSuite("PWA: two devices edit the same hive offline", () => {
  const app = useBrowserApp();

  it("keeps both edits, and both devices show the server's hive", async () => {
    const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", { name: "Heide" });
    const { hive } = await rpc(app.server, "HiveService/CreateHive", {
      apiaryId: apiary.id,
      name: "Volk Heide",
      boxes: 2,
      note: "As set up in spring.",
    });
    const url = `${app.server.url}/hives/${hive.id}`;
    const devices = [await app.openPage(), await app.openPage()];
    for (const { page } of devices) {
      await openControlled(page, url);
      await heading(page, "Volk Heide").waitFor();
      await waitAllSynced(page);
    }
    const [a, b] = devices as [(typeof devices)[0], (typeof devices)[0]];

    const edit = async (page: Page, change: (page: Page) => Promise<void>) => {
      await page.getByRole("link", { name: "Edit hive" }).click();
      await heading(page, "Edit hive").waitFor();
      await change(page);
      await page.getByLabel("Note", { exact: true }).fill("Checked after the storm.");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Checked after the storm.").first().waitFor();
      await syncBar(page)
        .filter({ hasText: /waiting/ })
        .waitFor();
    };
    for (const { context, page } of devices) {
      await context.setOffline(true);
      await syncBar(page).filter({ hasText: "Offline" }).waitFor();
    }
    // Device A renames the hive; device B adds a box; both write the same note.
    await edit(a.page, (page) => page.getByLabel("Name", { exact: true }).fill("Volk Heide 2"));
    await heading(a.page, "Volk Heide 2").waitFor();
    await edit(b.page, (page) => page.getByRole("button", { name: "More Boxes" }).click());
    await b.page.getByText("3 boxes").first().waitFor();

    // Back online, one after the other.
    for (const { context, page } of devices) {
      await context.setOffline(false);
      await waitAllSynced(page);
    }
    const { hive: onServer } = await rpc(app.server, "HiveService/GetHive", { id: hive.id });
    // A's new name, B's added box, and the note both wrote alike.
    expect(onServer).toMatchObject({
      name: "Volk Heide 2",
      boxes: 3,
      note: "Checked after the storm.",
    });
    for (const { page } of devices) {
      await expect
        .poll(() => shownHive(page))
        .toEqual({
          name: onServer.name,
          boxes: `${onServer.boxes} boxes`,
          note: onServer.note,
        });
    }
    expect(a.pageErrors).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });
});

/**
 * A change the server refuses: it is set aside with the server's reason, shown on the
 * needs-attention screen (`/sync`) and counted in the sync bar, and nothing else is held back —
 * a change made at the same time reaches the server. Discarding it puts the record back to the
 * server's state.
 *
 * The refusal is made the way the protocol allows one: the device's Push is rewritten in flight
 * so that one change, the new inspection, names a hive the server never had.
 */
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import {
  heading,
  listItem,
  openControlled,
  rewriteOnePushedChange,
  rpc,
  syncBar,
  waitAllSynced,
} from "./support/field.ts";

const unknownHive = "hive-the-server-never-had";

browserSuite("PWA: a change the server refuses needs attention", () => {
  const app = useBrowserApp();

  it("shows the refusal with its reason, keeps syncing the rest, and discards back to the server's state", async () => {
    const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", {
      name: "Streuobstwiese",
      address: "Old address",
    });
    const { hive } = await rpc(app.server, "HiveService/CreateHive", {
      apiaryId: apiary.id,
      name: "Volk Apfel",
    });
    // The service worker keeps the app's screens at hand offline.
    const { page, context, pageErrors } = await app.openPage();
    await openControlled(page, `${app.server.url}/hives/${hive.id}`);
    await heading(page, "Volk Apfel").waitFor();
    await waitAllSynced(page);

    const { rewritten } = await rewriteOnePushedChange(page, (c) =>
      c.entity === "inspection"
        ? { ...c, payloadJson: JSON.stringify({ ...c.payload, hive_id: unknownHive }) }
        : undefined,
    );

    // Offline, two changes at once: an inspection (the one to be refused) and an apiary edit.
    await context.setOffline(true);
    await syncBar(page).filter({ hasText: "Offline" }).waitFor();
    await page.getByRole("link", { name: "Inspect" }).click();
    await page.getByLabel("Note", { exact: true }).fill("Refused by the server");
    await page.getByRole("button", { name: "Save inspection" }).click();
    await heading(page, "Volk Apfel").waitFor();
    await page.getByText("Refused by the server").first().waitFor();
    await page.getByRole("link", { name: "Streuobstwiese" }).first().click();
    await heading(page, "Streuobstwiese").waitFor();
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Address").fill("New address, by the brook");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("New address, by the brook").waitFor();

    await context.setOffline(false);
    const sent = await rewritten;
    expect(sent.entity).toBe("inspection");

    // The sync bar counts it and links to the list.
    const link = syncBar(page).getByRole("link", { name: "1 item needs attention" });
    await link.click();
    await heading(page, "Needs attention").waitFor();
    const item = listItem(page, "Inspection");
    await item.waitFor();
    const text = (await item.textContent()) ?? "";
    expect(text).toContain("invalid_argument");
    // The server's own reason, naming what it does not know.
    expect(text).toMatch(new RegExp(`Reason:.*${unknownHive}`));

    // Nothing else was held back: the apiary edit reached the server, the inspection did not.
    await waitAllSynced(page);
    const { apiaries } = await rpc(app.server, "ApiaryService/ListApiaries");
    expect(apiaries).toEqual([
      expect.objectContaining({ id: apiary.id, address: "New address, by the brook" }),
    ]);
    const { inspections } = await rpc(app.server, "InspectionService/ListInspections", {});
    expect(inspections ?? []).toEqual([]);

    // Discarding puts the device back to the server's state: no inspection of the hive.
    await item.getByRole("button", { name: "Discard this change" }).click();
    // The confirmation answers with the action's name, not Yes.
    await item.getByRole("button", { name: "Discard this change" }).click();
    await page.getByText("Nothing needs attention: every change was accepted.").waitFor();
    await expect.poll(() => link.count()).toBe(0);
    await page.goto(`${app.server.url}/hives/${hive.id}`);
    await heading(page, "Volk Apfel").waitFor();
    await page.getByText("No inspections yet.").waitFor();
    expect(await page.getByText("Refused by the server").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

/**
 * The task form's reads: the hive or apiary a link opens it for, preselected, and Not found when
 * that link names one that is not on the device; the quick due dates count from now.
 */
import { describe, expect, it } from "vitest";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

const missing = "0190a000-0000-7000-8000-000000000000";

describe("the task form", () => {
  it("opened from a hive, is for that hive; Tomorrow is the day after the test's now", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const app = await renderAt(`/tasks/new?hive=${hive.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "New task" });
    const select = app.getByRole("combobox", { name: /Hive/ }) as HTMLSelectElement;
    expect(select.selectedOptions[0]?.textContent).toBe("Hive 1 · Home meadow");
    await app.user.click(app.getByRole("button", { name: "Tomorrow" }));
    expect(app.getByLabelText(/^Due date/)).toHaveProperty("value", "2026-06-16");
  });

  it("says Not found when the link names a hive or an apiary that is not on this device", async () => {
    const hiveLink = await renderAt(`/tasks/new?hive=${missing}`);
    await hiveLink.findByRole("heading", { level: 1, name: "Not found" });
    hiveLink.unmount();
    const apiaryLink = await renderAt(`/tasks/new?apiary=${missing}`);
    await apiaryLink.findByRole("heading", { level: 1, name: "Not found" });
  });
});

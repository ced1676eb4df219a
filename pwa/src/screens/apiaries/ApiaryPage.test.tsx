/**
 * An apiary's page: the hives standing there, deleting the apiary only once it is empty (written
 * to the replica), and a deep link to an apiary not on the device.
 */
import { HiveStatus } from "@hivekeep/proto";
import { within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { findSection } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

describe("the apiary page", () => {
  it("lists the hives standing there and will not delete the apiary while they do", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow", address: "Mill lane 3" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    await client.hives.updateHive({ hive: { ...hive, status: HiveStatus.NUC } });
    const app = await renderAt(`/apiaries/${home.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "Home meadow" });
    expect(app.getByText("Mill lane 3")).toBeTruthy();
    const hives = within(await findSection("Hives here"));
    expect(await hives.findByRole("link", { name: "Hive 1 Nucleus" })).toBeTruthy();
    expect(app.getByText(/^1 hive still stands here/)).toBeTruthy();
    expect(app.queryByRole("button", { name: "Delete apiary" })).toBeNull();

    await app.user.click(hives.getByRole("link", { name: "Add a hive here" }));
    expect(app.location()).toBe(`/hives/new?apiary=${home.id}`);
  });

  it("deletes an empty apiary from the replica after asking, and goes back to the list", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const app = await renderAt(`/apiaries/${home.id}`, { client });
    expect(await app.findByText("No hives stand here.")).toBeTruthy();
    await app.user.click(app.getByRole("button", { name: "Delete apiary" }));
    expect(app.getByRole("alert").textContent).toBe(
      "Delete the apiary Home meadow: it leaves the list of apiaries.",
    );
    await app.user.click(app.getByRole("button", { name: "Delete apiary" }));
    await app.findByRole("heading", { level: 1, name: "Apiaries" });
    expect(app.location()).toBe("/apiaries");
    expect((await client.apiaries.listApiaries({})).apiaries).toEqual([]);
  });

  it("says Not found for an apiary that is not on this device", async () => {
    const app = await renderAt("/apiaries/0190a000-0000-7000-8000-000000000000");
    expect(await app.findByRole("heading", { level: 1, name: "Not found" })).toBeTruthy();
  });
});

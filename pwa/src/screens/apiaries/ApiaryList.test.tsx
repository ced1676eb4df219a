/** The apiary list: the apiaries with their address and hive counts; none yet on a new device. */
import { describe, expect, it } from "vitest";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

describe("the apiary list", () => {
  it("lists each apiary with its address and the number of hives there", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow", address: "Mill lane 3" });
    await seed.apiary(client, { name: "Forest edge" });
    await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    await seed.hive(client, { apiaryId: home.id, name: "Hive 2" });
    const app = await renderAt("/apiaries", { client });
    expect(await app.findByRole("link", { name: "Home meadow Mill lane 3 2 hives" })).toBeTruthy();
    expect(app.getByRole("link", { name: "Forest edge 0 hives" })).toBeTruthy();
    await app.user.click(app.getByRole("link", { name: /^Home meadow/ }));
    expect(app.location()).toBe(`/apiaries/${home.id}`);
  });

  it("says there is none yet on an empty device", async () => {
    const app = await renderAt("/apiaries");
    expect(await app.findByText(/^No apiaries yet/)).toBeTruthy();
    await app.user.click(app.getByRole("link", { name: "New apiary" }));
    expect(app.location()).toBe("/apiaries/new");
  });
});

/** The apiary form: its refusal of a blank name, and what it writes to the replica. */
import { describe, expect, it } from "vitest";
import { renderAt } from "../../testing/render-screen.tsx";

describe("the apiary form", () => {
  it("refuses a blank name and writes nothing", async () => {
    const app = await renderAt("/apiaries/new");
    // Blank, not empty: an empty required field is the browser's own to refuse.
    await app.user.type(await app.findByRole("textbox", { name: "Name" }), "   ");
    await app.user.click(app.getByRole("button", { name: "Save" }));
    expect(app.getByRole("alert").textContent).toBe("Give the apiary a name.");
    expect((await app.client.apiaries.listApiaries({})).apiaries).toEqual([]);
  });

  it("writes a new apiary to the replica and opens its page", async () => {
    const app = await renderAt("/apiaries/new");
    await app.user.type(await app.findByRole("textbox", { name: "Name" }), "Home meadow");
    await app.user.type(app.getByRole("textbox", { name: "Address" }), "Mill lane 3");
    await app.user.click(app.getByRole("button", { name: "Save" }));
    await app.findByRole("heading", { level: 1, name: "Home meadow" });
    const [apiary, ...others] = (await app.client.apiaries.listApiaries({})).apiaries;
    expect(others).toEqual([]);
    expect(apiary).toMatchObject({ name: "Home meadow", address: "Mill lane 3" });
    expect(app.location()).toBe(`/apiaries/${apiary?.id}`);
  });
});

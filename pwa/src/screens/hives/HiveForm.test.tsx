/**
 * The hive form: what it refuses (and says so, writing nothing), what it writes to the replica
 * (read back through the client's services), and the apiary it starts from.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { EventType, HiveStatus, HiveType } from "@hivekeep/proto";
import { fireEvent } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function apiaries(...names: string[]) {
  const client = await openTestClient();
  const made = [];
  for (const name of names) made.push(await seed.apiary(client, { name }));
  return { client, apiaries: made };
}

describe("the hive form", () => {
  it("refuses an empty name, says why, and writes nothing", async () => {
    const { client } = await apiaries("Home meadow");
    const app = await renderAt("/hives/new", { client });
    const name = await app.findByRole("textbox", { name: "Name" });
    await app.user.type(name, "   ");
    await app.user.click(app.getByRole("button", { name: "Save" }));

    expect(app.getByRole("alert").textContent).toBe("Give the hive a name.");
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(name);
    expect(app.location()).toBe("/hives/new");
    expect((await client.hives.listHives({})).hives).toEqual([]);
  });

  it("asks for the apiary when there is more than one to choose from", async () => {
    const { client } = await apiaries("Home meadow", "Forest edge");
    const app = await renderAt("/hives/new", { client });
    await app.user.type(await app.findByRole("textbox", { name: "Name" }), "Hive 9");
    await app.user.click(app.getByRole("button", { name: "Save" }));
    expect(app.getByRole("alert").textContent).toBe("Choose the apiary where the hive stands.");
    expect((await client.hives.listHives({})).hives).toEqual([]);
  });

  it("writes a new hive to the replica and opens its page", async () => {
    const { client, apiaries: made } = await apiaries("Home meadow", "Forest edge");
    const [, forest] = made;
    const app = await renderAt("/hives/new", { client });
    await app.user.selectOptions(
      await app.findByRole("combobox", { name: "Apiary" }),
      "Forest edge",
    );
    await app.user.type(app.getByRole("textbox", { name: "Name" }), "  Hive 9 ");
    await app.user.selectOptions(app.getByRole("combobox", { name: "Hive type" }), "Dadant");
    await app.user.type(app.getByRole("textbox", { name: "QR code" }), "HK-0009");
    await app.user.click(app.getByRole("button", { name: "Save" }));

    await app.findByRole("heading", { level: 1, name: "Hive 9" });
    const [hive, ...others] = (await client.hives.listHives({})).hives;
    expect(others).toEqual([]);
    expect(hive).toMatchObject({
      name: "Hive 9",
      apiaryId: forest?.id,
      type: HiveType.DADANT,
      status: HiveStatus.ACTIVE,
      qrCode: "HK-0009",
    });
    expect(app.location()).toBe(`/hives/${hive?.id}`);
  });

  it("set-up date (issue 25): today by default, no day after today offered, and a hive set up in March has its history from March", async () => {
    const { client } = await apiaries("Home meadow");
    const app = await renderAt("/hives/new", { client });
    const setUp = (await app.findByLabelText(/^Set up on/)) as HTMLInputElement;
    expect(setUp.type).toBe("date");
    expect(setUp.value).toBe("2026-06-15"); // testNow
    expect(setUp.max).toBe("2026-06-15");
    await app.user.type(app.getByRole("textbox", { name: "Name" }), "Hive 3");
    fireEvent.change(setUp, { target: { value: "2026-03-15" } });
    await app.user.click(app.getByRole("button", { name: "Save" }));

    await app.findByRole("heading", { level: 1, name: "Hive 3" });
    const [hive] = (await client.hives.listHives({})).hives;
    const { events } = await client.events.listEvents({ hiveId: hive?.id ?? "" });
    expect(events.map((e) => [e.type, e.date && timestampDate(e.date)])).toEqual([
      [EventType.CREATED, new Date(2026, 2, 15)],
    ]);
  });

  it("refuses a set-up date in the future, says why, and writes nothing; tomorrow is still today somewhere", async () => {
    const { client } = await apiaries("Home meadow");
    const app = await renderAt("/hives/new", { client });
    const setUp = (await app.findByLabelText(/^Set up on/)) as HTMLInputElement;
    await app.user.type(app.getByRole("textbox", { name: "Name" }), "Hive 4");
    fireEvent.change(setUp, { target: { value: "2026-06-17" } });
    await app.user.click(app.getByRole("button", { name: "Save" }));

    expect(app.getByRole("alert").textContent).toBe(
      "This date is in the future. Enter when it happened: today at the latest.",
    );
    expect(setUp.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(setUp);
    expect((await client.hives.listHives({})).hives).toEqual([]);
    // The next day (its midnight, within the core's day of tolerance) passes, as on the server.
    fireEvent.change(setUp, { target: { value: "2026-06-16" } });
    await app.user.click(app.getByRole("button", { name: "Save" }));
    await app.findByRole("heading", { level: 1, name: "Hive 4" });
  });

  it("has no set-up date when editing: the history of a hive changes by moving it", async () => {
    const { client, apiaries: made } = await apiaries("Home meadow");
    const hive = await seed.hive(client, { apiaryId: made[0]?.id ?? "", name: "Hive 1" });
    const app = await renderAt(`/hives/${hive.id}/edit`, { client });
    await app.findByText("Stands at Home meadow.");
    expect(app.queryByLabelText(/^Set up on/)).toBeNull();
  });

  it("starts at the apiary the link names", async () => {
    const { client, apiaries: made } = await apiaries("Home meadow", "Forest edge");
    const [, forest] = made;
    const app = await renderAt(`/hives/new?apiary=${forest?.id}`, { client });
    const apiary = (await app.findByRole("combobox", { name: "Apiary" })) as HTMLSelectElement;
    expect(apiary.selectedOptions[0]?.textContent).toBe("Forest edge");
  });

  it("edits a hive: the replica takes the new name and status", async () => {
    const { client, apiaries: made } = await apiaries("Home meadow");
    const hive = await seed.hive(client, { apiaryId: made[0]?.id ?? "", name: "Hive 1" });
    const app = await renderAt(`/hives/${hive.id}/edit`, { client });
    expect(await app.findByText("Stands at Home meadow.")).toBeTruthy();
    const name = app.getByRole("textbox", { name: "Name" });
    await app.user.clear(name);
    await app.user.type(name, "Hive 1a");
    await app.user.selectOptions(app.getByRole("combobox", { name: "Status" }), "Queenless");
    await app.user.click(app.getByRole("button", { name: "Save" }));

    await app.findByRole("heading", { level: 1, name: "Hive 1a" });
    expect((await client.hives.getHive({ id: hive.id })).hive).toMatchObject({
      name: "Hive 1a",
      status: HiveStatus.QUEENLESS,
    });
  });

  it("leads to a new apiary when there is none", async () => {
    const app = await renderAt("/hives/new");
    expect(await app.findByText("A hive stands at an apiary, and there is none yet.")).toBeTruthy();
    await app.user.click(app.getByRole("link", { name: "Create an apiary" }));
    expect(app.location()).toBe("/apiaries/new");
  });
});

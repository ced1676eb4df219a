/**
 * The harvest form's reads: the hive and its treatments, one whose withdrawal period runs at the
 * harvest's date warning, and Not found for a hive that is not on the device.
 */
import { fireEvent } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

describe("the harvest form", () => {
  it("warns of a withdrawal period running now, and of none that has ended", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    await seed.treatment(client, {
      hiveId: hive.id,
      product: "Formic acid",
      date: at(daysAgo(60)),
      withdrawalUntil: at(daysAgo(30)),
    });
    await seed.treatment(client, {
      hiveId: hive.id,
      product: "Oxalic acid",
      date: at(daysAgo(3)),
      withdrawalUntil: at(daysAgo(-10)),
    });
    const app = await renderAt(`/hives/${hive.id}/harvest`, { client });
    await app.findByRole("heading", { level: 1, name: "New harvest" });
    expect(app.getByRole("status").textContent).toMatch(
      /^Withdrawal period: Oxalic acid until Jun 25, 2026\./,
    );
    expect(app.queryByText(/Formic acid/)).toBeNull();
  });

  it("refuses a harvest dated in the future (the picker stops at today) and records nothing", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const app = await renderAt(`/hives/${hive.id}/harvest`, { client });
    await app.findByRole("heading", { level: 1, name: "New harvest" });
    await app.user.type(app.getByLabelText(/^Amount/), "12,5");
    const date = app.getByLabelText(/^Date/);
    expect(date.getAttribute("max")).toBe("2026-06-15T23:59");
    // Tomorrow is within the day of tolerance (clocks, time zones); the day after is not.
    fireEvent.change(date, { target: { value: "2026-06-16T10:00" } });
    expect(app.queryByText(/^This date is in the future\./)).toBeNull();
    fireEvent.change(date, { target: { value: "2026-06-17T10:00" } });
    expect(app.getByText(/^This date is in the future\./)).toBeTruthy();
    await app.user.click(app.getByRole("button", { name: "Save harvest" }));
    expect(app.location()).toBe(`/hives/${hive.id}/harvest`);
    const { harvests } = await client.harvests.listHarvests({ hiveId: hive.id });
    expect(harvests).toEqual([]);
  });

  it("says Not found for a hive that is not on this device", async () => {
    const app = await renderAt("/hives/0190a000-0000-7000-8000-000000000000/harvest");
    await app.findByRole("heading", { level: 1, name: "Not found" });
  });

  it("saves honey taken inside a withdrawal period only when confirmed, and marks it (issue 26)", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    await seed.treatment(client, {
      hiveId: hive.id,
      product: "Oxalic acid",
      date: at(daysAgo(3)),
      withdrawalUntil: at(daysAgo(-10)),
    });
    const app = await renderAt(`/hives/${hive.id}/harvest`, { client });
    await app.findByRole("heading", { level: 1, name: "New harvest" });
    await app.user.type(app.getByLabelText(/^Amount/), "7");
    await app.user.click(app.getByRole("button", { name: "Save harvest" }));
    expect((await app.findByRole("alert")).textContent).toMatch(/^Confirm that this honey/);
    expect((await client.harvests.listHarvests({ hiveId: hive.id })).harvests).toEqual([]);
    await app.user.click(app.getByLabelText(/^I record this honey as taken during/));
    await app.user.click(app.getByRole("button", { name: "Save harvest" }));
    await app.findByRole("heading", { level: 1, name: "Hive 1" });
    expect((await client.harvests.listHarvests({ hiveId: hive.id })).harvests).toHaveLength(1);
    expect((await app.findByTestId("harvest-in-withdrawal")).textContent).toMatch(/Oxalic acid$/);
  });
});

/**
 * The inspection form's reads: the hive it is for and the colony state it carries over from the
 * last inspection, and what it says for a hive that is not on the device or when storage fails.
 */
import { Stores } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function hiveAtHome() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  return { client, hive };
}

describe("the inspection form", () => {
  it("starts from the colony state of the last inspection, dated now", async () => {
    const { client, hive } = await hiveAtHome();
    await seed.inspection(client, {
      hiveId: hive.id,
      date: at(daysAgo(4)),
      broodFrames: 6,
      stores: Stores.GOOD,
    });
    const app = await renderAt(`/hives/${hive.id}/inspect`, { client });
    await app.findByRole("heading", { level: 1, name: "Inspect Hive 1" });
    expect(
      app.getByText(/^Colony state filled in from the inspection of Jun 11, 2026/),
    ).toBeTruthy();
    // The test's now: 15 June 2026, 12:00.
    expect(app.getByLabelText(/^Date/)).toHaveProperty("value", "2026-06-15T12:00");
  });

  it("says so for the first inspection of a hive", async () => {
    const { client, hive } = await hiveAtHome();
    const app = await renderAt(`/hives/${hive.id}/inspect`, { client });
    await app.findByText("First inspection of this hive.");
  });

  it("says Not found for a hive that is not on this device", async () => {
    const app = await renderAt("/hives/0190a000-0000-7000-8000-000000000000/inspect");
    await app.findByRole("heading", { level: 1, name: "Not found" });
    expect(app.getByText(/does not exist on this device/)).toBeTruthy();
    expect(app.queryByRole("button", { name: "Save inspection" })).toBeNull();
  });

  it("says Could not read, never Not found, when the device's storage fails", async () => {
    const { client, hive } = await hiveAtHome();
    client.db.close();
    const app = await renderAt(`/hives/${hive.id}/inspect`, { client });
    await app.findByRole("heading", { level: 1, name: "Could not read" });
    expect(app.queryByRole("heading", { name: "Not found" })).toBeNull();
  });
});

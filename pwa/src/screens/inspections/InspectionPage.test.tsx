/**
 * One inspection as a beekeeper reads it: what was recorded and nothing that was not, the hive,
 * apiary and queen of that date, its photos (one removed from the replica), and what it says when
 * the hive is gone or the inspection is not on the device.
 */
import { MarkingColor, Stores } from "@hivekeep/proto";
import { within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection, terms } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

/** A 1×1 PNG as the app stores photos (a data URL). */
const photo =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

async function hiveAtHome() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  return { client, home, hive };
}

describe("the inspection page", () => {
  it("shows what a visit recorded, with its hive, apiary and queen, and only that", async () => {
    const { client, hive } = await hiveAtHome();
    await seed.queen(client, {
      hiveId: hive.id,
      year: 2025,
      marking: MarkingColor.BLUE,
      origin: "Own rearing",
      introducedAt: at(daysAgo(60)),
    });
    const visit = await seed.inspection(client, {
      hiveId: hive.id,
      date: at(daysAgo(4)),
      queenSeen: true,
      broodFrames: 6,
      stores: Stores.GOOD,
      weightKg: 43.2,
      note: "Calm and strong",
    });
    const app = await renderAt(`/inspections/${visit.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "Inspection of Hive 1" });
    expect(app.getByText(/^Jun 11, 2026, 10:00/)).toBeTruthy();
    // Written down four days after the visit: the page says when.
    expect(app.getByText(/^Entered Jun 15, 2026, 12:00/)).toBeTruthy();
    expect(app.getByRole("link", { name: "Hive 1" })).toBeTruthy();
    expect(app.getByRole("link", { name: "Home meadow" })).toBeTruthy();
    expect(app.getByText("2025 queen · Blue · Own rearing")).toBeTruthy();

    expect(terms(await findSection("Colony"))).toEqual({
      "Queen seen": "Yes",
      "Eggs seen": "No",
      "Capped brood": "No",
      "Super added": "No",
      "Brood frames": "6",
      Stores: "Good",
    });
    expect(terms(await findSection("Measurements"))).toEqual({ Weight: "43.2\u00a0kg" });
    expect(within(await findSection("Note")).getByText("Calm and strong")).toBeTruthy();
    expect(app.queryByText("Nothing else was recorded.")).toBeNull();
  });

  it("shows a scale's reading without a colony section", async () => {
    const { client, hive } = await hiveAtHome();
    const reading = await seed.inspection(client, {
      hiveId: hive.id,
      date: at(daysAgo(0, 12)),
      weightKg: 41,
      tempHive: 34.5,
    });
    const app = await renderAt(`/inspections/${reading.id}`, { client });
    const measurements = await findSection("Measurements");
    expect(Object.keys(terms(measurements))).toEqual(["Weight", "Hive temperature"]);
    expect(app.queryByRole("heading", { name: "Colony" })).toBeNull();
    expect(app.getByText("No queen recorded at that time")).toBeTruthy();
  });

  it("says when nothing else was recorded", async () => {
    const { client, hive } = await hiveAtHome();
    const visit = await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(1)) });
    const app = await renderAt(`/inspections/${visit.id}`, { client });
    expect(await app.findByText("Nothing else was recorded.")).toBeTruthy();
  });

  it("removes a photo from the replica after asking", async () => {
    const { client, hive } = await hiveAtHome();
    const visit = await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(1)) });
    await client.inspections.addInspectionPhoto({ inspectionId: visit.id, photo });
    const app = await renderAt(`/inspections/${visit.id}`, { client });
    const photos = within(await findSection("Photos"));
    expect(photos.getByRole("button", { name: "View photo 1 large" })).toBeTruthy();
    await app.user.click(photos.getByRole("button", { name: "Remove photo" }));
    expect(photos.getByRole("alert").textContent).toBe(
      "Remove this photo: it leaves the inspection.",
    );
    await app.user.click(photos.getByRole("button", { name: "Remove photo" }));
    expect(await photos.findByText("No photos.")).toBeTruthy();
    expect(
      (await client.inspections.getInspection({ id: visit.id })).inspection?.photoKeys,
    ).toEqual([]);
  });

  it("still shows the inspection of a deleted hive", async () => {
    const { client, hive } = await hiveAtHome();
    const visit = await seed.inspection(client, {
      hiveId: hive.id,
      date: at(daysAgo(1)),
      queenSeen: true,
    });
    await client.hives.deleteHive({ id: hive.id });
    const app = await renderAt(`/inspections/${visit.id}`, { client });
    // The hive is named as the replica last held it, and its page says it was deleted.
    const link = await app.findByRole("link", { name: hive.name });
    expect(link.getAttribute("href")).toBe(`/hives/${hive.id}`);
  });

  it("shows an inspection deleted meanwhile as it was and says so, with nothing to write (issue 25)", async () => {
    const { client, hive } = await hiveAtHome();
    const visit = await seed.inspection(client, {
      hiveId: hive.id,
      date: at(daysAgo(1)),
      note: "Calm colony",
    });
    await client.inspections.deleteInspection({ id: visit.id });
    const app = await renderAt(`/inspections/${visit.id}`, { client });
    await app.findByText(/This inspection was deleted/);
    expect(app.getByText("Calm colony")).toBeTruthy();
    expect(app.queryByRole("link", { name: "Edit" })).toBeNull();
  });

  it("says Not found for an inspection that is not on this device", async () => {
    const app = await renderAt("/inspections/0190a000-0000-7000-8000-000000000000");
    expect(await app.findByRole("heading", { level: 1, name: "Not found" })).toBeTruthy();
  });
});

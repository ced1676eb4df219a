/**
 * The queen form's reads: the hive a new queen is for and the queen she replaces, the queen an
 * edit changes, and what it says when that record is not on the device or storage fails.
 */

import { MarkingColor } from "@hivekeep/proto";
import { within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

const missing = "0190a000-0000-7000-8000-000000000000";

async function hiveAtHome() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  return { client, hive };
}

describe("the queen form", () => {
  it("for a new queen, names the hive and the reigning queen she replaces", async () => {
    const { client, hive } = await hiveAtHome();
    await seed.queen(client, {
      hiveId: hive.id,
      year: 2024,
      marking: MarkingColor.RED,
      introducedAt: at(daysAgo(400)),
    });
    const app = await renderAt(`/hives/${hive.id}/queen`, { client });
    await app.findByRole("heading", { level: 1, name: "Replace queen" });
    await app.findByText("Hive 1 · Home meadow");
    expect(app.getByText(/^Queen 2024 \(Red\) reigns in this hive now\./)).toBeTruthy();
    // A new queen's year and introduction start from the test's now (15 June 2026, 12:00).
    expect(app.getByLabelText(/^Year/)).toHaveProperty("value", "2026");
    expect(app.getByLabelText(/Introduced/)).toHaveProperty("value", "2026-06-15T12:00");
  });

  it("edits the queen a link names, saying she reigns", async () => {
    const { client, hive } = await hiveAtHome();
    const queen = await seed.queen(client, {
      hiveId: hive.id,
      year: 2025,
      marking: MarkingColor.BLUE,
      introducedAt: at(daysAgo(60)),
    });
    const app = await renderAt(`/queens/${queen.id}/edit`, { client });
    await app.findByRole("heading", { level: 1, name: "Edit queen" });
    expect(app.getByText("Reigning queen of this hive.")).toBeTruthy();
    await app.findByText("Hive 1 · Home meadow");
    expect(app.getByLabelText(/^Year/)).toHaveProperty("value", "2025");
  });

  it("says Not found for the edit of a queen that is not on this device", async () => {
    const app = await renderAt(`/queens/${missing}/edit`);
    await app.findByRole("heading", { level: 1, name: "Not found" });
    expect(app.getByText(/does not exist on this device/)).toBeTruthy();
    expect(app.getByRole("link", { name: "Back" }).getAttribute("href")).toBe("/hives");
  });

  it("says Not found for a new queen of a hive that is not on this device", async () => {
    const app = await renderAt(`/hives/${missing}/queen`);
    await app.findByRole("heading", { level: 1, name: "Not found" });
  });

  it("says Could not read, never Not found, when the device's storage fails", async () => {
    const { client, hive } = await hiveAtHome();
    const queen = await seed.queen(client, {
      hiveId: hive.id,
      year: 2025,
      marking: MarkingColor.BLUE,
    });
    client.db.close();
    const app = await renderAt(`/queens/${queen.id}/edit`, { client });
    await app.findByRole("heading", { level: 1, name: "Could not read" });
    expect(app.queryByRole("heading", { name: "Not found" })).toBeNull();
  });
});

describe("correcting a queen (issue 25)", () => {
  async function twoQueens() {
    const { client, hive } = await hiveAtHome();
    const before = await seed.queen(client, {
      hiveId: hive.id,
      year: 2024,
      marking: MarkingColor.RED,
      introducedAt: at(daysAgo(400)),
    });
    const queen = await seed.queen(client, {
      hiveId: hive.id,
      year: 2025,
      marking: MarkingColor.BLUE,
      introducedAt: at(daysAgo(60)),
    });
    return { client, hive, before, queen };
  }

  it("edits her and shows the change on the hive page", async () => {
    const { client, hive, queen } = await twoQueens();
    const app = await renderAt(`/queens/${queen.id}/edit`, { client });
    await app.findByRole("heading", { level: 1, name: "Edit queen" });
    await app.user.type(app.getByLabelText(/^Origin/), "Own breeding");
    await app.user.click(app.getByRole("button", { name: "Save queen" }));
    await app.findByRole("heading", { level: 1, name: "Hive 1" });
    expect(app.location()).toBe(`/hives/${hive.id}`);
    expect(await app.findByText(/Own breeding/)).toBeTruthy();
    expect((await client.queens.getQueen({ id: queen.id })).queen?.origin).toBe("Own breeding");
  });

  it("refuses a queen of next year", async () => {
    const { client, queen } = await twoQueens();
    const app = await renderAt(`/queens/${queen.id}/edit`, { client });
    const year = await app.findByLabelText(/^Year/);
    await app.user.clear(year);
    await app.user.type(year, "2027");
    await app.user.click(app.getByRole("button", { name: "Save queen" }));
    expect(await app.findByText("Enter a year from 1980 to 2026, e.g. 2026.")).toBeTruthy();
    expect(app.location()).toBe(`/queens/${queen.id}/edit`);
    expect((await client.queens.getQueen({ id: queen.id })).queen?.year).toBe(2025);
  });

  it("deletes the reigning queen after saying the queen before her reigns again", async () => {
    const { client, hive, queen } = await twoQueens();
    const app = await renderAt(`/queens/${queen.id}/edit`, { client });
    await app.user.click(await app.findByRole("button", { name: "Delete queen" }));
    expect(app.getByRole("alert").textContent).toBe(
      "Delete queen 2025 (Blue): the queen before her, 2024 (Red), reigns again.",
    );
    await app.user.click(app.getByRole("button", { name: "Delete queen" }));

    const stock = within(await findSection("Stock card"));
    expect(app.location()).toBe(`/hives/${hive.id}`);
    expect(await stock.findByText("Queen 2024 · Red")).toBeTruthy();
    expect(stock.queryByText("Queen 2025 · Blue")).toBeNull();
    await expect(client.queens.getQueen({ id: queen.id })).rejects.toThrow();
  });

  it("says the hive is left without a queen when she replaced none", async () => {
    const { client, hive } = await hiveAtHome();
    const queen = await seed.queen(client, {
      hiveId: hive.id,
      year: 2025,
      marking: MarkingColor.BLUE,
    });
    const app = await renderAt(`/queens/${queen.id}/edit`, { client });
    await app.user.click(await app.findByRole("button", { name: "Delete queen" }));
    expect(app.getByRole("alert").textContent).toBe(
      "Delete queen 2025 (Blue): no queen reigns in this hive then until you add one.",
    );
  });
});

/**
 * Correcting and removing an inspection (issue 25): Edit on its page opens the form in edit
 * mode with what it recorded, Save changes writes the correction to the device; a future date is
 * refused; Delete asks with the action's name and its consequence, then the inspection is gone
 * from the hive page.
 */
import { fireEvent, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function inspected() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  const inspection = await seed.inspection(client, {
    hiveId: hive.id,
    date: at(daysAgo(3)),
    frames: 7,
    note: "Quen seen on frame 4",
    queenSeen: true,
  });
  return { client, hive, inspection };
}

describe("editing an inspection", () => {
  it("opens the form with what it recorded and saves the correction", async () => {
    const { client, inspection } = await inspected();
    const app = await renderAt(`/inspections/${inspection.id}`, { client });
    await app.user.click(await app.findByRole("link", { name: "Edit inspection" }));
    expect(app.location()).toBe(`/inspections/${inspection.id}/edit`);
    await app.findByRole("heading", { level: 1, name: "Edit inspection of Hive 1" });
    expect(app.getByLabelText(/^Date/)).toHaveProperty("value", "2026-06-12T10:00");
    expect(app.getByRole("switch", { name: "Queen seen" }).getAttribute("aria-checked")).toBe(
      "true",
    );

    const note = app.getByLabelText("Note");
    await app.user.clear(note);
    await app.user.type(note, "Queen seen on frame 4");
    await app.user.click(app.getByRole("button", { name: "Save changes" }));

    await app.findByRole("heading", { level: 1, name: "Inspection of Hive 1" });
    expect(app.location()).toBe(`/inspections/${inspection.id}`);
    expect(app.getByText("Queen seen on frame 4")).toBeTruthy();
    const saved = (await client.inspections.getInspection({ id: inspection.id })).inspection;
    expect(saved?.note).toBe("Queen seen on frame 4");
    expect(saved?.frames).toBe(7);
    expect(saved?.queenSeen).toBe(true);
  });

  it("refuses a date in the future, saying so, and saves nothing", async () => {
    const { client, inspection } = await inspected();
    const app = await renderAt(`/inspections/${inspection.id}/edit`, { client });
    const date = await app.findByLabelText(/^Date/);
    // The picker stops at today (the test's now: 15 June 2026).
    expect(date.getAttribute("max")).toBe("2026-06-15T23:59");
    fireEvent.change(date, { target: { value: "2026-06-20T10:00" } });
    expect(
      app.getByText("This date is in the future. Enter when it happened: today or earlier."),
    ).toBeTruthy();
    await app.user.click(app.getByRole("button", { name: "Save changes" }));
    expect(app.location()).toBe(`/inspections/${inspection.id}/edit`);
    const saved = (await client.inspections.getInspection({ id: inspection.id })).inspection;
    expect(saved?.date).toEqual(inspection.date);
  });

  it("deletes it after a confirmation that names the consequence, and it leaves the hive page", async () => {
    const { client, hive, inspection } = await inspected();
    const app = await renderAt(`/inspections/${inspection.id}`, { client });
    await app.user.click(await app.findByRole("button", { name: "Delete inspection" }));
    expect(app.getByRole("alert").textContent).toBe(
      "Delete this inspection of Jun 12, 2026: it leaves the stock card, the timeline and the hive's figures.",
    );
    expect(app.queryByRole("button", { name: "Yes" })).toBeNull();
    await app.user.click(app.getByRole("button", { name: "Keep" }));
    expect(app.location()).toBe(`/inspections/${inspection.id}`);

    await app.user.click(app.getByRole("button", { name: "Delete inspection" }));
    await app.user.click(app.getByRole("button", { name: "Delete inspection" }));

    const inspections = within(await findSection("Inspections"));
    expect(app.location()).toBe(`/hives/${hive.id}`);
    expect(await inspections.findByText("No inspections yet.")).toBeTruthy();
    await expect(client.inspections.getInspection({ id: inspection.id })).rejects.toThrow();
  });
});

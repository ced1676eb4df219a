/**
 * The hive page as a beekeeper reads it: the stock card (last visit, reigning queen, running
 * withdrawal, open tasks), its sections with "Show all" past ten rows, ticking a task and
 * deleting the hive (both written to the replica), and a deep link to a hive not on the device.
 */
import { HiveStatus, MarkingColor } from "@hivekeep/proto";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection, terms } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function hiveAtHome() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 7", boxes: 2 });
  return { client, home, hive };
}

describe("the hive page", () => {
  it("shows a scale's readings as measurements, never as visits, and a possible swarm", async () => {
    const { client, hive } = await hiveAtHome();
    await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(30)), queenSeen: true });
    const start = daysAgo(1).getTime();
    const kgs = [42, 42.1, 42.1, 39.8, 39.7, 39.7];
    for (const [k, weightKg] of kgs.entries()) {
      const date = at(new Date(start + k * 15 * 60_000));
      await seed.inspection(client, { hiveId: hive.id, date, weightKg, tempHive: 34 });
    }

    const app = await renderAt(`/hives/${hive.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "Hive 7" });
    const visits = within(await findSection("Inspections"));
    expect(visits.getAllByRole("listitem")).toHaveLength(1);
    expect(visits.queryByText(/Readings only/)).toBeNull();
    expect(within(await findSection("Timeline")).queryByText(/Readings only/)).toBeNull();
    const alert = await app.findByText("Possible swarm");
    expect(alert.closest("p")?.textContent).toMatch(
      /42\.1\u00a0kg to 39\.8\u00a0kg within an hour/,
    );
    const latest = await findSection("Latest readings");
    expect(terms(latest)).toMatchObject({ Weight: "39.7\u00a0kg", "In the hive": "34°C" });
    expect(within(latest).getByText("6 readings since Jun 14, 2026")).toBeTruthy();
  });

  it("shows the stock card: the last colony check, the latest reading, the reigning queen, a running withdrawal and the open tasks", async () => {
    const { client, home, hive } = await hiveAtHome();
    const check = await seed.inspection(client, {
      hiveId: hive.id,
      date: at(daysAgo(4)),
      queenSeen: true,
      eggsSeen: false,
      broodFrames: 6,
      note: "Calm and strong",
      tempHive: 34.5,
    });
    // A scale's reading after the visit: it does not hide what the visit found.
    await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(1)), weightKg: 43.2 });
    await seed.queen(client, {
      hiveId: hive.id,
      year: 2024,
      marking: MarkingColor.GREEN,
      introducedAt: at(daysAgo(400)),
    });
    await seed.queen(client, {
      hiveId: hive.id,
      year: 2025,
      marking: MarkingColor.BLUE,
      origin: "Own rearing",
      introducedAt: at(daysAgo(60)),
    });
    await seed.treatment(client, {
      hiveId: hive.id,
      product: "Oxalic acid",
      date: at(daysAgo(3)),
      withdrawalUntil: at(daysAgo(-10)),
    });
    await seed.treatment(client, {
      hiveId: hive.id,
      product: "Formic acid",
      date: at(daysAgo(60)),
      withdrawalUntil: at(daysAgo(30)),
    });
    await seed.task(client, { title: "Add a super", hiveId: hive.id, dueAt: at(daysAgo(2)) });
    const fed = await seed.task(client, { title: "Feed", hiveId: hive.id });
    await client.tasks.setTaskDone({ id: fed.id, done: true });
    await seed.task(client, { title: "Mow the grass", apiaryId: home.id });

    const app = await renderAt(`/hives/${hive.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "Hive 7" });
    expect(app.getByText("2 boxes")).toBeTruthy();

    const stock = await findSection("Stock card");
    const card = within(stock);
    const last = card.getByRole("heading", { name: /^Last inspection/ });
    expect(last.textContent).toBe("Last inspection: Jun 11, 2026 (4 days ago)");
    expect(terms(stock)).toMatchObject({ "Queen seen": "Yes", Eggs: "No", "Brood frames": "6" });
    expect(card.getByText("Calm and strong")).toBeTruthy();
    expect(card.getByText(/In the hive 34\.5/)).toBeTruthy();
    // The scale's reading is a measurement: shown with the readings, not on the stock card.
    expect(card.queryByText(/43\.2/)).toBeNull();
    const latest = await findSection("Latest readings");
    expect(terms(latest)).toMatchObject({ Weight: "43.2\u00a0kg" });
    expect(within(latest).getByText("Scale last contact: 26 hours ago")).toBeTruthy();
    expect(card.getByText("Queen 2025 · Blue")).toBeTruthy();
    expect(card.getByText("Origin: Own rearing")).toBeTruthy();
    expect(card.queryByText("Queen 2024 · Green")).toBeNull();
    expect(card.getByRole("checkbox", { name: "Done: Add a super" })).toHaveProperty(
      "checked",
      false,
    );
    expect(card.getByText("Overdue")).toBeTruthy();
    expect(card.queryByRole("checkbox", { name: "Done: Feed" })).toBeNull();
    expect(card.queryByRole("checkbox", { name: "Done: Mow the grass" })).toBeNull();

    expect(
      app.getByText(
        "Withdrawal period running: Oxalic acid until Jun 25, 2026. Do not harvest honey from this hive before then.",
      ),
    ).toBeTruthy();
    expect(app.queryByText(/Withdrawal period running: Formic acid/)).toBeNull();

    const placements = within(await findSection("Placement history"));
    expect(placements.getByRole("link", { name: "Home meadow" })).toBeTruthy();
    expect(placements.getByText("Current")).toBeTruthy();

    await app.user.click(within(last).getByRole("link"));
    expect(app.location()).toBe(`/inspections/${check.id}`);
  });

  it("says what is missing on a new hive", async () => {
    const { client, hive } = await hiveAtHome();
    const app = await renderAt(`/hives/${hive.id}`, { client });
    const card = within(await findSection("Stock card"));
    expect(card.getByText("Never inspected")).toBeTruthy();
    expect(card.getByText("No queen recorded")).toBeTruthy();
    expect(card.getByText("No open tasks.")).toBeTruthy();
    expect(app.getByText("No inspections yet.")).toBeTruthy();
    expect(app.getByText("No treatments recorded.")).toBeTruthy();
    expect(app.getByText("No harvests recorded.")).toBeTruthy();
  });

  it("lists ten rows of a section and the rest after Show all", async () => {
    const { client, hive } = await hiveAtHome();
    for (let day = 1; day <= 12; day++) {
      await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(day)), queenSeen: true });
    }
    const app = await renderAt(`/hives/${hive.id}`, { client });
    const inspections = within(await findSection("Inspections"));
    // Newest first: 14 June back to 5 June; 4 and 3 June wait behind the button.
    expect(inspections.getByText(/^Jun 14, 2026, 10:00/)).toBeTruthy();
    expect(inspections.getByText(/^Jun 5, 2026, 10:00/)).toBeTruthy();
    expect(inspections.queryByText(/^Jun 4, 2026, 10:00/)).toBeNull();
    expect(inspections.queryByText(/^Jun 3, 2026, 10:00/)).toBeNull();

    await app.user.click(inspections.getByRole("button", { name: "Show all (12)" }));
    expect(inspections.getByText(/^Jun 4, 2026, 10:00/)).toBeTruthy();
    expect(inspections.getByText(/^Jun 3, 2026, 10:00/)).toBeTruthy();
  });

  it("sums the harvests and deletes one after asking", async () => {
    const { client, hive } = await hiveAtHome();
    await seed.harvest(client, {
      hiveId: hive.id,
      amountKg: 12.5,
      date: at(daysAgo(20)),
      variety: "Spring honey",
    });
    const lime = await seed.harvest(client, {
      hiveId: hive.id,
      amountKg: 8,
      date: at(daysAgo(5)),
      variety: "Lime",
    });
    const app = await renderAt(`/hives/${hive.id}`, { client });
    const harvests = within(await findSection("Harvests"));
    expect(harvests.getByText("Total 20.5 kg")).toBeTruthy();

    await app.user.click(
      harvests.getByRole("button", { name: "Delete harvest: 8\u00a0kg, Jun 10, 2026" }),
    );
    // The confirmation names the action and its consequence; its buttons name the action.
    expect(harvests.getByRole("alert").textContent).toBe(
      "Delete this harvest: 8\u00a0kg leave the honey figures.",
    );
    expect(harvests.queryByRole("button", { name: "Yes" })).toBeNull();
    await app.user.click(harvests.getByRole("button", { name: "Keep" }));
    expect(await harvests.findByText("Total 20.5 kg")).toBeTruthy();
    await app.user.click(
      harvests.getByRole("button", { name: "Delete harvest: 8\u00a0kg, Jun 10, 2026" }),
    );
    await app.user.click(harvests.getByRole("button", { name: "Delete harvest" }));
    expect(await harvests.findByText("Total 12.5 kg")).toBeTruthy();
    await expect(client.harvests.getHarvest({ id: lime.id })).rejects.toThrow();
  });

  it("ticks an open task done in the replica and keeps it listed, so a slip is undone by unticking", async () => {
    const { client, hive } = await hiveAtHome();
    const task = await seed.task(client, { title: "Add a super", hiveId: hive.id });
    const app = await renderAt(`/hives/${hive.id}`, { client });
    const box = await app.findByRole("checkbox", { name: "Done: Add a super" });

    await app.user.click(box);
    await expect
      .poll(async () => (await client.tasks.getTask({ id: task.id })).task?.done)
      .toBe(true);
    // Still listed, ticked (struck through), after the replica's answer without it.
    expect(await app.findByRole("checkbox", { name: "Done: Add a super", checked: true })).toBe(
      app.getByRole("checkbox", { name: "Done: Add a super" }),
    );

    await app.user.click(app.getByRole("checkbox", { name: "Done: Add a super" }));
    await expect
      .poll(async () => (await client.tasks.getTask({ id: task.id })).task?.done)
      .toBe(false);
    await app.findByRole("checkbox", { name: "Done: Add a super", checked: false });
  });

  it("deletes the hive after asking, and goes to the hive list", async () => {
    const { client, hive } = await hiveAtHome();
    const app = await renderAt(`/hives/${hive.id}`, { client });
    await app.user.click(await app.findByRole("button", { name: "Delete hive" }));
    expect(app.getByRole("alert").textContent).toMatch(
      /^Delete this hive: it leaves the hive list/,
    );
    await app.user.click(app.getByRole("button", { name: "Delete hive" }));
    await app.findByRole("heading", { level: 1, name: "Hives" });
    expect(app.location()).toBe("/hives");
    await expect(client.hives.getHive({ id: hive.id })).rejects.toThrow();
  });

  it("shows a deleted hive as it was, says so, and keeps its inspections reachable (issue 25)", async () => {
    const { client, hive } = await hiveAtHome();
    const visit = await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(2)) });
    await client.hives.deleteHive({ id: hive.id });
    const app = await renderAt(`/hives/${hive.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "Hive 7" });
    expect(app.getByTestId("hive-deleted-elsewhere").textContent).toMatch(/This hive was deleted/);
    const inspections = await findSection(/^Inspections/);
    const link = within(inspections).getAllByRole("link")[0];
    expect(link?.getAttribute("href")).toBe(`/inspections/${visit.id}`);
    expect(app.queryByRole("link", { name: "Inspect" })).toBeNull();
    expect(app.queryByRole("button", { name: "Delete hive" })).toBeNull();
    // It stands nowhere now: its last stay ended with it, none is "Current".
    const placements = within(await findSection("Placement history"));
    expect(placements.queryByText("Current")).toBeNull();
  });

  it("hides every write in a read-only session", async () => {
    const { client, hive } = await hiveAtHome();
    await seed.task(client, { title: "Add a super", hiveId: hive.id });
    const app = await renderAt(`/hives/${hive.id}`, { client, readOnly: true });
    const box = await app.findByRole("checkbox", { name: "Done: Add a super" });
    expect(box).toHaveProperty("disabled", true);
    expect(app.queryByRole("link", { name: "Inspect" })).toBeNull();
    expect(app.queryByRole("button", { name: "Delete hive" })).toBeNull();
  });

  it("says Not found for a deep link to a hive that is not on this device", async () => {
    const app = await renderAt("/hives/0190a000-0000-7000-8000-000000000000");
    await app.findByRole("heading", { level: 1, name: "Not found" });
    expect(screen.getByText(/does not exist on this device/)).toBeTruthy();
  });

  it("says Could not read, never Not found, when the device's storage fails", async () => {
    const { client, hive } = await hiveAtHome();
    client.db.close();
    const app = await renderAt(`/hives/${hive.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "Could not read" });
    expect(app.getByRole("alert").textContent).toMatch(/could not be read/);
    expect(app.queryByRole("heading", { name: "Not found" })).toBeNull();
  });

  it("shows a dissolved hive's status", async () => {
    const { client, hive } = await hiveAtHome();
    await client.hives.updateHive({ hive: { ...hive, status: HiveStatus.DISSOLVED } });
    const app = await renderAt(`/hives/${hive.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "Hive 7" });
    expect(app.getAllByText("Dissolved").length).toBeGreaterThan(0);
  });
});

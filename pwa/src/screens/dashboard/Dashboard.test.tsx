/**
 * The overview as a beekeeper reads it: its figures, the hives due for inspection, the next
 * tasks, the recent visits and the season's honey for a small seeded set; the first steps on an
 * empty device.
 */
import { MarkingColor } from "@hivekeep/proto";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection, terms } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

describe("the overview", () => {
  it("shows the figures and the hives due for inspection", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const forest = await seed.apiary(client, { name: "Forest edge" });
    const one = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const two = await seed.hive(client, { apiaryId: home.id, name: "Hive 2" });
    await seed.hive(client, { apiaryId: forest.id, name: "Hive 3" });
    await seed.inspection(client, {
      hiveId: one.id,
      date: at(daysAgo(3)),
      queenSeen: true,
      note: "Gentle",
    });
    await seed.inspection(client, { hiveId: two.id, date: at(daysAgo(30)), queenSeen: true });
    await seed.queen(client, {
      hiveId: one.id,
      year: 2025,
      marking: MarkingColor.BLUE,
      introducedAt: at(daysAgo(60)),
    });
    await seed.task(client, { title: "Add a super", hiveId: one.id, dueAt: at(daysAgo(2)) });
    await seed.task(client, { title: "Order jars", dueAt: at(daysAgo(-3)) });
    const done = await seed.task(client, { title: "Clean the smoker" });
    await client.tasks.setTaskDone({ id: done.id, done: true });
    await seed.harvest(client, { hiveId: one.id, amountKg: 12.5, date: at(daysAgo(10)) });

    const app = await renderAt("/", { client });
    const figures = await app.findByRole("region", { name: "Figures" });
    expect(terms(figures)).toEqual({
      Apiaries: "2",
      Hives: "3",
      "Active queens": "1",
      "Open tasks": "2",
      "Overdue tasks": "1",
      "Honey this season": "12.5\u00a0kg",
    });
    expect(app.queryByText("Get started")).toBeNull();

    const due = within(await findSection("Due for inspection"));
    expect(
      due.getByRole("link", { name: /^Hive 2 Home meadow Last visit 30 days ago/ }),
    ).toBeTruthy();
    expect(due.getByRole("link", { name: /^Hive 3 Forest edge Never inspected/ })).toBeTruthy();
    expect(due.queryByRole("link", { name: /^Hive 1/ })).toBeNull();
    await app.user.click(due.getByRole("link", { name: "Inspect Hive 3" }));
    expect(app.location()).toMatch(/^\/hives\/.+\/inspect$/);
  });

  it("counts visits only: a hive whose scale posts and nobody looked in for a month is due", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const scale = await seed.hive(client, { apiaryId: home.id, name: "Scale hive" });
    await seed.inspection(client, { hiveId: scale.id, date: at(daysAgo(30)), note: "Strong" });
    for (let d = 29; d >= 1; d--) {
      await seed.inspection(client, { hiveId: scale.id, date: at(daysAgo(d)), weightKg: 40 });
    }
    // A swarm yesterday: 2.4 kg within half an hour, the weight stays down.
    const start = daysAgo(1, 13).getTime();
    for (const [k, weightKg] of [41, 41, 38.6, 38.5].entries()) {
      const date = at(new Date(start + k * 15 * 60_000));
      await seed.inspection(client, { hiveId: scale.id, date, weightKg });
    }

    await renderAt("/", { client });
    const due = within(await findSection("Due for inspection"));
    expect(
      due.getByRole("link", { name: /^Scale hive Home meadow Last visit 30 days ago/ }),
    ).toBeTruthy();
    const recent = within(await findSection("Recent inspections"));
    expect(recent.getAllByRole("listitem")).toHaveLength(1);
    expect(recent.getByText("Strong")).toBeTruthy();
    const alerts = within(await findSection("Alerts"));
    expect(alerts.getByRole("link", { name: /^Scale hive: Possible swarm/ })).toBeTruthy();
  });

  it("lists the next tasks, overdue ones said in words, and the recent visits", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const one = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const visit = await seed.inspection(client, {
      hiveId: one.id,
      date: at(daysAgo(3)),
      queenSeen: true,
      note: "Gentle",
    });
    await seed.task(client, { title: "Add a super", hiveId: one.id, dueAt: at(daysAgo(2)) });
    await seed.task(client, { title: "Order jars", dueAt: at(daysAgo(-3)) });

    const app = await renderAt("/", { client });
    const tasks = within(await findSection("Next tasks"));
    expect(
      tasks.getByRole("link", { name: /^Add a super Overdue Due Jun 13, 2026 \(2 days ago\)/ }),
    ).toBeTruthy();
    expect(
      tasks.getByRole("link", { name: /^Order jars Due Jun 18, 2026 \(in 3 days\)/ }),
    ).toBeTruthy();

    const recent = within(await findSection("Recent inspections"));
    const row = recent.getByRole("link", { name: /^Hive 1/ });
    expect(within(row).getByText("Gentle")).toBeTruthy();
    await app.user.click(row);
    expect(app.location()).toBe(`/inspections/${visit.id}`);
  });

  it("shows the season's honey per month, per apiary and per queen", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const one = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    await seed.queen(client, {
      hiveId: one.id,
      year: 2025,
      marking: MarkingColor.BLUE,
      introducedAt: at(daysAgo(60)),
    });
    await seed.harvest(client, { hiveId: one.id, amountKg: 12.5, date: at(daysAgo(10)) });
    await seed.harvest(client, { hiveId: one.id, amountKg: 7.5, date: at(daysAgo(40)) });

    await renderAt("/", { client });
    const honey = within(await findSection("Honey"));
    expect(honey.getByText(/20 kg; most in June 2026 \(12\.5 kg\)/)).toBeTruthy();
    const perApiary = await honey.findByRole("table", { name: "Per apiary in 2026" });
    expect(within(perApiary).getByRole("row", { name: "Home meadow 20\u00a0kg" })).toBeTruthy();
    const perQueen = honey.getByRole("table", { name: "Best queens in 2026" });
    expect(
      within(perQueen).getByRole("row", { name: "2025 queen · Hive 1 20\u00a0kg" }),
    ).toBeTruthy();
  });

  it("shows six due hives and the rest on demand", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    for (let n = 1; n <= 8; n++) await seed.hive(client, { apiaryId: home.id, name: `Hive ${n}` });
    const app = await renderAt("/", { client });
    const due = within(await findSection("Due for inspection"));
    expect(due.getAllByRole("link", { name: /^Inspect / })).toHaveLength(6);
    const more = due.getByRole("button", { name: "Show all 8 hives" });
    expect(more.getAttribute("aria-expanded")).toBe("false");
    await app.user.click(more);
    expect(due.getAllByRole("link", { name: /^Inspect / })).toHaveLength(8);
    expect(due.getByRole("button", { name: "Show fewer" }).getAttribute("aria-expanded")).toBe(
      "true",
    );
  });

  it("shows the first steps on an empty device, an apiary first", async () => {
    const app = await renderAt("/");
    const start = within(await findSection("Get started"));
    expect(app.queryByRole("region", { name: "Figures" })).toBeNull();
    // A hive needs an apiary: only the first step is a link yet.
    expect(start.queryByRole("link", { name: "Add a hive" })).toBeNull();
    await app.user.click(start.getByRole("link", { name: "Add your first apiary" }));
    expect(app.location()).toBe("/apiaries/new");
  });

  it("marks the apiary step done once there is one, and leads to a hive", async () => {
    const client = await openTestClient();
    await seed.apiary(client, { name: "Home meadow" });
    const app = await renderAt("/", { client });
    const start = within(await findSection("Get started"));
    expect(start.getByText("Apiary added")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Figures" })).toBeNull();
    await app.user.click(start.getByRole("link", { name: "Add a hive" }));
    expect(app.location()).toBe("/hives/new");
  });
});

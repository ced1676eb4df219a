/**
 * The task list as a beekeeper uses it: open tasks first (by due date, overdue said in words,
 * what each is for), done ones folded below; a tick closes a task in the replica and says so
 * with an Undo, another reopens it.
 */
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function someTasks() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  const superTask = await seed.task(client, {
    title: "Add a super",
    hiveId: hive.id,
    dueAt: at(daysAgo(2)),
  });
  const mow = await seed.task(client, {
    title: "Mow the grass",
    apiaryId: home.id,
    dueAt: at(daysAgo(-3)),
  });
  const jars = await seed.task(client, { title: "Order jars" });
  const smoker = await seed.task(client, { title: "Clean the smoker" });
  await client.tasks.setTaskDone({ id: smoker.id, done: true });
  return { client, home, hive, superTask, mow, jars, smoker };
}

const done = async (client: Awaited<ReturnType<typeof someTasks>>["client"], id: string) =>
  (await client.tasks.getTask({ id })).task?.done;

describe("the task list", () => {
  it("lists the open tasks by due date, what each is for, and folds the done ones", async () => {
    const { client } = await someTasks();
    const app = await renderAt("/tasks", { client });
    const open = within(await findSection("Open (3)"));
    const boxes = open.getAllByRole("checkbox").map((b) => b.getAttribute("aria-label"));
    expect(boxes).toEqual(["Done: Add a super", "Done: Mow the grass", "Done: Order jars"]);
    expect(open.getByText("Overdue")).toBeTruthy();
    expect(open.getByText(/^Due Jun 13, 2026.*\(2 days ago\)$/)).toBeTruthy();
    expect(open.getByText(/^Due Jun 18, 2026.*\(in 3 days\)$/)).toBeTruthy();
    expect(open.getByRole("link", { name: "Hive 1" })).toBeTruthy();
    expect(open.getByText(/· Home meadow/)).toBeTruthy();
    expect(open.getByRole("link", { name: "Home meadow" })).toBeTruthy();
    expect(open.getByText("Personal")).toBeTruthy();
    expect(open.queryByRole("checkbox", { name: "Done: Clean the smoker" })).toBeNull();
    expect(app.getByText("Done (1)")).toBeTruthy();
  });

  it("closes a task in the replica with a tick, says so, and undoes it", async () => {
    const { client, superTask } = await someTasks();
    const app = await renderAt("/tasks", { client });
    await app.user.click(await app.findByRole("checkbox", { name: "Done: Add a super" }));
    expect(await app.findByText("“Add a super” is done.")).toBeTruthy();
    expect(await done(client, superTask.id)).toBe(true);
    expect(await app.findByText("Done (2)")).toBeTruthy();
    expect(await findSection("Open (2)")).toBeTruthy();

    await app.user.click(app.getByRole("button", { name: "Undo" }));
    await expect.poll(() => done(client, superTask.id)).toBe(false);
    expect(await findSection("Open (3)")).toBeTruthy();
    expect(app.queryByRole("button", { name: "Undo" })).toBeNull();
  });

  it("reopens a done task with another tick", async () => {
    const { client, smoker } = await someTasks();
    const app = await renderAt("/tasks", { client });
    await app.user.click(await app.findByText("Done (1)"));
    const box = screen.getByRole("checkbox", { name: "Done: Clean the smoker" });
    expect(box).toHaveProperty("checked", true);
    await app.user.click(box);
    expect(await app.findByText("“Clean the smoker” is open again.")).toBeTruthy();
    expect(await done(client, smoker.id)).toBe(false);
    expect(await findSection("Open (4)")).toBeTruthy();
  });

  it("shows the tasks but no way to change them in a read-only session", async () => {
    const { client } = await someTasks();
    const app = await renderAt("/tasks", { client, readOnly: true });
    const box = await app.findByRole("checkbox", { name: "Done: Add a super" });
    expect(box).toHaveProperty("disabled", true);
    expect(app.queryByRole("link", { name: "New task" })).toBeNull();
  });

  it("says there is nothing to do on an empty device", async () => {
    const app = await renderAt("/tasks");
    expect(await app.findByText(/^Nothing to do\./)).toBeTruthy();
  });
});

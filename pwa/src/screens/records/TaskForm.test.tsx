/**
 * The task form's reads: the hive or apiary a link opens it for, preselected, and Not found when
 * that link names one that is not on the device; the quick due dates count from now. Its edit
 * mode (issue 25): opened from a task's row, it saves the correction and goes back there; Delete
 * asks with the action's name and its consequence, and the task is gone from the hive page.
 */
import { TaskPriority } from "@hivekeep/proto";
import { within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

const missing = "0190a000-0000-7000-8000-000000000000";

describe("the task form", () => {
  it("opened from a hive, is for that hive; Tomorrow is the day after the test's now", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const app = await renderAt(`/tasks/new?hive=${hive.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "New task" });
    const select = app.getByRole("combobox", { name: /Hive/ }) as HTMLSelectElement;
    expect(select.selectedOptions[0]?.textContent).toBe("Hive 1 · Home meadow");
    await app.user.click(app.getByRole("button", { name: "Tomorrow" }));
    expect(app.getByLabelText(/^Due date/)).toHaveProperty("value", "2026-06-16");
  });

  it("says Not found when the link names a hive or an apiary that is not on this device", async () => {
    const hiveLink = await renderAt(`/tasks/new?hive=${missing}`);
    await hiveLink.findByRole("heading", { level: 1, name: "Not found" });
    hiveLink.unmount();
    const apiaryLink = await renderAt(`/tasks/new?apiary=${missing}`);
    await apiaryLink.findByRole("heading", { level: 1, name: "Not found" });
  });
});

describe("editing a task", () => {
  async function hiveTask() {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const task = await seed.task(client, {
      title: "Add a supper",
      hiveId: hive.id,
      dueAt: at(daysAgo(-2, 23)),
    });
    return { client, hive, task };
  }

  it("opens from the task list with what it holds, saves the correction and goes back there", async () => {
    const { client, hive, task } = await hiveTask();
    const app = await renderAt("/tasks", { client });
    await app.user.click(await app.findByRole("link", { name: "Edit task: Add a supper" }));
    expect(app.location()).toBe(`/tasks/${task.id}/edit?from=tasks`);
    await app.findByRole("heading", { level: 1, name: "Edit task" });
    expect(app.getByLabelText(/^Due date/)).toHaveProperty("value", "2026-06-17");
    // A task given no priority reads Normal, as its row shows it.
    expect(app.getByRole("radio", { name: "Normal" })).toHaveProperty("checked", true);

    const title = app.getByLabelText(/^Title/);
    await app.user.clear(title);
    await app.user.type(title, "Add a super");
    await app.user.click(app.getByRole("button", { name: "Save changes" }));

    await app.findByRole("heading", { level: 1, name: "Tasks" });
    expect(await app.findByText("Add a super")).toBeTruthy();
    const saved = (await client.tasks.getTask({ id: task.id })).task;
    expect(saved?.title).toBe("Add a super");
    expect(saved?.hiveId).toBe(hive.id);
    expect(saved?.dueAt).toEqual(task.dueAt);
    // Left as it was, the priority stays unset: the edit records only the title.
    expect(saved?.priority).toBe(TaskPriority.UNSPECIFIED);
  });

  it("deletes it from the hive page's row after a confirmation that names it, and it is gone there", async () => {
    const { client, hive, task } = await hiveTask();
    const app = await renderAt(`/hives/${hive.id}`, { client });
    await app.user.click(await app.findByRole("link", { name: "Edit task: Add a supper" }));
    await app.user.click(await app.findByRole("button", { name: "Delete task" }));
    expect(app.getByRole("alert").textContent).toBe(
      "Delete the task “Add a supper”: it leaves the task lists for good.",
    );
    await app.user.click(app.getByRole("button", { name: "Delete task" }));

    const stock = within(await findSection("Stock card"));
    expect(app.location()).toBe(`/hives/${hive.id}`);
    expect(await stock.findByText("No open tasks.")).toBeTruthy();
    await expect(client.tasks.getTask({ id: task.id })).rejects.toThrow();
  });
});

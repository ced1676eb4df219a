/**
 * TaskService against contract §2.2, §3, §4.6, §5, §7 and §8, on every
 * database over HTTP and on a device's local operations (test/support/target.ts).
 */
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { createTask } from "@hivekeep/client-core/core";
import { TaskPriority, TaskService } from "@hivekeep/proto";
import { localUserId } from "@hivekeep/server";
import { beforeAll, describe, expect, it } from "vitest";
import { seedChanges, seedContext } from "../support/command-seed.ts";
import {
  callOk,
  feedHead,
  newApiary,
  newHive,
  pullAll,
  withApiaryAndHive,
} from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

describe.each(targetKinds)("TaskService on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  let hiveId: string;
  const createTaskOk = async (body: Record<string, unknown>) =>
    (await callOk(t, "TaskService/CreateTask", body)).task;

  beforeAll(async () => {
    ({ apiaryId, hiveId } = await withApiaryAndHive(t));
  });

  it("creates an open task with every field; GetTask returns the same record", async () => {
    const task = await createTaskOk({
      title: "Varroa count",
      hiveId,
      apiaryId,
      dueAt: "2026-07-01T00:00:00Z",
      priority: "TASK_PRIORITY_HIGH",
    });
    expect(task).toMatchObject({
      title: "Varroa count",
      hiveId,
      apiaryId,
      dueAt: "2026-07-01T00:00:00Z",
      priority: "TASK_PRIORITY_HIGH",
    });
    expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(task.organizationId).toBe(t.organizationId);
    expect(task.createdAt).toMatch(/Z$/);
    // Open: done false is omitted (§2.1.4).
    expect(task).not.toHaveProperty("done");
    expect(await t.call("TaskService/GetTask", { id: task.id })).toEqual({
      status: 200,
      body: { task },
    });
  });

  it("a task with hiveId and no apiaryId inherits the hive's apiaryId and syncs in that apiary", async () => {
    const nextCursor = await feedHead(t);
    const task = await createTaskOk({ title: "Add super", hive_id: hiveId });
    expect(task.apiaryId).toBe(apiaryId);
    const { changes } = await pullAll(t, nextCursor);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ entity: "task", entityId: task.id, scopeId: apiaryId });
    expect(JSON.parse(changes[0]?.payloadJson ?? "{}")).toMatchObject({
      hive_id: hiveId,
      apiary_id: apiaryId,
      done: false,
    });
  });

  it("keeps a given apiaryId without a hive; left-out fields are defaults", async () => {
    const task = await createTaskOk({ title: "Mow the meadow", apiaryId });
    expect(task.apiaryId).toBe(apiaryId);
    for (const f of ["hiveId", "dueAt", "priority", "done"]) expect(task, f).not.toHaveProperty(f);
  });

  it("a task with neither hiveId nor apiaryId is personal: Pull shows it with scopeId user:<id>", async () => {
    const nextCursor = await feedHead(t);
    const task = await createTaskOk({ title: "Buy jars", priority: 1 });
    expect(task).not.toHaveProperty("apiaryId");
    expect(task).not.toHaveProperty("hiveId");
    expect(task.priority).toBe("TASK_PRIORITY_LOW");
    const { changes } = await pullAll(t, nextCursor);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      entity: "task",
      entityId: task.id,
      scopeId: `user:${localUserId}`,
      authorId: localUserId,
    });
    const listed = (await t.call("TaskService/ListTasks", {})).body.tasks;
    expect(listed.map((x: { id: string }) => x.id)).toContain(task.id);
  });

  it("rejects a missing or blank title with invalid_argument and writes nothing", async () => {
    const nextCursor = await feedHead(t);
    for (const body of [{}, { title: "" }, { title: "   ", hiveId }]) {
      const r = await t.call("TaskService/CreateTask", body);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: "invalid_argument", message: "title is required" });
    }
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
  });

  it("rejects an apiaryId that does not exist with invalid_argument and writes nothing", async () => {
    const nextCursor = await feedHead(t);
    const r = await t.call("TaskService/CreateTask", { title: "x", apiaryId: "no-such-apiary" });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
    expect(r.body.message).toContain("no-such-apiary");
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
  });

  it("answers not_found for an unknown hiveId and writes nothing", async () => {
    const nextCursor = await feedHead(t);
    const r = await t.call("TaskService/CreateTask", { title: "x", hiveId: "no-such-hive" });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
  });

  it("SetTaskDone true closes the task, false reopens it; both return {task} and reach the feed", async () => {
    const task = await createTaskOk({ title: "Feed syrup", apiaryId });
    const nextCursor = await feedHead(t);
    const closed = await t.call("TaskService/SetTaskDone", { id: task.id, done: true });
    expect(closed).toEqual({ status: 200, body: { task: { ...task, done: true } } });
    const reopened = await t.call("TaskService/SetTaskDone", { id: task.id, done: false });
    expect(reopened).toEqual({ status: 200, body: { task } });
    const { changes } = await pullAll(t, nextCursor);
    expect(changes.map((c) => [c.entityId, c.scopeId, JSON.parse(c.payloadJson)])).toEqual([
      [task.id, apiaryId, { done: true }],
      [task.id, apiaryId, { done: false }],
    ]);
  });

  it("answers not_found for unknown ids on GetTask and SetTaskDone and writes nothing", async () => {
    const nextCursor = await feedHead(t);
    for (const method of ["GetTask", "SetTaskDone"]) {
      // Only SetTaskDone has done (an unknown field is refused before the lookup).
      const body =
        method === "SetTaskDone" ? { id: "no-such-task", done: true } : { id: "no-such-task" };
      const r = await t.call(`TaskService/${method}`, body);
      expect(r.status, method).toBe(404);
      expect(r.body.code, method).toBe("not_found");
    }
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
  });

  it("never shows another user's personal task: not listed, not in Pull, Get and SetTaskDone not_found", async () => {
    // Another user of the tenant creates a personal task on their device; it
    // arrives through the one write path (only one user exists in single-user mode).
    const { id, changes } = createTask(
      { ...seedContext(), authorId: randomUUID() },
      { hive: undefined, apiaryExists: false },
      { title: "Private", hiveId: "", apiaryId: "", priority: TaskPriority.UNSPECIFIED },
    );
    const nextCursor = await feedHead(t);
    await seedChanges(t, changes);

    const listed = (await t.call("TaskService/ListTasks", {})).body.tasks ?? [];
    expect(listed.map((x: { id: string }) => x.id)).not.toContain(id);
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
    for (const method of ["GetTask", "SetTaskDone"]) {
      const r = await t.call(
        `TaskService/${method}`,
        method === "SetTaskDone" ? { id, done: true } : { id },
      );
      expect(r.status, method).toBe(404);
      expect(r.body.code, method).toBe("not_found");
    }
  });

  it("works over binary protobuf with the typed client", async () => {
    const client = t.client(TaskService);
    const { task } = await client.createTask({
      title: "Typed",
      hiveId,
      priority: TaskPriority.HIGH,
    });
    expect(task?.apiaryId).toBe(apiaryId);
    const { task: done } = await client.setTaskDone({ id: task?.id ?? "", done: true });
    expect(done?.done).toBe(true);
    await expect(client.getTask({ id: "no-such-task" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });
});

describe.each(targetKinds)("ListTasks on %s", (kind) => {
  const t = useTestTarget(kind);
  let hiveId: string;
  const ids: Record<string, string> = {};
  const titles = (body: { tasks?: { title: string }[] }) => (body.tasks ?? []).map((x) => x.title);
  const list = async (body: Record<string, unknown>) => {
    const r = await t.call("TaskService/ListTasks", body);
    expect(r.status).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    const apiaryId = await newApiary(t, "A");
    hiveId = await newHive(t, apiaryId, "H");
    const tasks: [string, Record<string, unknown>][] = [
      ["open no due 1", { apiaryId }],
      ["open due July", { apiaryId, dueAt: "2026-07-01T00:00:00Z" }],
      ["done due May", { apiaryId, dueAt: "2026-05-01T00:00:00Z" }],
      ["open due June", {}],
      ["done no due", {}],
      ["open no due 2", { apiaryId }],
      ["open due mid-June on hive", { hiveId, dueAt: "2026-06-15T00:00:00Z" }],
    ];
    for (const [title, extra] of tasks) {
      const dueAt = title === "open due June" ? { dueAt: "2026-06-01T00:00:00Z" } : {};
      const r = await t.call("TaskService/CreateTask", { title, ...extra, ...dueAt });
      ids[title] = r.body.task.id;
    }
    for (const title of ["done due May", "done no due"]) {
      await t.call("TaskService/SetTaskDone", { id: ids[title], done: true });
    }
  });

  const openOrder = [
    "open due June",
    "open due mid-June on hive",
    "open due July",
    "open no due 1",
    "open no due 2",
  ];

  it("lists open tasks first by dueAt (tasks without dueAt last, then by creation), then done tasks", async () => {
    const body = await list({});
    expect(titles(body)).toEqual([...openOrder, "done due May", "done no due"]);
    expect(body.page).toEqual({ total: 7 });
  });

  it("onlyOpen leaves out done tasks", async () => {
    const body = await list({ onlyOpen: true });
    expect(titles(body)).toEqual(openOrder);
    expect(body.page.total).toBe(5);
  });

  it("filters by hiveId", async () => {
    expect(titles(await list({ hive_id: hiveId }))).toEqual(["open due mid-June on hive"]);
    expect(await list({ hiveId: "no-such-hive" })).toEqual({ page: {} });
  });

  it("moves a reopened task back among the open ones", async () => {
    await t.call("TaskService/SetTaskDone", { id: ids["done due May"], done: false });
    expect(titles(await list({ onlyOpen: true }))[0]).toBe("done due May");
    await t.call("TaskService/SetTaskDone", { id: ids["done due May"], done: true });
  });

  it("pages by offset tokens (contract §8)", async () => {
    const p1 = await list({ page: { pageSize: 3 } });
    expect(titles(p1)).toEqual(openOrder.slice(0, 3));
    expect(p1.page).toEqual({ nextPageToken: "3", total: 7 });
    const p3 = await list({ page: { pageSize: 3, pageToken: "6" } });
    expect(titles(p3)).toEqual(["done no due"]);
    expect(p3.page).toEqual({ total: 7 });
    const bad = await t.call("TaskService/ListTasks", { page: { pageSize: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_argument");
  });
});

describe.each(targetKinds)("UpdateTask and DeleteTask on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  let hiveId: string;
  beforeAll(async () => {
    ({ apiaryId, hiveId } = await withApiaryAndHive(t));
  });
  const createTaskOk = async (body: Record<string, unknown>) =>
    (await callOk(t, "TaskService/CreateTask", body)).task;

  it("overwrites title, hiveId, apiaryId, dueAt and priority (left out: default); done and createdAt stay; the feed carries only what changed", async () => {
    const task = await createTaskOk({
      title: "Feed",
      hiveId,
      dueAt: "2026-06-01T00:00:00Z",
      priority: "TASK_PRIORITY_HIGH",
    });
    await callOk(t, "TaskService/SetTaskDone", { id: task.id, done: true });
    const head = await feedHead(t);
    const sent = { id: task.id, title: " Feed syrup ", hiveId, apiaryId, priority: task.priority };
    const { task: updated } = await callOk(t, "TaskService/UpdateTask", {
      task: { ...sent, done: false },
    });
    expect(updated).toEqual({ ...task, title: "Feed syrup", dueAt: undefined, done: true });
    expect(updated).not.toHaveProperty("dueAt");
    expect(await t.call("TaskService/GetTask", { id: task.id })).toEqual({
      status: 200,
      body: { task: updated },
    });
    const { changes, nextCursor } = await pullAll(t, head);
    expect(changes.map((c) => [c.entity, c.entityId, c.scopeId])).toEqual([
      ["task", task.id, apiaryId],
    ]);
    expect(Object.keys(JSON.parse(changes[0]?.payloadJson ?? "{}")).sort()).toEqual([
      "due_at",
      "title",
    ]);
    // Saving it again unchanged writes nothing.
    await callOk(t, "TaskService/UpdateTask", { task: sent });
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
  });

  it("changing the hive or apiary moves the task's scope; neither makes it personal (user:<author>)", async () => {
    const other = await newApiary(t, "Elsewhere");
    const otherHive = await newHive(t, other, "Far");
    const task = await createTaskOk({ title: "Move me", hiveId });
    const scopeOf = async (cursor: string) =>
      (await pullAll(t, cursor)).changes.map((c) => c.scopeId);
    let head = await feedHead(t);
    const toHive = await callOk(t, "TaskService/UpdateTask", {
      task: { id: task.id, title: "Move me", hiveId: otherHive },
    });
    expect(toHive.task).toMatchObject({ hiveId: otherHive, apiaryId: other });
    expect(await scopeOf(head)).toEqual([other]);
    head = await feedHead(t);
    const personal = await callOk(t, "TaskService/UpdateTask", {
      task: { id: task.id, title: "Mine" },
    });
    expect(personal.task).not.toHaveProperty("apiaryId");
    expect(personal.task).not.toHaveProperty("hiveId");
    expect(await scopeOf(head)).toEqual([`user:${t.userId}`]);
    const listed = (await t.call("TaskService/ListTasks", {})).body.tasks;
    expect(listed.map((x: { id: string }) => x.id)).toContain(task.id);
  });

  it("checks like CreateTask: missing task or title invalid_argument, unknown hive not_found, unknown apiary invalid_argument, unknown id not_found; writes nothing", async () => {
    const task = await createTaskOk({ title: "Check" });
    const head = await feedHead(t);
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, "task is required"],
      [{ task: { id: task.id, title: " " } }, 400, "task.title is required"],
      [{ task: { id: task.id, title: "x", hiveId: "no-such-hive" } }, 404, ""],
      [{ task: { id: task.id, title: "x", apiaryId: "no-such-apiary" } }, 400, ""],
      [{ task: { id: "no-such-id", title: "x" } }, 404, ""],
    ];
    for (const [body, status, message] of cases) {
      const r = await t.call("TaskService/UpdateTask", body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      if (message !== "") expect(r.body.message).toBe(message);
    }
    expect((await t.call("TaskService/DeleteTask", { id: "no-such-id" })).status).toBe(404);
    expect((await pullAll(t, head)).changes).toEqual([]);
  });

  it("another user's personal task: UpdateTask and DeleteTask answer not_found and write nothing", async () => {
    const { id, changes } = createTask(
      { ...seedContext(), authorId: randomUUID() },
      { hive: undefined, apiaryExists: false },
      { title: "Private", hiveId: "", apiaryId: "", priority: TaskPriority.UNSPECIFIED },
    );
    await seedChanges(t, changes);
    const head = await feedHead(t);
    const update = await t.call("TaskService/UpdateTask", { task: { id, title: "Taken" } });
    expect([update.status, update.body.code]).toEqual([404, "not_found"]);
    const del = await t.call("TaskService/DeleteTask", { id });
    expect([del.status, del.body.code]).toEqual([404, "not_found"]);
    expect((await pullAll(t, head)).changes).toEqual([]);
  });

  it("DeleteTask returns {}, tombstones the task in the feed, and it is gone; a second delete is not_found", async () => {
    const task = await createTaskOk({ title: "Typo task", hiveId });
    const head = await feedHead(t);
    expect(await t.call("TaskService/DeleteTask", { id: task.id })).toEqual({
      status: 200,
      body: {},
    });
    expect((await t.call("TaskService/GetTask", { id: task.id })).status).toBe(404);
    const listed = (await t.call("TaskService/ListTasks", {})).body.tasks ?? [];
    expect(listed.map((x: { id: string }) => x.id)).not.toContain(task.id);
    expect(
      (await pullAll(t, head)).changes.map((c) => [c.entity, c.entityId, c.op, c.scopeId]),
    ).toEqual([["task", task.id, "CHANGE_OP_DELETE", apiaryId]]);
    await expect(t.client(TaskService).deleteTask({ id: task.id })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });
});

import { describe, expect, it } from "vitest";
import { codeOf, fakeContext } from "../../testing/command-context.ts";
import {
  type CreateTaskInput,
  createTask,
  deleteTask,
  setTaskDone,
  TaskPriority,
  updateTask,
} from "./task.ts";

const now = new Date("2026-05-01T10:00:00.000Z");

/** Every test here runs on 1 May 2026 as the default user "user-1", unless it says otherwise. */
const at = { now };

const input: CreateTaskInput = {
  title: "Varroa count",
  hiveId: "",
  apiaryId: "",
  priority: TaskPriority.UNSPECIFIED,
};
const noRefs = { hive: undefined, apiaryExists: false };

describe("createTask", () => {
  it("makes a task with neither hive nor apiary personal: scope user:<author>", () => {
    const { id, changes } = createTask(fakeContext(at), noRefs, { ...input, title: "  Buy jars " });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ entity: "task", entityId: id, scopeId: "user:user-1" });
    expect(changes[0]?.payload).toEqual({
      title: "Buy jars",
      hive_id: "",
      apiary_id: "",
      due_at: null,
      priority: 0,
      done: false,
      created_at: now.toISOString(),
    });
  });

  it("inherits the hive's apiary when only hiveId is given", () => {
    const { changes } = createTask(
      fakeContext(at),
      { hive: { id: "h1", apiaryId: "a1" }, apiaryExists: false },
      { ...input, hiveId: "h1", priority: TaskPriority.HIGH, dueAt: "2026-06-01T00:00:00.000Z" },
    );
    expect(changes[0]?.scopeId).toBe("a1");
    expect(changes[0]?.payload).toMatchObject({
      hive_id: "h1",
      apiary_id: "a1",
      priority: TaskPriority.HIGH,
      due_at: "2026-06-01T00:00:00.000Z",
    });
  });

  it("keeps a given apiaryId", () => {
    const { changes } = createTask(
      fakeContext(at),
      { hive: undefined, apiaryExists: true },
      { ...input, apiaryId: "a2" },
    );
    expect(changes[0]?.scopeId).toBe("a2");
    expect(changes[0]?.payload.apiary_id).toBe("a2");
  });

  it("requires a title; unknown hive is not_found, unknown apiary invalid", () => {
    expect(codeOf(() => createTask(fakeContext(at), noRefs, { ...input, title: " " }))).toBe(
      "invalid:title",
    );
    expect(codeOf(() => createTask(fakeContext(at), noRefs, { ...input, hiveId: "h9" }))).toBe(
      "not_found:",
    );
    expect(codeOf(() => createTask(fakeContext(at), noRefs, { ...input, apiaryId: "a9" }))).toBe(
      "invalid:apiaryId",
    );
    expect(
      codeOf(() => createTask(fakeContext(at), noRefs, { ...input, priority: 77 as TaskPriority })),
    ).toBe("invalid:priority");
  });
});

describe("setTaskDone", () => {
  it("closes and reopens a task in its stored scope", () => {
    const state = { id: "t1", scopeId: "a1" };
    for (const done of [true, false]) {
      const [change] = setTaskDone(fakeContext(at), state, "t1", done);
      expect(change).toMatchObject({ entity: "task", entityId: "t1", scopeId: "a1" });
      expect(change?.payload).toEqual({ done });
    }
  });

  it("treats unknown tasks and other users' personal tasks as not found", () => {
    expect(codeOf(() => setTaskDone(fakeContext(at), undefined, "t1", true))).toBe("not_found:");
    const personal = { id: "t2", scopeId: "user:user-2" };
    expect(codeOf(() => setTaskDone(fakeContext(at), personal, "t2", true))).toBe("not_found:");
    expect(
      setTaskDone(fakeContext({ ...at, authorId: "user-2" }), personal, "t2", true),
    ).toHaveLength(1);
  });
});

describe("updateTask / deleteTask", () => {
  const shared = { id: "task-1", scopeId: "apiary-1" };
  const mine = { id: "task-2", scopeId: "user:user-1" };
  const theirs = { id: "task-3", scopeId: "user:user-2" };
  const hive = { id: "hive-1", apiaryId: "apiary-2" };
  const edit = { ...input, id: "task-1", title: " Count mites ", dueAt: "2026-05-08T00:00:00Z" };

  it("overwrites title, hive, apiary, due date and priority, never done or created_at", () => {
    const changes = updateTask(
      fakeContext(at),
      shared,
      { hive, apiaryExists: false },
      {
        ...edit,
        hiveId: "hive-1",
        priority: TaskPriority.HIGH,
      },
    );
    expect(changes).toHaveLength(1);
    // The hive's apiary: the task moves to its scope.
    expect(changes[0]).toMatchObject({ entity: "task", entityId: "task-1", scopeId: "apiary-2" });
    expect(changes[0]?.payload).toEqual({
      title: "Count mites",
      hive_id: "hive-1",
      apiary_id: "apiary-2",
      due_at: "2026-05-08T00:00:00.000Z",
      priority: TaskPriority.HIGH,
    });
  });

  it("neither hive nor apiary makes it personal to the author; a given apiary is kept", () => {
    const personal = updateTask(fakeContext(at), shared, noRefs, edit);
    expect(personal[0]).toMatchObject({ scopeId: "user:user-1", payload: { apiary_id: "" } });
    const apiary = updateTask(
      fakeContext(at),
      mine,
      { hive: undefined, apiaryExists: true },
      {
        ...edit,
        apiaryId: "apiary-9",
      },
    );
    expect(apiary[0]).toMatchObject({ scopeId: "apiary-9", payload: { apiary_id: "apiary-9" } });
  });

  it("checks like CreateTask, naming the field in the message; another user's personal task is not_found", () => {
    expect(codeOf(() => updateTask(fakeContext(at), shared, noRefs, undefined))).toBe(
      "invalid:task",
    );
    expect(codeOf(() => updateTask(fakeContext(at), shared, noRefs, { ...edit, title: " " }))).toBe(
      "invalid:task.title",
    );
    expect(
      codeOf(() => updateTask(fakeContext(at), shared, noRefs, { ...edit, hiveId: "x" })),
    ).toBe("not_found:");
    expect(
      codeOf(() => updateTask(fakeContext(at), shared, noRefs, { ...edit, apiaryId: "x" })),
    ).toBe("invalid:task.apiaryId");
    expect(codeOf(() => updateTask(fakeContext(at), theirs, noRefs, edit))).toBe("not_found:");
    expect(codeOf(() => updateTask(fakeContext(at), undefined, noRefs, edit))).toBe("not_found:");
  });

  it("deleteTask tombstones the task in its scope; unknown or another user's personal task is not_found", () => {
    expect(deleteTask(fakeContext(at), mine, "task-2")).toEqual([
      expect.objectContaining({
        entity: "task",
        entityId: "task-2",
        scopeId: mine.scopeId,
        op: "delete",
      }),
    ]);
    expect(codeOf(() => deleteTask(fakeContext(at), theirs, "task-3"))).toBe("not_found:");
    expect(codeOf(() => deleteTask(fakeContext(at), undefined, "x"))).toBe("not_found:");
  });
});

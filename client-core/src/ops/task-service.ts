/**
 * TaskService (contract §4.6, §5.7) over a replica: create (the apiary inherited from the hive, or
 * a personal task in the author's scope), update (the scope follows), delete, close / reopen,
 * get, and list. Other users' personal tasks do not exist for the caller: never listed, and
 * Get / SetTaskDone / UpdateTask / DeleteTask answer not_found. Lists put open tasks first, then
 * by due date (none last), then oldest first.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  CreateTaskResponseSchema,
  DeleteTaskResponseSchema,
  GetTaskResponseSchema,
  ListTasksResponseSchema,
  SetTaskDoneResponseSchema,
  type Task,
  TaskSchema,
  type TaskService,
  UpdateTaskResponseSchema,
} from "@hivekeep/proto";
import {
  createTask,
  deleteTask,
  setTaskDone,
  type TaskRefs,
  updateTask,
} from "../core/commands/task.ts";
import { notFound } from "../core/domain-error.ts";
import { isReadableScope } from "../core/entities.ts";
import type { Filter } from "./query.ts";
import { listPage } from "./record-reads.ts";
import type { ReplicaReader } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
import { isoOf } from "./timestamps.ts";
import { toProto } from "./to-proto.ts";
import { withoutUnchanged } from "./unchanged.ts";

/** The task as the user may see it (live, and not another user's personal task). */
async function mustGetTask(
  r: ReplicaReader,
  organizationId: string,
  userId: string,
  id: string,
): Promise<Task> {
  const row = await r.get("task", id);
  if (!row || !isReadableScope(row.scopeId, userId)) throw notFound("task", id);
  return toProto(TaskSchema, "task", row, organizationId);
}

const noRefs: TaskRefs = { hive: undefined, apiaryExists: false };

/** The hive (with its apiary now) and apiary a CreateTask or UpdateTask names, read in the write. */
async function taskRefs(r: ReplicaReader, hiveId: string, apiaryId: string): Promise<TaskRefs> {
  const hive = hiveId === "" ? undefined : await r.get("hive", hiveId);
  const apiary = apiaryId === "" ? undefined : await r.get("apiary", apiaryId);
  const hiveApiary = hive?.values.apiary_id;
  return {
    hive: hive && { id: hiveId, apiaryId: typeof hiveApiary === "string" ? hiveApiary : "" },
    apiaryExists: apiary !== undefined,
  };
}

export function taskService(sessionOf: SessionOf): ServiceImpl<typeof TaskService> {
  return {
    async listTasks(req, ctx) {
      const s = sessionOf(ctx);
      const where: Filter[] = [{ readableBy: s.userId }];
      if (req.hiveId !== "") where.push({ column: "hive_id", eq: req.hiveId });
      if (req.onlyOpen) where.push({ column: "done", eq: false });
      const { items, page } = await listPage(s, "task", TaskSchema, req.page, {
        where,
        orderBy: [
          { column: "done", ifNull: false },
          { column: "due_at" },
          { column: "created_at" },
          { column: "id" },
        ],
      });
      return create(ListTasksResponseSchema, { tasks: items, page });
    },

    async getTask(req, ctx) {
      const s = sessionOf(ctx);
      const task = await s.store.read((r) => mustGetTask(r, s.organizationId, s.userId, req.id));
      return create(GetTaskResponseSchema, { task });
    },

    async createTask(req, ctx) {
      const s = sessionOf(ctx);
      const cc = commandContext(s);
      const task = await s.store.write(async (w) => {
        const refs = await taskRefs(w, req.hiveId, req.apiaryId);
        const dueAt = req.dueAt ? isoOf(req.dueAt, "dueAt") : undefined;
        const { id, changes } = createTask(cc, refs, { ...req, dueAt });
        await w.apply(changes);
        return mustGetTask(w, s.organizationId, s.userId, id);
      });
      return create(CreateTaskResponseSchema, { task });
    },

    async setTaskDone(req, ctx) {
      const s = sessionOf(ctx);
      const task = await s.store.write(async (w) => {
        const row = await w.get("task", req.id);
        const state = row && { id: req.id, scopeId: row.scopeId };
        await w.apply(setTaskDone(commandContext(s), state, req.id, req.done));
        return mustGetTask(w, s.organizationId, s.userId, req.id);
      });
      return create(SetTaskDoneResponseSchema, { task });
    },

    // done stays with SetTaskDone; the scope follows the hive/apiary (or the author: personal).
    async updateTask(req, ctx) {
      const s = sessionOf(ctx);
      const cc = commandContext(s);
      const sent = req.task;
      const id = sent?.id ?? "";
      const task = await s.store.write(async (w) => {
        const input = sent && {
          ...sent,
          dueAt: sent.dueAt ? isoOf(sent.dueAt, "task.dueAt") : undefined,
        };
        const row = id === "" ? undefined : await w.get("task", id);
        const refs = sent ? await taskRefs(w, sent.hiveId, sent.apiaryId) : noRefs;
        const changes = updateTask(cc, row && { id, scopeId: row.scopeId }, refs, input);
        await w.apply(await withoutUnchanged(w, changes));
        return mustGetTask(w, s.organizationId, s.userId, id);
      });
      return create(UpdateTaskResponseSchema, { task });
    },

    async deleteTask(req, ctx) {
      const s = sessionOf(ctx);
      await s.store.write(async (w) => {
        const row = req.id === "" ? undefined : await w.get("task", req.id);
        const state = row && { id: req.id, scopeId: row.scopeId };
        await w.apply(deleteTask(commandContext(s), state, req.id));
      });
      return create(DeleteTaskResponseSchema, {});
    },
  };
}

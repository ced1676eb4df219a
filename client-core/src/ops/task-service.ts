/**
 * TaskService (contract §4.6, §5.7) over a replica: create (the apiary inherited from the hive, or
 * a personal task in the author's scope), close / reopen, get, and list. Other users' personal
 * tasks do not exist for the caller: never listed, and Get / SetTaskDone answer not_found. Lists
 * put open tasks first, then by due date (none last), then oldest first.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import {
  CreateTaskResponseSchema,
  GetTaskResponseSchema,
  ListTasksResponseSchema,
  SetTaskDoneResponseSchema,
  type Task,
  TaskSchema,
  type TaskService,
} from "@hivekeep/proto";
import { createTask, setTaskDone } from "../core/commands/task.ts";
import { notFound } from "../core/domain-error.ts";
import { isReadableScope } from "../core/entities.ts";
import type { Filter } from "./query.ts";
import { listPage } from "./record-reads.ts";
import type { ReplicaReader } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
import { isoOf } from "./timestamps.ts";
import { toProto } from "./to-proto.ts";

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
        const hive = req.hiveId === "" ? undefined : await w.get("hive", req.hiveId);
        const apiary = req.apiaryId === "" ? undefined : await w.get("apiary", req.apiaryId);
        const apiaryId = hive?.values.apiary_id;
        const refs = {
          hive: hive && { id: req.hiveId, apiaryId: typeof apiaryId === "string" ? apiaryId : "" },
          apiaryExists: apiary !== undefined,
        };
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

    // Being built (issue 25): answers unimplemented until its command lands.
    updateTask() {
      throw new ConnectError("updateTask is not implemented yet", Code.Unimplemented);
    },

    // Being built (issue 25): answers unimplemented until its command lands.
    deleteTask() {
      throw new ConnectError("deleteTask is not implemented yet", Code.Unimplemented);
    },
  };
}

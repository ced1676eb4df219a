/**
 * TaskService (contract §4.6): create (apiary inherited from the hive, or a
 * personal task), close / reopen, get, and list open tasks first by due date.
 * Other users' personal tasks do not exist for the caller: they are never
 * listed, and Get / SetTaskDone answer not_found (contract §5.7).
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  createTask,
  entities,
  notFound,
  setTaskDone,
  taskVisibleTo,
  userScope,
} from "@hivekeep/client-core/core";
import {
  CreateTaskResponseSchema,
  GetTaskResponseSchema,
  ListTasksResponseSchema,
  SetTaskDoneResponseSchema,
  type Task,
  TaskSchema,
  type TaskService,
} from "@hivekeep/proto";
import type { Queryable, Row } from "../db/db.ts";
import { readableScope } from "../store/feed.ts";
import { getLive, listLive } from "../store/rows.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { callerOf } from "./context.ts";
import { commandContext, type Deps, rowForEdit } from "./deps.ts";
import { isoOf } from "./mapping.ts";
import { pageResponse, pageWindow } from "@hivekeep/client-core/ops";
import { rowToProto } from "./row-to-proto.ts";

export const taskToProto = (row: Row): Task => rowToProto(TaskSchema, entities.task, row);

/** The task as the user may see it (live, and not another user's personal task). */
async function mustGetTask(q: Queryable, organizationId: string, userId: string, id: string) {
  const row = await getLive(q, entities.task, organizationId, id);
  if (!row || !taskVisibleTo(userId, String(row.scope_id))) throw notFound("task", id);
  return taskToProto(row);
}

export function taskService(deps: Deps): ServiceImpl<typeof TaskService> {
  const { db } = deps;
  return {
    // Open tasks first; then by due date, tasks without one last; then oldest first.
    async listTasks(req, ctx) {
      const { organizationId, userId } = callerOf(ctx);
      const window = pageWindow(req.page);
      const { rows, total } = await listLive(db, entities.task, organizationId, {
        equals: { hive_id: req.hiveId },
        extra: [
          { sql: readableScope("scope_id", "{1}"), params: [userScope(userId)] },
          ...(req.onlyOpen ? [{ sql: "not coalesce(done, false)", params: [] }] : []),
        ],
        orderBy: "coalesce(done, false), due_at asc nulls last, created_at asc, id asc",
        ...window,
      });
      return create(ListTasksResponseSchema, {
        tasks: rows.map(taskToProto),
        page: pageResponse(window, rows.length, total),
      });
    },

    async getTask(req, ctx) {
      const { organizationId, userId } = callerOf(ctx);
      return create(GetTaskResponseSchema, {
        task: await mustGetTask(db, organizationId, userId, req.id),
      });
    },

    async createTask(req, ctx) {
      const caller = callerOf(ctx);
      const cctx = commandContext(deps, caller);
      const org = caller.organizationId;
      const task = await writeTenant(db, org, async (w) => {
        const hive =
          req.hiveId === "" ? undefined : await getLive(w.tx, entities.hive, org, req.hiveId);
        const apiary =
          req.apiaryId === "" ? undefined : await getLive(w.tx, entities.apiary, org, req.apiaryId);
        const refs = {
          hive: hive && { id: req.hiveId, apiaryId: String(hive.apiary_id ?? "") },
          apiaryExists: apiary !== undefined,
        };
        const dueAt = req.dueAt ? isoOf(req.dueAt, "dueAt") : undefined;
        const { id, changes } = createTask(cctx, refs, { ...req, dueAt });
        await w.apply(changes);
        return mustGetTask(w.tx, org, caller.userId, id);
      });
      return create(CreateTaskResponseSchema, { task });
    },

    async setTaskDone(req, ctx) {
      const caller = callerOf(ctx);
      const org = caller.organizationId;
      const task = await writeTenant(db, org, async (w) => {
        const row = await rowForEdit(deps, w.tx, entities.task, org, req.id);
        const state = row && { id: req.id, scopeId: String(row.scope_id) };
        await w.apply(setTaskDone(commandContext(deps, caller), state, req.id, req.done));
        return mustGetTask(w.tx, org, caller.userId, req.id);
      });
      return create(SetTaskDoneResponseSchema, { task });
    },
  };
}

/**
 * Task commands (contract §3, §4.6). A task belongs to an apiary (its own
 * apiaryId, or the apiary of its hive) and syncs to everyone of the tenant;
 * a task with neither hiveId nor apiaryId is personal: its scope is
 * `user:<author>`, so it syncs only to its author's devices (contract §5.7)
 * and no one else can see or change it.
 */
import { TaskPriority } from "@hivekeep/proto";
import type { Change } from "../change.ts";
import { invalid, notFound } from "../domain-error.ts";
import { entities, isReadableScope, userScope } from "../entities.ts";
import { quote } from "../quote.ts";
import { tombstone, upsert } from "./change-builders.ts";
import type { CommandContext } from "./context.ts";
import { checkedPayload } from "./payload-check.ts";

export { TaskPriority };

export interface CreateTaskInput {
  readonly title: string;
  readonly hiveId: string;
  readonly apiaryId: string;
  /** RFC 3339; undefined = no due date (contract §2.1.3). */
  readonly dueAt?: string | undefined;
  readonly priority: TaskPriority;
}

/** What CreateTask needs to know of the records the input names, read by the caller. */
export interface TaskRefs {
  /** The hive of input.hiveId with its current apiary; undefined when unknown or not given. */
  readonly hive: { readonly id: string; readonly apiaryId: string } | undefined;
  /** Whether input.apiaryId names a live apiary of the tenant (false when not given). */
  readonly apiaryExists: boolean;
}

/**
 * The columns CreateTask and UpdateTask write and the scope they put the task in, checked by
 * CreateTask's rules; `prefix` names the request message ("task." on update).
 */
function taskColumns(ctx: CommandContext, refs: TaskRefs, input: CreateTaskInput, prefix: string) {
  const title = input.title.trim();
  if (title === "") throw invalid(`${prefix}title`, `${prefix}title is required`);
  if (input.hiveId !== "" && refs.hive === undefined) throw notFound("hive", input.hiveId);
  if (input.apiaryId !== "" && !refs.apiaryExists) {
    throw invalid(`${prefix}apiaryId`, `apiary ${quote(input.apiaryId)} does not exist`);
  }
  const apiaryId = input.apiaryId !== "" ? input.apiaryId : (refs.hive?.apiaryId ?? "");
  const payload = checkedPayload(
    entities.task,
    {
      title,
      hive_id: input.hiveId,
      apiary_id: apiaryId,
      due_at: input.dueAt ?? null,
      priority: input.priority,
    },
    prefix,
  );
  return { scopeId: apiaryId !== "" ? apiaryId : userScope(ctx.authorId), payload };
}

/**
 * A new open task. A hive task without apiaryId inherits the hive's apiary
 * (rule 1); a given apiaryId is kept as sent and must exist (rule 2: an
 * unknown one is invalid_argument, unlike the not_found of an unknown hiveId).
 */
export function createTask(
  ctx: CommandContext,
  refs: TaskRefs,
  input: CreateTaskInput,
): { id: string; changes: Change[] } {
  const { scopeId, payload } = taskColumns(ctx, refs, input, "");
  const id = ctx.newId();
  return {
    id,
    changes: [
      upsert(ctx, "task", id, scopeId, {
        ...payload,
        done: false,
        created_at: ctx.now.toISOString(),
      }),
    ],
  };
}

/** What SetTaskDone needs to know of the stored task. */
export interface TaskState {
  readonly id: string;
  readonly scopeId: string;
}

/**
 * done=true closes the task, done=false reopens it (DESIGN.md §3). Another
 * user's personal task does not exist for the caller (not_found).
 *
 * @param current the stored task, or undefined when it does not exist.
 */
export function setTaskDone(
  ctx: CommandContext,
  current: TaskState | undefined,
  id: string,
  done: boolean,
): Change[] {
  if (current === undefined || !isReadableScope(current.scopeId, ctx.authorId)) {
    throw notFound("task", id);
  }
  return [upsert(ctx, "task", current.id, current.scopeId, { done })];
}

export interface UpdateTaskInput extends CreateTaskInput {
  readonly id: string;
}

/**
 * Overwrites title, hive_id, apiary_id, due_at and priority with CreateTask's rules (a hive task
 * without apiaryId takes the hive's apiary; one with neither is personal, `user:<author>`); the
 * scope follows (the merge moves the row, merge-change.ts). done stays with SetTaskDone and
 * created_at is never written. Another user's personal task does not exist for the caller.
 *
 * @param input the request's task message; undefined when missing (→ invalid).
 * @param current the stored task, or undefined when it does not exist (→ not_found).
 */
export function updateTask(
  ctx: CommandContext,
  current: TaskState | undefined,
  refs: TaskRefs,
  input: UpdateTaskInput | undefined,
): Change[] {
  if (input === undefined) throw invalid("task", "task is required");
  if (input.title.trim() === "") throw invalid("task.title", "task.title is required");
  if (current === undefined || !isReadableScope(current.scopeId, ctx.authorId)) {
    throw notFound("task", input.id);
  }
  const { scopeId, payload } = taskColumns(ctx, refs, input, "task.");
  return [upsert(ctx, "task", current.id, scopeId, payload)];
}

/** Tombstones the task. Another user's personal task does not exist for the caller (not_found). */
export function deleteTask(
  ctx: CommandContext,
  current: TaskState | undefined,
  id: string,
): Change[] {
  if (current === undefined || !isReadableScope(current.scopeId, ctx.authorId)) {
    throw notFound("task", id);
  }
  return [tombstone(ctx, "task", current.id, current.scopeId)];
}

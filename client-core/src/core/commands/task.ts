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
import { upsert } from "./change-builders.ts";
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
 * A new open task. A hive task without apiaryId inherits the hive's apiary
 * (rule 1); a given apiaryId is kept as sent and must exist (rule 2: an
 * unknown one is invalid_argument, unlike the not_found of an unknown hiveId).
 */
export function createTask(
  ctx: CommandContext,
  refs: TaskRefs,
  input: CreateTaskInput,
): { id: string; changes: Change[] } {
  const title = input.title.trim();
  if (title === "") throw invalid("title", "title is required");
  if (input.hiveId !== "" && refs.hive === undefined) throw notFound("hive", input.hiveId);
  if (input.apiaryId !== "" && !refs.apiaryExists) {
    throw invalid("apiaryId", `apiary ${quote(input.apiaryId)} does not exist`);
  }
  const apiaryId = input.apiaryId !== "" ? input.apiaryId : (refs.hive?.apiaryId ?? "");
  const payload = checkedPayload(entities.task, {
    title,
    hive_id: input.hiveId,
    apiary_id: apiaryId,
    due_at: input.dueAt ?? null,
    priority: input.priority,
    done: false,
    created_at: ctx.now.toISOString(),
  });
  const id = ctx.newId();
  const scopeId = apiaryId !== "" ? apiaryId : userScope(ctx.authorId);
  return { id, changes: [upsert(ctx, "task", id, scopeId, payload)] };
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

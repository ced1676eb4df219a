/**
 * What the task rows derive, without React: the names of what a task is for, and when it is
 * due. The rules behind them (due state, whole days) are in rules.ts.
 */
import type { Apiary, Hive, Queen, Task } from "@hivekeep/proto";
import { type Format, toDate } from "../../format.ts";
import { type DueState, isWholeDay } from "./rules.ts";

/** Names a task's row shows; undefined: that record is gone (or there is none). */
export interface TaskNames {
  readonly hiveName: string | undefined;
  readonly apiaryName: string | undefined;
}

/**
 * Each task's hive and apiary names, by task id. A hive task names the apiary where the hive
 * stands now (it may have moved since the task was written).
 */
export function taskNames(
  tasks: readonly Pick<Task, "id" | "hiveId" | "apiaryId">[],
  hives: readonly Pick<Hive, "id" | "name" | "apiaryId">[],
  apiaries: readonly Pick<Apiary, "id" | "name">[],
): Map<string, TaskNames> {
  const hiveById = new Map(hives.map((h) => [h.id, h]));
  const apiaryName = new Map(apiaries.map((a) => [a.id, a.name]));
  return new Map(
    tasks.map((task) => {
      const hive = hiveById.get(task.hiveId);
      return [
        task.id,
        { hiveName: hive?.name, apiaryName: apiaryName.get(hive?.apiaryId ?? task.apiaryId) },
      ];
    }),
  );
}

/**
 * When a task is due, as its row says it: "12 Jun 2026 (in 2 days)", a time of day when it has
 * one, and no "(today)" when the row's badge says so already. Undefined without a due date.
 */
export function taskDueDate(
  fmt: Format,
  task: Pick<Task, "dueAt">,
  state: DueState,
  now: Date,
): string | undefined {
  const due = toDate(task.dueAt);
  if (due === undefined) return undefined;
  const when = isWholeDay(due) ? fmt.date(due) : fmt.dateTime(due);
  return state === "today" ? when : `${when} (${fmt.relativeDays(due, now)})`;
}

/**
 * What deleting a queen leaves, as her confirmation says it (DeleteQueen's rule, client-core's
 * queen service): a queen who was replaced leaves the hive's queen history; a reigning queen
 * gives the reign back to the queen she replaced (of the hive's replaced queens, the one
 * replaced last), or, with none, leaves the hive queenless.
 */
export type QueenDeleteEffect =
  | { readonly kind: "history" }
  | { readonly kind: "reignsAgain"; readonly queen: Queen }
  | { readonly kind: "queenless" };

export function queenDeleteEffect(queen: Queen, queens: readonly Queen[]): QueenDeleteEffect {
  if (!queen.active) return { kind: "history" };
  const replacedMs = (q: Queen) => toDate(q.replacedAt)?.getTime() ?? 0;
  let before: Queen | undefined;
  for (const q of queens) {
    if (q.id === queen.id || q.active) continue;
    if (before === undefined || replacedMs(q) > replacedMs(before)) before = q;
  }
  return before ? { kind: "reignsAgain", queen: before } : { kind: "queenless" };
}

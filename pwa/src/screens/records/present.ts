/**
 * What the task rows derive, without React: the names of what a task is for, and when it is
 * due. The rules behind them (due state, whole days) are in rules.ts.
 */
import { queenBefore } from "@hivekeep/client-core/core";
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
 * one. Due today, the row's badge says "Due today" already: only its time of day ("14:00"), or ""
 * for a whole day (nothing to add; "Due today" beside "Due 26 Nov 2026" said it twice).
 * Undefined without a due date.
 */
export function taskDueDate(
  fmt: Format,
  task: Pick<Task, "dueAt">,
  state: DueState,
  now: Date,
): string | undefined {
  const due = toDate(task.dueAt);
  if (due === undefined) return undefined;
  if (state === "today") {
    return isWholeDay(due)
      ? ""
      : new Intl.DateTimeFormat(fmt.locale, { timeStyle: "short" }).format(due);
  }
  const when = isWholeDay(due) ? fmt.date(due) : fmt.dateTime(due);
  return `${when} (${fmt.relativeDays(due, now)})`;
}

/**
 * What deleting a queen leaves, as her confirmation says it: DeleteQueen's own rule
 * (`queenBefore`, client-core core/commands/queen.ts): the queen she replaced reigns again in
 * her place; with none, the hive is queenless. (Of several queens whose reigns ended when hers
 * began, the operation prefers the one her event names; the app, which reads no events here,
 * the latest begun, as the operation does without that word.) A queen who was replaced herself leaves only the hive's queen history.
 */
export type QueenDeleteEffect =
  | { readonly kind: "history" }
  | { readonly kind: "reignsAgain"; readonly queen: Queen }
  | { readonly kind: "queenless" };

export function queenDeleteEffect(queen: Queen, queens: readonly Queen[]): QueenDeleteEffect {
  if (!queen.active) return { kind: "history" };
  const iso = (d: Date | undefined) => d?.toISOString() ?? "";
  const reign = (q: Queen) => ({
    id: q.id,
    start: iso(toDate(q.introducedAt) ?? toDate(q.createdAt)),
    replacedAt: toDate(q.replacedAt) ? iso(toDate(q.replacedAt)) : null,
    queen: q,
  });
  const before = queenBefore(reign(queen), queens.filter((q) => q.id !== queen.id).map(reign));
  return before ? { kind: "reignsAgain", queen: before.queen } : { kind: "queenless" };
}

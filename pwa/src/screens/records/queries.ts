/**
 * The record screens' live data: the task list with the names its rows show, what each record
 * form starts from (the hive it is for, with what the form needs of it), and the apiary a
 * form's hive line names.
 */
import type { Apiary, Hive, Queen, Task, Treatment } from "@hivekeep/proto";
import { type Live, orMissing, useLiveQuery } from "../../app/client.tsx";
import { allApiaries, allHives, listAll } from "../../app/list-all.ts";
import { reigningQueen } from "../hives/hive-logic.ts";
import { type TaskNames, taskNames } from "./present.ts";

export interface TaskList {
  /** In the service's order (by due date, none last). */
  readonly tasks: readonly Task[];
  /** The hive and apiary names each task's row shows, by task id. */
  readonly names: ReadonlyMap<string, TaskNames>;
}

/** Every task the user may see, with the names of what each is for, in one query. */
export function useTaskList(): Live<TaskList> {
  return useLiveQuery(async (c) => {
    const [tasks, hives, apiaries] = await Promise.all([
      listAll(
        (page) => c.tasks.listTasks({ page }),
        (r) => r.tasks,
      ),
      allHives(c),
      allApiaries(c),
    ]);
    return { tasks, names: taskNames(tasks, hives, apiaries) };
  }, []);
}

export interface TreatmentFormData {
  readonly hive: Hive;
  /** The treatment an edit changes; none for a new one. */
  readonly treatment?: Treatment;
}

/**
 * The treatment form: a new treatment of a hive (`/hives/:id/treatment`), not found when the
 * hive is not here; or an edit (`/treatments/:id/edit`), not found when the treatment or its
 * hive is not here (a deleted hive's treatments are not listed anywhere to be edited).
 */
export function useTreatmentForm(
  target: { readonly hiveId: string } | { readonly treatmentId: string },
): Live<TreatmentFormData> {
  const [kind, id] =
    "treatmentId" in target ? ["edit", target.treatmentId] : ["new", target.hiveId];
  return useLiveQuery(
    async (c): Promise<TreatmentFormData | undefined> => {
      if (kind === "new") {
        const { hive } = await c.hives.getHive({ id });
        return hive && { hive };
      }
      const { treatment } = await c.treatments.getTreatment({ id });
      if (treatment === undefined) return undefined;
      const hive = await orMissing(c.hives.getHive({ id: treatment.hiveId }).then((r) => r.hive));
      return hive && { hive, treatment };
    },
    [kind, id],
  );
}

export interface HarvestFormData {
  readonly hive: Hive;
  /** The hive's treatments: one whose withdrawal period runs at the harvest's date warns. */
  readonly treatments: readonly Treatment[];
}

/** A new harvest of a hive (`/hives/:id/harvest`): not found when the hive is not here. */
export function useHarvestForm(hiveId: string): Live<HarvestFormData> {
  return useLiveQuery(
    async (c): Promise<HarvestFormData | undefined> => {
      const [{ hive }, treatments] = await Promise.all([
        c.hives.getHive({ id: hiveId }),
        listAll(
          (page) => c.treatments.listTreatments({ hiveId, page }),
          (r) => r.treatments,
        ),
      ]);
      return hive && { hive, treatments };
    },
    [hiveId],
  );
}

/** Which queen form a route opens: a new queen for a hive, or an edit of a queen. */
export type QueenTarget = { readonly hiveId: string } | { readonly queenId: string };

export interface QueenFormData {
  /** The hive the queen is for; missing when an edited queen's hive was deleted meanwhile. */
  readonly hive: Hive | undefined;
  /** The queen an edit changes; none for a new queen. */
  readonly queen?: Queen;
  /** An edited queen's hive's queens, all of them (what her delete leaves: `queenDeleteEffect`). */
  readonly queens?: readonly Queen[];
  /** The queen a new one replaces (of two active ones, the newest, as the hive page shows). */
  readonly reigning?: Queen;
}

/**
 * The queen form: for a new queen (`/hives/:id/queen`) the hive and its reigning queen, not found
 * when the hive is not here; for an edit (`/queens/:queenId/edit`) the queen and its hive, not
 * found when the queen is not here.
 */
export function useQueenForm(target: QueenTarget): Live<QueenFormData> {
  const [kind, id] = "queenId" in target ? ["edit", target.queenId] : ["new", target.hiveId];
  return useLiveQuery(
    async (c): Promise<QueenFormData | undefined> => {
      if (kind === "edit") {
        const { queen } = await c.queens.getQueen({ id });
        if (queen === undefined) return undefined;
        const [hive, { queens }] = await Promise.all([
          orMissing(c.hives.getHive({ id: queen.hiveId }).then((r) => r.hive)),
          c.queens.listQueens({ hiveId: queen.hiveId }),
        ]);
        return { hive, queen, queens };
      }
      const [{ hive }, { queens }] = await Promise.all([
        c.hives.getHive({ id }),
        c.queens.listQueens({ hiveId: id, onlyActive: true }),
      ]);
      return hive && { hive, reigning: reigningQueen(queens) };
    },
    [kind, id],
  );
}

export interface TaskFormData {
  /** Every hive and apiary a task can be for. */
  readonly hives: readonly Hive[];
  readonly apiaries: readonly Apiary[];
  /** The task an edit changes; none for a new one. */
  readonly task?: Task;
}

/**
 * The task form (`/tasks/new`): every hive and apiary to choose from; not found when the link
 * it was opened from (`?hive=…`, `?apiary=…`) names one that is not on this device. For an edit
 * (`/tasks/:id/edit`, `taskId`) the task too; not found when it is not here.
 */
export function useTaskForm(origin: {
  readonly hive?: string;
  readonly apiary?: string;
  readonly taskId?: string;
}): Live<TaskFormData> {
  const { hive, apiary, taskId } = origin;
  return useLiveQuery(
    async (c): Promise<TaskFormData | undefined> => {
      const [hives, apiaries, task] = await Promise.all([
        allHives(c),
        allApiaries(c),
        taskId === undefined ? undefined : c.tasks.getTask({ id: taskId }).then((r) => r.task),
      ]);
      if (taskId !== undefined && task === undefined) return undefined;
      if (hive !== undefined && !hives.some((h) => h.id === hive)) return undefined;
      if (apiary !== undefined && !apiaries.some((a) => a.id === apiary)) return undefined;
      return task ? { hives, apiaries, task } : { hives, apiaries };
    },
    [hive, apiary, taskId],
  );
}

/** The apiary a hive stands at ("" for none): not found when there is none. */
export function useHiveApiary(apiaryId: string): Live<Apiary> {
  return useLiveQuery(
    async (c) =>
      apiaryId === "" ? undefined : (await c.apiaries.getApiary({ id: apiaryId })).apiary,
    [apiaryId],
  );
}

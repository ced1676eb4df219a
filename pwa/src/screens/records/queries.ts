/**
 * The record screens' live data: the task list with the names its rows show, and the hive a
 * record page is for (with the apiary its line names).
 */
import type { Apiary, Hive, Task } from "@hivekeep/proto";
import { type Live, useLiveQuery } from "../../app/client.tsx";
import { allApiaries, allHives, listAll } from "../../app/list-all.ts";
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

/** The hive a record page names; not found when it is not (or no longer) on the device. */
export function useRecordHive(id: string): Live<Hive> {
  return useLiveQuery(async (c) => (await c.hives.getHive({ id })).hive, [id]);
}

/** The apiary a hive stands at ("" for none): not found when there is none. */
export function useHiveApiary(apiaryId: string): Live<Apiary> {
  return useLiveQuery(
    async (c) =>
      apiaryId === "" ? undefined : (await c.apiaries.getApiary({ id: apiaryId })).apiary,
    [apiaryId],
  );
}

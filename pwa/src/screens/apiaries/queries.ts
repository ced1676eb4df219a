/** The apiary screens' live data. */
import type { Apiary, Hive } from "@hivekeep/proto";
import { type Live, useLiveQuery } from "../../app/client.tsx";
import { allApiaries, listAll } from "../../app/list-all.ts";

/** Every apiary on the device, in the service's order (by name), with its hive count. */
export function useApiaryList(): Live<Apiary[]> {
  return useLiveQuery(allApiaries, []);
}

export interface ApiaryPage {
  readonly apiary: Apiary;
  /** The hives standing there now. */
  readonly hives: readonly Hive[];
}

/** One apiary and its hives; not found when the apiary is not (or no longer) on the device. */
export function useApiaryPage(id: string): Live<ApiaryPage> {
  return useLiveQuery(
    async (c) => {
      const [{ apiary }, hives] = await Promise.all([
        c.apiaries.getApiary({ id }),
        listAll(
          (page) => c.hives.listHives({ apiaryId: id, page }),
          (r) => r.hives,
        ),
      ]);
      return apiary && { apiary, hives };
    },
    [id],
  );
}

/** The apiary an edit form changes; not found when it is not (or no longer) on the device. */
export function useApiaryForm(id: string): Live<Apiary> {
  return useLiveQuery(async (c) => (await c.apiaries.getApiary({ id })).apiary, [id]);
}

/**
 * The inspection screens' live reads, as one status each (`Live<T>`: loading, ready, not found,
 * failed). Screens only render them.
 */
import type { Apiary, Hive, Inspection, Queen } from "@hivekeep/proto";
import { type Live, orMissing, useLiveQuery } from "../../app/client.tsx";
import { type ColonyState, lastColonyState } from "./fields.ts";

/** One inspection and the hive, apiary and queen it names (each missing when deleted meanwhile). */
export interface InspectionPageData {
  readonly inspection: Inspection;
  readonly hive: Hive | undefined;
  readonly apiary: Apiary | undefined;
  readonly queen: Queen | undefined;
  /** Set when the inspection is deleted (issue 25): when, and whether on another device. */
  readonly deleted?: { readonly at: string; readonly elsewhere: boolean };
}

/** One inspection's page (`/inspections/:id`): the inspection, then what it names, at once. */
export function useInspectionPage(id: string): Live<InspectionPageData> {
  return useLiveQuery(
    async (c): Promise<InspectionPageData | undefined> => {
      // One deleted on another device shows as the replica last held it (issue 25).
      const live = await orMissing(c.inspections.getInspection({ id }).then((r) => r.inspection));
      const removed = live === undefined ? await c.removed.inspection(id) : undefined;
      const inspection = live ?? removed?.record;
      if (!inspection) return undefined;
      const [hive, apiary, queen] = await Promise.all([
        // A hive deleted on another device is still named, as the replica last held it.
        orMissing(c.hives.getHive({ id: inspection.hiveId }).then((r) => r.hive)).then(
          async (hive) => hive ?? (await c.removed.hive(inspection.hiveId))?.record,
        ),
        inspection.apiaryId
          ? orMissing(c.apiaries.getApiary({ id: inspection.apiaryId }).then((r) => r.apiary))
          : undefined,
        inspection.queenId
          ? orMissing(c.queens.getQueen({ id: inspection.queenId }).then((r) => r.queen))
          : undefined,
      ]);
      const deleted = removed && { at: removed.deletedAt, elsewhere: removed.elsewhere };
      return { inspection, hive, apiary, queen, ...(deleted ? { deleted } : {}) };
    },
    [id],
  );
}

export interface InspectionFormData {
  readonly hive: Hive;
  /** What the form starts from: the colony state of the hive's last inspection that noted one. */
  readonly prefill: ColonyState;
  /** That inspection; none when no inspection of the hive noted the colony's state. */
  readonly prefillFrom: Inspection | undefined;
}

/**
 * A new inspection of a hive (`/hives/:id/inspect`): the hive and the state it carries over;
 * not found when the hive is not (or no longer) on the device.
 */
export function useInspectionForm(hiveId: string): Live<InspectionFormData> {
  return useLiveQuery(
    async (c): Promise<InspectionFormData | undefined> => {
      const [{ hive }, last] = await Promise.all([
        c.hives.getHive({ id: hiveId }),
        lastColonyState((page) => c.inspections.listInspections({ hiveId, page })),
      ]);
      return hive && { hive, prefill: last.state, prefillFrom: last.from };
    },
    [hiveId],
  );
}

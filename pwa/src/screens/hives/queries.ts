/**
 * The hive screens' live reads: each screen's data in one query that runs again when the replica
 * changes, as one status (`Live<T>`: loading, ready, not found, failed). Screens only render it.
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import type { HiveAlert } from "@hivekeep/client-core/core";
import { maxEventLimit } from "@hivekeep/client-core/core";
import type { ReadingColumns } from "@hivekeep/client-core/ops";
import type {
  Apiary,
  Event,
  Harvest,
  Hive,
  Inspection,
  Queen,
  Task,
  Treatment,
} from "@hivekeep/proto";
import { type Live, orMissing, useClient, useLiveQuery } from "../../app/client.tsx";
import { allApiaries, allHives, listAll } from "../../app/list-all.ts";
import { useClock } from "../../app/now.tsx";
import { useWinterWeight } from "../../hooks/useWinterWeight.ts";
import { compareHives, placementHistory, reigningQueens } from "./hive-logic.ts";
import { apiaryIdsOf } from "./present.ts";

/** Everything one hive's page shows. Lists newest first, as the services order them. */
export interface HivePageData {
  readonly hive: Hive;
  /**
   * Set when the hive is deleted (issue 25): when (RFC 3339, "" when unknown), and whether on
   * another device.
   */
  readonly deleted?: { readonly at: string; readonly elsewhere: boolean };
  /** The names of the apiaries the page mentions; a deleted one is missing ("Unknown apiary"). */
  readonly apiaryNames: ReadonlyMap<string, string>;
  /** The beekeeper's visits, newest first (a scale's readings are not among them). */
  readonly visits: readonly Inspection[];
  /** The readings (measurements only) as columns, oldest first: the latest values. */
  readonly readings: ReadingColumns;
  /** What the charts draw: the readings and the measurements taken at visits, oldest first. */
  readonly measurements: ReadingColumns;
  /** Swarm and winter weight alerts of the hive now. */
  readonly alerts: readonly HiveAlert[];
  readonly queens: readonly Queen[];
  /** The open ones. */
  readonly tasks: readonly Task[];
  readonly treatments: readonly Treatment[];
  readonly harvests: readonly Harvest[];
  /** The timeline: every event but the readings' INSPECTION events. */
  readonly events: readonly Event[];
}

/**
 * One hive's page (`/hives/:id`): the hive, then its records in one round, then the names of
 * the apiaries they mention, each by id (usually one or two: not every apiary of the account).
 * Visits, readings and the timeline come from one pass over the hive's inspections through the
 * replica's index (`client.history.hive`, issue 29); the charts draw from those readings, and
 * the weight alerts are scanned from the same rows (issue 29: the page read the hive's last week
 * a second time for them). The alerts use the winter weight of this device (`thresholdKg`).
 */
export function useHivePage(id: string): Live<HivePageData> {
  const clock = useClock();
  const c0 = useClient();
  const thresholdKg = useWinterWeight(c0.organizationId);
  return useLiveQuery(
    async (c): Promise<HivePageData | undefined> => {
      // A hive deleted on another device shows as the replica last held it (issue 25).
      const live = await orMissing(c.hives.getHive({ id }).then((r) => r.hive));
      const removed = live === undefined ? await c.removed.hive(id) : undefined;
      const hive = live ?? removed?.record;
      if (hive === undefined) return undefined;
      const [history, queens, tasks, treatments, harvests] = await Promise.all([
        // The alerts from the same pass over the hive's rows (not a second read of its week).
        c.history.hive(id, { now: clock(), thresholdKg }),
        listAll(
          (page) => c.queens.listQueens({ hiveId: id, page }),
          (r) => r.queens,
        ),
        listAll(
          (page) => c.tasks.listTasks({ hiveId: id, onlyOpen: true, page }),
          (r) => r.tasks,
        ),
        listAll(
          (page) => c.treatments.listTreatments({ hiveId: id, page }),
          (r) => r.treatments,
        ),
        listAll(
          (page) => c.harvests.listHarvests({ hiveId: id, page }),
          (r) => r.harvests,
        ),
      ]);
      const { visits, readings, measurements, events, alerts } = history;
      const apiaryNames = await apiaryNamesOf(c, apiaryIdsOf(hive, events));
      return {
        hive,
        ...(removed ? { deleted: { at: removed.deletedAt, elsewhere: removed.elsewhere } } : {}),
        apiaryNames,
        visits,
        readings,
        measurements,
        alerts,
        queens,
        tasks,
        treatments,
        harvests,
        events,
      };
    },
    [id, thresholdKg, clock],
  );
}

/** The names of these apiaries; one deleted meanwhile (not found) is left out. */
async function apiaryNamesOf(
  c: HivekeepClient,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const apiaries = await Promise.all(
    ids.map((id) => orMissing(c.apiaries.getApiary({ id }).then((r) => r.apiary))),
  );
  return new Map(apiaries.flatMap((a) => (a ? [[a.id, a.name] as const] : [])));
}

/** A hive in the list, with the date of its last visit (a scale's readings do not count). */
export interface HiveRow {
  readonly hive: Hive;
  readonly lastInspection: Date | undefined;
}

export interface HiveListData {
  /** Kept hives first, then lost and dissolved ones, each by name. */
  readonly hives: readonly HiveRow[];
  readonly apiaryNames: ReadonlyMap<string, string>;
  /** The reigning queen of each hive that has one. */
  readonly queenOf: ReadonlyMap<string, Queen>;
  /** Every treatment: each hive's running withdrawal period is shown with its end (issue 26). */
  readonly treatments: readonly Treatment[];
}

/**
 * The hive list (`/hives`): every hive, apiary and active queen, and each hive's last visit by
 * the inspections' hive index, newest first up to the first visit (`client.history.lastVisits`:
 * a scale's readings are no visit, so a hive with a scale and no visit for three weeks is due).
 */
export function useHiveList(): Live<HiveListData> {
  return useLiveQuery(async (c) => {
    const [hives, apiaries, queens, treatments] = await Promise.all([
      allHives(c),
      allApiaries(c),
      listAll(
        (page) => c.queens.listQueens({ onlyActive: true, page }),
        (r) => r.queens,
      ),
      listAll(
        (page) => c.treatments.listTreatments({ page }),
        (r) => r.treatments,
      ),
    ]);
    const last = await c.history.lastVisits(hives.map((h) => h.id));
    return {
      hives: hives
        .map((hive) => {
          const at = last.get(hive.id);
          return { hive, lastInspection: at === undefined ? undefined : new Date(at) };
        })
        .sort((a, b) => compareHives(a.hive, b.hive)),
      apiaryNames: new Map(apiaries.map((a) => [a.id, a.name])),
      queenOf: reigningQueens(queens),
      treatments,
    };
  }, []);
}

export interface RelocateData {
  readonly hive: Hive;
  /** Every apiary: the one it stands at, and those it can move to. */
  readonly apiaries: readonly Apiary[];
  /** When it arrived where it stands, when that is on record. */
  readonly arrived: Date | undefined;
}

/** Moving a hive (`/hives/:id/relocate`): the hive, every apiary, and since when it stands there. */
export function useRelocateHive(id: string): Live<RelocateData> {
  return useLiveQuery(
    async (c): Promise<RelocateData | undefined> => {
      // A hive deleted on another device shows as the replica last held it (issue 25).
      const live = await orMissing(c.hives.getHive({ id }).then((r) => r.hive));
      const removed = live === undefined ? await c.removed.hive(id) : undefined;
      const hive = live ?? removed?.record;
      if (hive === undefined) return undefined;
      const [apiaries, events] = await Promise.all([
        allApiaries(c),
        c.events.listEvents({ hiveId: id, limit: maxEventLimit }).then((r) => r.events),
      ]);
      const stays = placementHistory(events);
      const current = stays[0]?.apiaryId === hive.apiaryId ? stays[0] : undefined;
      return { hive, apiaries, arrived: current?.from };
    },
    [id],
  );
}

export interface HiveFormData {
  /** The hive an edit changes; none for a new hive. */
  readonly hive?: Hive;
  /** Every apiary: those a new hive can stand at, and the one an edited hive stands at. */
  readonly apiaries: readonly Apiary[];
}

/**
 * The hive form (`/hives/new`, `/hives/:id/edit`): every apiary, and the hive when `id` names
 * one; not found when that hive is not (or no longer) on the device.
 */
export function useHiveForm(id: string | undefined): Live<HiveFormData> {
  return useLiveQuery(
    async (c): Promise<HiveFormData | undefined> => {
      const [apiaries, hive] = await Promise.all([
        allApiaries(c),
        id === undefined ? undefined : c.hives.getHive({ id }).then((r) => r.hive),
      ]);
      if (id === undefined) return { apiaries };
      return hive && { hive, apiaries };
    },
    [id],
  );
}

/**
 * The overview's live data, in one query: GetDashboard (figures, next tasks, the honey history),
 * the season's GetHoneyStats, and what the lists name (hives, apiaries, queens) read in one list
 * each and joined by id (present.ts), never one read per listed row. Due hives and recent
 * inspections count visits only (issue 29; GetDashboard counts a scale's readings, as the
 * contract says): each hive's last visit and the newest visits come from `client.history`, the
 * due list from client-core's one due rule (ops/due.ts); the weight alerts of every hive too.
 *
 * GetDashboard reads the whole replica (about 2 s on a phone for a big one): the answer is kept
 * (`keep`), so coming back to the overview shows the last one at once while it runs again.
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import type { HiveAlert } from "@hivekeep/client-core/core";
import { dueHives } from "@hivekeep/client-core/ops";
import type { GetDashboardResponse, Hive, HoneyStat, Treatment } from "@hivekeep/proto";
import { type Live, useClient, useLiveQuery } from "../../app/client.tsx";
import { allApiaries, allHives, listAll } from "../../app/list-all.ts";
import { useClock } from "../../app/now.tsx";
import { useWinterWeight } from "../../hooks/useWinterWeight.ts";
import { dueAfterDays } from "../hives/hive-logic.ts";
import { joinQueenHoney, joinRecent, type QueenHoney, type Recent } from "./present.ts";

/** A hive is due after this many days without an inspection (as on the hive list). */
export const thresholdDays = dueAfterDays;

/** The best queens of the season the overview lists. */
const queensShown = 5;

/** A hive due for a visit, as the due list shows it. */
export interface DueHive {
  readonly hiveId: string;
  readonly hiveName: string;
  readonly apiaryName: string;
  /** Whole days since the last visit; -1: never visited. */
  readonly daysSinceLast: number;
}

/** Recent visits the overview lists (GetDashboard's number). */
const recentShown = 10;

export interface Dashboard {
  readonly d: GetDashboardResponse;
  /** Hives whose last visit is `thresholdDays` old or more, never visited first. */
  readonly due: readonly DueHive[];
  /** Weight alerts per hive, in the hives' order. */
  readonly alerts: readonly { readonly hive: Hive; readonly alerts: readonly HiveAlert[] }[];
  /** The recent visits, newest first, with their hive's name and what they hold. */
  readonly recent: readonly Recent[];
  /** The honey of `year` per apiary (GetHoneyStats' labels). */
  readonly perApiary: readonly HoneyStat[];
  /** The best queens of `year`, with their year, marking and hive. */
  readonly queens: readonly QueenHoney[];
  /** Every treatment (the running withdrawal periods are derived with core's one rule). */
  readonly treatments: readonly Treatment[];
  readonly hives: readonly Hive[];
}

/** Everything the overview shows; `year` is the season of the honey tables. */
export function useDashboard(year: number): Live<Dashboard> {
  const clock = useClock();
  const thresholdKg = useWinterWeight(useClient().organizationId);
  return useLiveQuery(
    (c) => readDashboard(c, year, clock(), thresholdKg),
    [year, clock, thresholdKg],
    {
      keep: `dashboard-${year}`,
    },
  );
}

async function readDashboard(
  c: HivekeepClient,
  year: number,
  now: Date,
  thresholdKg: number | undefined,
): Promise<Dashboard> {
  const [d, honey, hives, apiaries, queens, treatments, recentVisits] = await Promise.all([
    c.stats.getDashboard({ thresholdDays }),
    c.stats.getHoneyStats({ year }),
    allHives(c),
    allApiaries(c),
    listAll(
      (page) => c.queens.listQueens({ page }),
      (r) => r.queens,
    ),
    listAll(
      (page) => c.treatments.listTreatments({ page }),
      (r) => r.treatments,
    ),
    c.history.recentVisits(recentShown),
  ]);
  const ids = hives.map((h) => h.id);
  const [lastVisits, alerts] = await Promise.all([
    c.history.lastVisits(ids),
    c.history.alerts(ids, now, thresholdKg),
  ]);
  const apiaryName = new Map(apiaries.map((a) => [a.id, a.name]));
  const due = dueHives(
    hives,
    { id: (h) => h.id, name: (h) => h.name },
    new Map([...lastVisits].map(([id, at]) => [id, Date.parse(at)])),
    now.getTime(),
    thresholdDays,
  );
  return {
    d,
    due: due.map(({ hive, days }) => ({
      hiveId: hive.id,
      hiveName: hive.name,
      apiaryName: apiaryName.get(hive.apiaryId) ?? "",
      daysSinceLast: days,
    })),
    alerts: hives.flatMap((hive) => {
      const found = alerts.get(hive.id);
      return found ? [{ hive, alerts: found }] : [];
    }),
    recent: joinRecent(recentVisits, hives),
    perApiary: honey.perApiary,
    queens: joinQueenHoney(honey.perQueen.slice(0, queensShown), queens, hives),
    treatments,
    hives,
  };
}

/**
 * The overview's live data, in one query: GetDashboard (figures, due hives, next tasks, the ids
 * of the recent visits, the honey history), the season's GetHoneyStats, and what the recent list
 * and the best queens name (their hives, inspections and queens) read in one list each and
 * joined by id (present.ts), never one read per listed row.
 *
 * GetDashboard reads the whole replica (about 2 s on a phone for a big one): the answer is kept
 * (`keep`), so coming back to the overview shows the last one at once while it runs again.
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import type { GetDashboardResponse, Hive, HoneyStat, Inspection, Treatment } from "@hivekeep/proto";
import { type Live, orMissing, useLiveQuery } from "../../app/client.tsx";
import { allHives, listAll } from "../../app/list-all.ts";
import { dueAfterDays } from "../hives/hive-logic.ts";
import { joinQueenHoney, joinRecent, type QueenHoney, type Recent } from "./present.ts";

/** A hive is due after this many days without an inspection (as on the hive list). */
export const thresholdDays = dueAfterDays;

/** The best queens of the season the overview lists. */
const queensShown = 5;

export interface Dashboard {
  readonly d: GetDashboardResponse;
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
  return useLiveQuery((c) => readDashboard(c, year), [year], { keep: `dashboard-${year}` });
}

async function readDashboard(c: HivekeepClient, year: number): Promise<Dashboard> {
  const [d, honey, hives, queens, treatments] = await Promise.all([
    c.stats.getDashboard({ thresholdDays }),
    c.stats.getHoneyStats({ year }),
    allHives(c),
    listAll(
      (page) => c.queens.listQueens({ page }),
      (r) => r.queens,
    ),
    listAll(
      (page) => c.treatments.listTreatments({ page }),
      (r) => r.treatments,
    ),
  ]);
  const inspections = await recentInspections(
    c,
    d.recentInspections.map((r) => r.id),
  );
  return {
    d,
    recent: joinRecent(d.recentInspections, hives, inspections),
    perApiary: honey.perApiary,
    queens: joinQueenHoney(honey.perQueen.slice(0, queensShown), queens, hives),
    treatments,
    hives,
  };
}

/**
 * The recent visits' inspections: the newest page of ListInspections holds them (both are newest
 * first); one the page misses (several visits at the same instant at the page's end, ordered
 * apart) is read on its own. An inspection gone meanwhile is left out.
 */
async function recentInspections(c: HivekeepClient, ids: readonly string[]): Promise<Inspection[]> {
  if (ids.length === 0) return [];
  const page = await c.inspections.listInspections({
    page: { pageSize: ids.length, pageToken: "" },
  });
  const found = new Set(page.inspections.map((i) => i.id));
  const missed = await Promise.all(
    ids
      .filter((id) => !found.has(id))
      .map((id) => orMissing(c.inspections.getInspection({ id }).then((r) => r.inspection))),
  );
  return [...page.inspections, ...missed.filter((i) => i !== undefined)];
}

/** The server's StatsSource (client-core ops/stats-source.ts): the figures in SQL, one snapshot. */
import type { StatsSource } from "@hivekeep/client-core/ops";
import type { Db, Queryable } from "../db/db.ts";
import {
  dashboardCounts,
  dueInspections,
  honeyHistory,
  honeyPerApiary,
  honeyPerQueen,
  honeyPerYear,
  nextTasks,
  recentInspections,
} from "./stats.ts";

/** Reads in one snapshot, so the figures of one answer agree with each other. */
function snapshot<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query("set transaction isolation level repeatable read, read only");
    return fn(tx);
  });
}

const iso = (d: Date | string): string => new Date(d).toISOString();

export function sqlStats(db: Db, organizationId: string): StatsSource {
  return {
    dashboard: (q) =>
      snapshot(db, async (tx) => {
        const counts = await dashboardCounts(tx, organizationId, q.userId, q.now);
        const due = await dueInspections(tx, organizationId, q.now, q.thresholdDays);
        const tasks = await nextTasks(tx, organizationId, q.userId, q.nextTaskCount);
        const recent = await recentInspections(tx, organizationId, q.recentInspectionCount);
        const history = await honeyHistory(tx, organizationId);
        return {
          ...counts,
          dueInspections: due.map((d) => ({
            hiveId: d.hive_id,
            hiveName: d.hive_name,
            apiaryName: d.apiary_name,
            daysSinceLast: d.days_since_last,
          })),
          nextTasks: tasks.map((t) => ({
            id: t.id,
            title: t.title,
            dueAt: t.due_at === null ? null : iso(t.due_at),
          })),
          recentInspections: recent.map((i) => ({
            id: i.id,
            hiveId: i.hive_id,
            date: iso(i.date),
          })),
          honeyHistory: history,
        };
      }),
    honey: (year) =>
      snapshot(db, async (tx) => ({
        perQueen: await honeyPerQueen(tx, organizationId, year),
        perApiary: await honeyPerApiary(tx, organizationId, year),
        perYear: await honeyPerYear(tx, organizationId, year),
      })),
  };
}

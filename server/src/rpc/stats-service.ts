/**
 * StatsService (contract §4.10): the dashboard and honey statistics. Every
 * figure is computed in SQL (store/stats.ts); "now" is the server clock's.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  GetDashboardResponseSchema,
  GetHoneyStatsResponseSchema,
  type StatsService,
} from "@hivekeep/proto";
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
} from "../store/stats.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";
import { invalidArgument } from "./errors.ts";
import { toTimestamp } from "./mapping.ts";

export const defaultThresholdDays = 21;
/** Dashboard list sizes (contract §8). */
export const nextTaskCount = 5;
export const recentInspectionCount = 10;

/** Reads in one snapshot, so the figures of one answer agree with each other. */
function snapshot<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query("set transaction isolation level repeatable read, read only");
    return fn(tx);
  });
}

export function statsService(deps: Deps): ServiceImpl<typeof StatsService> {
  const { db } = deps;
  return {
    async getDashboard(req, ctx) {
      const { organizationId, userId } = callerOf(ctx);
      if (req.thresholdDays < 0) throw invalidArgument("thresholdDays must not be negative");
      const threshold = req.thresholdDays === 0 ? defaultThresholdDays : req.thresholdDays;
      const now = new Date(deps.clock.nowMs()).toISOString();
      return snapshot(db, async (tx) => {
        const counts = await dashboardCounts(tx, organizationId, userId, now);
        const due = await dueInspections(tx, organizationId, now, threshold);
        const tasks = await nextTasks(tx, organizationId, userId, nextTaskCount);
        const recent = await recentInspections(tx, organizationId, recentInspectionCount);
        const history = await honeyHistory(tx, organizationId);
        return create(GetDashboardResponseSchema, {
          ...counts,
          dueInspections: due.map((d) => ({
            hiveId: d.hive_id,
            hiveName: d.hive_name,
            apiaryName: d.apiary_name,
            daysSinceLast: d.days_since_last,
          })),
          nextTasks: tasks.map((t) => ({ id: t.id, title: t.title, dueAt: toTimestamp(t.due_at) })),
          recentInspections: recent.map((i) => ({
            id: i.id,
            hiveId: i.hive_id,
            date: timestampFromDate(i.date),
          })),
          honeyHistory: history,
        });
      });
    },

    async getHoneyStats(req, ctx) {
      const { organizationId } = callerOf(ctx);
      if (req.year < 0) throw invalidArgument("year must not be negative (0 means all years)");
      return snapshot(db, async (tx) =>
        create(GetHoneyStatsResponseSchema, {
          perQueen: await honeyPerQueen(tx, organizationId, req.year),
          perApiary: await honeyPerApiary(tx, organizationId, req.year),
          perYear: await honeyPerYear(tx, organizationId, req.year),
        }),
      );
    },
  };
}

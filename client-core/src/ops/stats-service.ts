/**
 * StatsService (contract §4.10, §8) over the session's StatsSource (SQL on the server, local-stats
 * on a device): validation, defaults (thresholdDays 21; the next 5 open tasks; the 10 latest
 * inspections), "now" from the session's clock, and the mapping of the figures to proto.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  GetDashboardResponseSchema,
  GetHoneyStatsResponseSchema,
  type StatsService,
} from "@hivekeep/proto";
import { invalidArgument } from "./errors.ts";
import type { SessionOf } from "./session.ts";
import type { HoneyFigures } from "./stats-source.ts";

export const defaultThresholdDays = 21;
/** Dashboard list sizes (contract §8). */
export const nextTaskCount = 5;
export const recentInspectionCount = 10;

const timestamp = (iso: string) => timestampFromDate(new Date(iso));

export function statsService(sessionOf: SessionOf): ServiceImpl<typeof StatsService> {
  return {
    async getDashboard(req, ctx) {
      const s = sessionOf(ctx);
      if (req.thresholdDays < 0) throw invalidArgument("thresholdDays must not be negative");
      const d = await s.stats.dashboard({
        userId: s.userId,
        now: s.now().toISOString(),
        thresholdDays: req.thresholdDays === 0 ? defaultThresholdDays : req.thresholdDays,
        nextTaskCount,
        recentInspectionCount,
      });
      return create(GetDashboardResponseSchema, {
        apiaries: d.apiaries,
        hives: d.hives,
        activeQueens: d.activeQueens,
        openTasks: d.openTasks,
        overdueTasks: d.overdueTasks,
        honeyKgSeason: d.honeyKgSeason,
        dueInspections: d.dueInspections.map((x) => ({ ...x })),
        nextTasks: d.nextTasks.map((t) => ({
          id: t.id,
          title: t.title,
          dueAt: t.dueAt === null ? undefined : timestamp(t.dueAt),
        })),
        recentInspections: d.recentInspections.map((i) => ({
          id: i.id,
          hiveId: i.hiveId,
          date: timestamp(i.date),
        })),
        honeyHistory: d.honeyHistory.map((m) => ({ ...m })),
      });
    },

    async getHoneyStats(req, ctx) {
      const s = sessionOf(ctx);
      if (req.year < 0) throw invalidArgument("year must not be negative (0 means all years)");
      const h = await s.stats.honey(req.year);
      const stats = (list: HoneyFigures[keyof HoneyFigures]) => list.map((x) => ({ ...x }));
      return create(GetHoneyStatsResponseSchema, {
        perQueen: stats(h.perQueen),
        perApiary: stats(h.perApiary),
        perYear: stats(h.perYear),
      });
    },
  };
}

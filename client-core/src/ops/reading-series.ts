/**
 * InspectionService.GetReadingSeries (beside the contract, issue 29): a hive's measurements
 * over a long range as per-bucket aggregates, by the one rule of core/reading-series.ts. Where
 * it runs decides only how the rows are read: the server in SQL (`OpsSession.series`,
 * server/src/store/reading-series-sql.ts), a device over its replica with `localSeries`.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  type GetReadingSeriesRequest,
  type GetReadingSeriesResponse,
  GetReadingSeriesResponseSchema,
  type MeasurementStats,
  MeasurementStatsSchema,
} from "@hivekeep/proto";
import { notFound } from "../core/domain-error.ts";
import {
  type ColumnStats,
  readingSeries,
  type SeriesBucket,
  type SeriesRow,
  seriesColumns,
  seriesRange,
} from "../core/reading-series.ts";
import type { OrderTerm } from "./query.ts";
import type { ReplicaReader, ReplicaStore } from "./replica-store.ts";
import type { OpsSession } from "./session.ts";
import { isoOf, isoOr } from "./timestamps.ts";

/** Where a series' rows are read: the buckets of one hive's live inspections in `[from, to)`. */
export interface SeriesSource {
  series(hiveId: string, fromMs: number, toMs: number, bucketDays: number): Promise<SeriesBucket[]>;
}

const byDate: OrderTerm[] = [{ column: "date" }, { column: "id" }];
const pageSize = 25_000;

/** The rule's rows of one hive from a replica: its live inspections, oldest first, up to `toMs`. */
export async function seriesRows(
  r: ReplicaReader,
  hiveId: string,
  toMs: number,
): Promise<SeriesRow[]> {
  const rows: SeriesRow[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await r.list("inspection", {
      where: [{ column: "hive_id", eq: hiveId }],
      orderBy: byDate,
      offset,
      limit: pageSize,
    });
    for (const row of page.rows) {
      const at = typeof row.values.date === "string" ? Date.parse(row.values.date) : Number.NaN;
      if (Number.isNaN(at)) continue;
      if (at >= toMs) return rows;
      rows.push({ id: row.id, at, values: row.values });
    }
    if (page.rows.length < pageSize) return rows;
  }
}

/** The series over any replica store (a device's, the memory store): the rule in TypeScript. */
export function localSeries(store: ReplicaStore): SeriesSource {
  return {
    series: (hiveId, fromMs, toMs, bucketDays) =>
      store.read(async (r) =>
        readingSeries(await seriesRows(r, hiveId, toMs), fromMs, toMs, bucketDays),
      ),
  };
}

const statsOf = (c: ColumnStats | undefined): MeasurementStats | undefined =>
  c && create(MeasurementStatsSchema, { count: c.count, min: c.min, max: c.max, mean: c.mean });

/** The answer's message of some buckets. */
export function seriesResponse(
  buckets: readonly SeriesBucket[],
  bucketDays: number,
): GetReadingSeriesResponse {
  return create(GetReadingSeriesResponseSchema, {
    bucketDays,
    buckets: buckets.map((b) => ({
      start: timestampFromMs(b.start),
      count: b.count,
      weightKg: statsOf(b.columns.weight_kg),
      tempHive: statsOf(b.columns.temp_hive),
      tempOutside: statsOf(b.columns.temp_outside),
      humidityHive: statsOf(b.columns.humidity_hive),
      humidityOutside: statsOf(b.columns.humidity_outside),
    })),
  });
}

/** The buckets of an answer (the inverse of `seriesResponse`). */
export function bucketsOf(res: GetReadingSeriesResponse): SeriesBucket[] {
  return res.buckets.map((b) => {
    const columns: SeriesBucket["columns"] = {};
    const from = {
      weight_kg: b.weightKg,
      temp_hive: b.tempHive,
      temp_outside: b.tempOutside,
      humidity_hive: b.humidityHive,
      humidity_outside: b.humidityOutside,
    };
    for (const c of seriesColumns) {
      const s = from[c];
      if (s) columns[c] = { count: s.count, min: s.min, max: s.max, mean: s.mean };
    }
    const start = b.start ? Number(b.start.seconds) * 1000 + Math.floor(b.start.nanos / 1e6) : 0;
    return { start, count: b.count, columns };
  });
}

export async function getReadingSeries(
  s: OpsSession,
  req: GetReadingSeriesRequest,
): Promise<GetReadingSeriesResponse> {
  const from = req.from ? Date.parse(isoOf(req.from, "from")) : undefined;
  const to = Date.parse(isoOr(req.to, s.now(), "to"));
  const range = seriesRange(from, to, req.bucketDays);
  const hive = await s.store.read((r) => r.get("hive", req.hiveId));
  if (hive === undefined) throw notFound("hive", req.hiveId);
  const source = s.series ?? localSeries(s.store);
  const buckets = await source.series(req.hiveId, range.fromMs, range.toMs, range.bucketDays);
  return seriesResponse(buckets, range.bucketDays);
}

/**
 * A hive's measurements over years on a device (issue 29): `client.readings.series`. A device
 * holds the readings of its readings window only (Pull's `reading_days`, default 14 days), so:
 *
 * - **Days in the window** (from `cutoff`, the first UTC midnight inside it, on) are computed
 *   from the replica's rows with the one rule (core/reading-series.ts): what the device holds is
 *   what it draws, its own unsynced writes included.
 * - **Days before the window** are `InspectionService.GetReadingSeries` day buckets, fetched from
 *   the server and kept in the `series` table with the range fetched and when (`seriesRanges`),
 *   so the chart draws them offline.
 * - **Refresh**: a range is fetched again when its fetch is older than `seriesRefreshMs` (6 h) and
 *   the device is online; a range that grew at its end (a day left the window) fetches only the
 *   new days while fresh. Old days change only by a scale's late backlog, an edit of an old visit
 *   or another device's hand weighing: a few hours of delay costs a chart of years nothing, and a
 *   hive page then asks the server about once per 6 hours (about 0.2–0.3 s of SQL for 3 years).
 * - **Offline, or the server refused**: the cached buckets, even stale; the days no fetch ever
 *   covered are computed from whatever rows the replica holds (on a device that still holds
 *   old readings, all of them).
 */
import { ConnectError } from "@connectrpc/connect";
import { Dexie } from "dexie";
import { entities } from "../core/entities.ts";
import {
  bucketStart,
  readingSeries,
  type SeriesBucket,
  type SeriesRow,
  seriesDayMs,
} from "../core/reading-series.ts";
import { readingsCutoffMs } from "../core/readings-window.ts";
import { pointsTableOf } from "./reading-points.ts";
import {
  type CachedSeriesRange,
  type DeviceRow,
  orderedIndexName,
  packBucket,
  type ReplicaDb,
  unpackBucket,
} from "./replica-db.ts";

/** A fetched range is fetched again after this long (when online). */
export const seriesRefreshMs = 6 * 3_600_000;

export interface HiveSeries {
  /** Day buckets of [from, to), oldest first. */
  readonly buckets: SeriesBucket[];
  /**
   * Unix ms: the first day computed from the replica's readings (the window); the buckets
   * before it are the server's. The chart draws the readings themselves from here.
   */
  readonly cutoff: number;
  /** When the server's buckets were fetched; undefined when none are held for the range. */
  readonly fetchedAt: number | undefined;
}

export interface SeriesOptions {
  /**
   * Only the days before the window (a chart that draws the window's readings themselves
   * need not read them twice).
   */
  readonly beforeWindow?: boolean;
}

export interface ReadingSeriesCache {
  /** The hive's day buckets over [fromMs, toMs), widened to whole UTC days. */
  series(
    hiveId: string,
    fromMs: number,
    toMs: number,
    options?: SeriesOptions,
  ): Promise<HiveSeries>;
  /**
   * Fetches ahead what `series` over [fromMs, toMs) would fetch now (a range missing, stale or
   * too short) for every hive the replica holds readings of (its reading points), so their long
   * charts draw at once and offline: the leader runs it after a sync (create-client.ts). A hive
   * whose range is fresh is not read; offline nothing is asked. Resolves to the hives fetched.
   */
  keepAhead(fromMs: number, toMs: number): Promise<number>;
}

export interface SeriesCacheDeps {
  readonly db: ReplicaDb;
  /** GetReadingSeries in day buckets over [from, to); throws ConnectError. */
  readonly fetch: (hiveId: string, fromMs: number, toMs: number) => Promise<SeriesBucket[]>;
  readonly now: () => number;
  /** Whether the sync engine last reached the server. */
  readonly online: () => boolean;
  /** The readings window in days (HivekeepClientOptions.readingDays). */
  readonly readingDays: () => number;
}

/** The first UTC midnight at or after `ms`. */
const dayCeil = (ms: number): number => {
  const floor = bucketStart(ms, 1);
  return floor === ms ? ms : floor + seriesDayMs;
};

/**
 * Where the readings window begins: the cutoff a windowed Pull answers (core/readings-window.ts),
 * the start of the UTC day `days` days before today. The replica holds every reading from it on.
 */
export const windowCutoff = readingsCutoffMs;

/** The hive's live inspections dated in [fromMs, toMs), by the `[hive, date]` index. */
export async function localSeriesRows(
  db: ReplicaDb,
  hiveId: string,
  fromMs: number,
  toMs: number,
): Promise<SeriesRow[]> {
  if (fromMs >= toMs) return [];
  const rows = (await db
    .table<DeviceRow, string>(entities.inspection.table)
    .where(orderedIndexName({ filter: "hive_id", order: "date" }))
    .between(
      [1, hiveId, new Date(fromMs).toISOString()],
      [1, hiveId, new Date(toMs).toISOString()],
      true,
      false,
    )
    .toArray()) as DeviceRow[];
  return rows.map((r) => ({ id: r.id, at: Date.parse(String(r.values.date)), values: r.values }));
}

export function readingSeriesCache(deps: SeriesCacheDeps): ReadingSeriesCache {
  const { db } = deps;

  async function local(hiveId: string, from: number, to: number): Promise<SeriesBucket[]> {
    if (from >= to) return [];
    return readingSeries(await localSeriesRows(db, hiveId, from, to), from, to, 1);
  }

  async function cached(hiveId: string, from: number, to: number): Promise<SeriesBucket[]> {
    if (from >= to) return [];
    const rows = await db.series
      .where("[hiveId+start]")
      .between([hiveId, from], [hiveId, to], true, false)
      .toArray();
    return rows.map(unpackBucket);
  }

  /** Fetches [from, to) and puts it in place of what was cached there; false when it cannot. */
  async function fetchInto(hiveId: string, from: number, to: number): Promise<boolean> {
    let buckets: SeriesBucket[];
    try {
      buckets = await deps.fetch(hiveId, from, to);
    } catch (err) {
      // Offline, or refused (a hive made offline that the server does not know yet).
      if (err instanceof ConnectError) return false;
      throw err;
    }
    await db.transaction("rw", db.series, async () => {
      await db.series
        .where("[hiveId+start]")
        .between([hiveId, from], [hiveId, to], true, false)
        .delete();
      await db.series.bulkPut(buckets.map((b) => packBucket(hiveId, b)));
    });
    return true;
  }

  /** Whether the range held for the hive answers [from, to) without a fetch. */
  const answers = (range: CachedSeriesRange | undefined, from: number, to: number) =>
    range !== undefined &&
    deps.now() - range.fetchedAt < seriesRefreshMs &&
    range.from <= from &&
    range.to >= to;

  /** The range held for [from, to) of the hive, fetched first when missing or stale (online). */
  async function ensure(
    hiveId: string,
    from: number,
    to: number,
  ): Promise<CachedSeriesRange | undefined> {
    const now = deps.now();
    let range = await db.seriesRanges.get(hiveId);
    const fresh = range !== undefined && now - range.fetchedAt < seriesRefreshMs;
    if (!answers(range, from, to) && deps.online()) {
      if (fresh && range !== undefined && range.from <= from && range.to < to) {
        // Fresh but a day or more left the window since: only the new days.
        if (await fetchInto(hiveId, range.to, to)) {
          range = { ...range, to };
          await db.seriesRanges.put(range);
        }
      } else if (await fetchInto(hiveId, from, to)) {
        range = { hiveId, from, to, fetchedAt: now };
        await db.seriesRanges.put(range);
      }
    }
    return range;
  }

  /** The days before the window a series of [fromMs, toMs) asks the server for. */
  const oldSpan = (fromMs: number, toMs: number): [number, number] => [
    bucketStart(fromMs, 1),
    Math.min(dayCeil(toMs), windowCutoff(deps.now(), deps.readingDays())),
  ];

  /** The server's buckets of [from, to), fetched when missing or stale, else as cached. */
  async function old(
    hiveId: string,
    from: number,
    to: number,
  ): Promise<{ buckets: SeriesBucket[]; fetchedAt: number | undefined }> {
    const range = await ensure(hiveId, from, to);
    if (range === undefined)
      return { buckets: await local(hiveId, from, to), fetchedAt: undefined };
    // What no fetch covered comes from the replica's rows.
    const lo = Math.max(from, range.from);
    const hi = Math.min(to, range.to);
    if (lo >= hi) return { buckets: await local(hiveId, from, to), fetchedAt: undefined };
    const buckets = [
      ...(await local(hiveId, from, lo)),
      ...(await cached(hiveId, lo, hi)),
      ...(await local(hiveId, hi, to)),
    ];
    return { buckets, fetchedAt: range.fetchedAt };
  }

  return {
    async series(hiveId, fromMs, toMs, options) {
      const [from, oldTo] = oldSpan(fromMs, toMs);
      const to = dayCeil(toMs);
      const cutoff = windowCutoff(deps.now(), deps.readingDays());
      const past =
        from < oldTo ? await old(hiveId, from, oldTo) : { buckets: [], fetchedAt: undefined };
      const recent = options?.beforeWindow ? [] : await local(hiveId, Math.max(from, cutoff), to);
      return { buckets: [...past.buckets, ...recent], cutoff, fetchedAt: past.fetchedAt };
    },

    async keepAhead(fromMs, toMs) {
      const [from, to] = oldSpan(fromMs, toMs);
      if (from >= to || !deps.online()) return 0;
      const points = pointsTableOf(db);
      const hives = (await db.table(entities.hive.table).toCollection().primaryKeys()) as string[];
      let fetched = 0;
      for (const hiveId of hives) {
        if (!deps.online()) break;
        if (answers(await db.seriesRanges.get(hiveId), from, to)) continue;
        const held = await points
          .where("[hiveId+at]")
          .between([hiveId, Dexie.minKey], [hiveId, Dexie.maxKey])
          .first();
        if (held === undefined) continue;
        const range = await ensure(hiveId, from, to);
        if (answers(range, from, to)) fetched++;
      }
      return fetched;
    },
  };
}

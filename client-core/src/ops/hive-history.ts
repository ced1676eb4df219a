/**
 * The app's read side of readings and visits (issue 29): what the hive page, the hive list and
 * the overview show, over the store port, with the one rule of core/inspection-kind.ts. The
 * contract's operations are not changed by any of it (ListInspections still lists readings,
 * GetDashboard still counts them); these reads sit beside them, device-side.
 *
 * Every read goes through an index of the replica: inspections by `[hive, date]` (or `date`)
 * windows read in pages, events by `type` (the few that are not INSPECTION, tenant-wide) and by
 * `ref_id` (the visits' own). A hive's readings are read once, page by page, into plain columns
 * (numbers, not messages), so three years of 15-minute readings are a few arrays, not 105,000
 * proto messages.
 */
import {
  type Event,
  EventSchema,
  EventType,
  type Inspection,
  InspectionSchema,
} from "@hivekeep/proto";
import {
  type Hemisphere,
  type HiveAlert,
  hemisphereOf,
  recentAlerts,
  starvingAlert,
  swarmAlerts,
  swarmWindowMs,
  type WeightPoint,
  winterStart,
} from "../core/hive-alerts.ts";
import { isReadingRow, measurementColumns } from "../core/inspection-kind.ts";
import { dayMs } from "./days.ts";
import { compareRows, type OrderTerm } from "./query.ts";
import type { ReplicaReader, StoredRow } from "./replica-store.ts";
import { toProto } from "./to-proto.ts";

/** A hive's readings as columns, oldest first; a measurement not taken is 0 (the contract's unset). */
export interface ReadingColumns {
  /** Unix ms. */
  readonly at: number[];
  readonly weightKg: number[];
  readonly tempHive: number[];
  readonly tempOutside: number[];
  readonly humidityHive: number[];
  readonly humidityOutside: number[];
}

export interface HiveHistory {
  /** The beekeeper's visits, newest first (ListInspections' order). */
  readonly visits: Inspection[];
  readonly readings: ReadingColumns;
  /**
   * What the charts draw: the readings and the measurements taken at visits (a beekeeper who
   * weighs by hand, with no scale, still gets a weight chart), oldest first.
   */
  readonly measurements: ReadingColumns;
  /**
   * The hive's timeline, newest first (ListEvents' order): every event but the INSPECTION events
   * of readings.
   */
  readonly events: Event[];
  /** The hive's weight alerts at the time asked (`HistoryAlerts`); none when not asked. */
  readonly alerts: HiveAlert[];
}

/** The moment and winter weight the hive page's alerts are computed for (`hiveAlerts`'s). */
export interface HistoryAlerts {
  readonly nowMs: number;
  /** The beekeeper's winter weight; undefined or 0: no "may be starving". */
  readonly thresholdKg: number | undefined;
}

/** Swarm alerts are shown for this many days. */
export const alertDays = 7;

/**
 * Rows per page when a long run of inspections is read: a bounded amount of memory at a time,
 * and few pages (each page of the device's index counts the range and skips to its offset).
 */
export const historyPageSize = 25_000;

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const ms = (v: unknown): number => (typeof v === "string" ? Date.parse(v) : Number.NaN);

const inspectionsOldestFirst: OrderTerm[] = [{ column: "date" }, { column: "id" }];
const newestFirst: OrderTerm[] = [
  { column: "date", desc: true },
  { column: "id", desc: true },
];
/** ListEvents' order. */
const eventOrder: OrderTerm[] = [
  { column: "date", desc: true },
  { column: "type", stamp: true, desc: true },
  { column: "id", desc: true },
];

/** The event types a hive's timeline reads by type (INSPECTION is read per visit instead). */
const timelineTypes = Object.values(EventType).filter(
  (t): t is EventType =>
    typeof t === "number" && t !== EventType.UNSPECIFIED && t !== EventType.INSPECTION,
);

/**
 * Pages of live inspections in `orderBy` (an ordered index's window each) until `visit` answers
 * true or the rows end. Pages start at `firstPage` rows and double up to `historyPageSize`: a
 * read that usually stops early (the last visit) reads little, and one that goes through years
 * of readings takes few pages. While they double, each read starts at the first row (on the
 * device one read of the index's range, no count or skipping to an offset) and `visit` gets the
 * rows it has not seen; from `historyPageSize` on, pages follow by offset.
 */
async function eachPage(
  r: ReplicaReader,
  where: { column: string; eq: string }[],
  orderBy: OrderTerm[],
  firstPage: number,
  visit: (rows: readonly StoredRow[]) => boolean | undefined,
): Promise<void> {
  let seen = 0;
  for (let limit = firstPage; limit < historyPageSize; limit *= 2) {
    const { rows } = await r.list("inspection", { where, orderBy, offset: 0, limit });
    if (visit(rows.slice(seen)) === true || rows.length < limit) return;
    seen = rows.length;
  }
  for (let offset = seen; ; offset += historyPageSize) {
    const { rows } = await r.list("inspection", {
      where,
      orderBy,
      offset,
      limit: historyPageSize,
    });
    if (visit(rows) === true || rows.length < historyPageSize) return;
  }
}

/** The numeric measurements a visit may carry too (weather is words, not a chart). */
const measuredAtVisit = measurementColumns.filter((c) => c !== "weather");

/**
 * Everything the hive page shows of a hive's inspections and events; with `alertsAt`, its
 * weight alerts too, scanned (`alertScan`, as `hiveAlerts` does) over the rows this one pass has
 * read, so the page does not read the hive's last week of readings a second time.
 */
export async function hiveHistory(
  r: ReplicaReader,
  hiveId: string,
  organizationId: string,
  firstPage = historyPageSize,
  alertsAt?: HistoryAlerts,
): Promise<HiveHistory> {
  const columns = (): ReadingColumns => ({
    at: [],
    weightKg: [],
    tempHive: [],
    tempOutside: [],
    humidityHive: [],
    humidityOutside: [],
  });
  const readings = columns();
  const measurements = columns();
  const add = (to: ReadingColumns, at: number, v: StoredRow["values"]) => {
    to.at.push(at);
    to.weightKg.push(num(v.weight_kg));
    to.tempHive.push(num(v.temp_hive));
    to.tempOutside.push(num(v.temp_outside));
    to.humidityHive.push(num(v.humidity_hive));
    to.humidityOutside.push(num(v.humidity_outside));
  };
  const visitRows: StoredRow[] = [];
  /** Every inspection's values, oldest first (the alerts scan them newest first). */
  const all: StoredRow["values"][] = [];
  await eachPage(
    r,
    [{ column: "hive_id", eq: hiveId }],
    inspectionsOldestFirst,
    firstPage,
    (rows) => {
      for (const row of rows) {
        const v = row.values;
        if (alertsAt) all.push(v);
        const at = ms(v.date);
        if (!isReadingRow(v)) {
          visitRows.push(row);
          if (!Number.isNaN(at) && measuredAtVisit.some((c) => num(v[c]) !== 0)) {
            add(measurements, at, v);
          }
          continue;
        }
        if (Number.isNaN(at)) continue;
        add(readings, at, v);
        add(measurements, at, v);
      }
      return undefined;
    },
  );
  visitRows.reverse();
  const visits = visitRows.map((row) =>
    toProto(InspectionSchema, "inspection", row, organizationId),
  );

  const byType = await Promise.all(
    timelineTypes.map((type) =>
      r.list("event", {
        where: [
          { column: "type", eq: type },
          { column: "hive_id", eq: hiveId },
        ],
        orderBy: eventOrder,
      }),
    ),
  );
  const ofVisits = await Promise.all(
    visitRows.map((row) =>
      r.list("event", {
        where: [
          { column: "ref_id", eq: row.id },
          { column: "type", eq: EventType.INSPECTION },
        ],
        orderBy: eventOrder,
      }),
    ),
  );
  const eventRows = [...byType, ...ofVisits]
    .flatMap((page) => page.rows)
    .filter((e) => e.values.hive_id === hiveId)
    .sort(compareRows(eventOrder));
  const events = eventRows.map((row) => toProto(EventSchema, "event", row, organizationId));
  let alerts: HiveAlert[] = [];
  if (alertsAt) {
    const { nowMs, thresholdKg } = alertsAt;
    const scan = alertScan(nowMs, thresholdKg, await hemisphereOfHive(r, hiveId));
    for (let i = all.length - 1; i >= 0; i--) if (scan.visit(all[i] ?? {})) break;
    alerts = scan.alerts();
  }
  return { visits, readings, measurements, events, alerts };
}

/**
 * Each hive's last visit (RFC 3339), the newest of its visits (`visitsOnly`: on the device, one
 * row of its visits' index, whatever readings came after): a hive never visited is absent.
 */
export async function lastVisits(
  r: ReplicaReader,
  hiveIds: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(hiveIds)];
  // The hives side by side (one read's requests in flight together), answered in their order.
  const newest = await Promise.all(
    unique.map(
      async (hiveId) =>
        (
          await r.list("inspection", {
            where: [{ column: "hive_id", eq: hiveId }],
            orderBy: newestFirst,
            limit: 1,
            visitsOnly: true,
          })
        ).rows[0],
    ),
  );
  const out = new Map<string, string>();
  unique.forEach((id, k) => {
    const row = newest[k];
    if (row !== undefined) out.set(id, String(row.values.date));
  });
  return out;
}

/** The newest `count` visits of the tenant, newest first (`visitsOnly`). */
export async function recentVisits(
  r: ReplicaReader,
  count: number,
  organizationId: string,
): Promise<Inspection[]> {
  if (count <= 0) return [];
  const { rows } = await r.list("inspection", {
    orderBy: newestFirst,
    limit: count,
    visitsOnly: true,
  });
  return rows.map((row) => toProto(InspectionSchema, "inspection", row, organizationId));
}

/**
 * The weight alerts of one hive at `nowMs` (core/hive-alerts.ts), from its inspections newest
 * first: `visit` takes them in that order and answers true once no older one can matter (past
 * the swarm window, with a latest weight or none to look for); `alerts` then gives them. Swarms
 * of the last week, from the readings and visits back to a week (and an hour) before now; "may
 * be starving" from the latest weight, looked for further back in winter until one of this
 * winter is found. `hiveAlerts` and the hive page's `hiveHistory` both scan with it.
 */
function alertScan(nowMs: number, thresholdKg: number | undefined, hemisphere: Hemisphere) {
  const swarmSince = nowMs - alertDays * dayMs - swarmWindowMs;
  const winterSince = thresholdKg ? winterStart(nowMs, hemisphere) : undefined;
  const readings: WeightPoint[] = [];
  const visits: number[] = [];
  let latest: WeightPoint | undefined;
  return {
    visit(values: StoredRow["values"]): boolean {
      const at = ms(values.date);
      if (Number.isNaN(at) || at > nowMs) return false;
      const kg = num(values.weight_kg);
      if (latest === undefined && kg > 0) latest = { at, kg };
      if (at >= swarmSince) {
        if (isReadingRow(values)) {
          if (kg > 0) readings.push({ at, kg });
        } else {
          visits.push(at);
        }
        return false;
      }
      // Past the swarm window: go on only for a weight of this winter.
      return latest !== undefined || winterSince === undefined || at < winterSince;
    },
    alerts(): HiveAlert[] {
      const alerts: HiveAlert[] = [
        ...recentAlerts(swarmAlerts(readings, visits, hemisphere), nowMs, alertDays),
      ];
      const starving = starvingAlert(latest ? [latest] : [], thresholdKg, nowMs, hemisphere);
      if (starving) alerts.push(starving);
      return alerts;
    },
  };
}

/** The hemisphere of the hive's apiary (a deleted apiary's too). */
async function hemisphereOfHive(r: ReplicaReader, hiveId: string): Promise<Hemisphere> {
  const hive = await r.get("hive", hiveId);
  const apiary =
    typeof hive?.values.apiary_id === "string"
      ? await r.get("apiary", hive.values.apiary_id, { evenDeleted: true })
      : undefined;
  return hemisphereOf(num(apiary?.values.lat));
}

/**
 * The weight alerts of these hives at `nowMs` (core/hive-alerts.ts, `alertScan`): swarms of the
 * last week, and "may be starving" against `thresholdKg` (undefined or 0: none). Each hive's
 * inspections are read newest first through the `[hive, date]` index back to a week (and an
 * hour) before now, or in winter further until a weight of this winter is found. The hemisphere
 * is that of the hive's apiary. Hives without an alert are absent.
 */
export async function hiveAlerts(
  r: ReplicaReader,
  hiveIds: readonly string[],
  nowMs: number,
  thresholdKg: number | undefined,
  firstPage = 16,
): Promise<Map<string, HiveAlert[]>> {
  const ofHive = async (hiveId: string): Promise<HiveAlert[]> => {
    const scan = alertScan(nowMs, thresholdKg, await hemisphereOfHive(r, hiveId));
    await eachPage(r, [{ column: "hive_id", eq: hiveId }], newestFirst, firstPage, (rows) =>
      rows.some((row) => scan.visit(row.values)),
    );
    return scan.alerts();
  };
  // The hives side by side (one read's requests in flight together), answered in their order.
  const ids = [...new Set(hiveIds)];
  const all = await Promise.all(ids.map(ofHive));
  const out = new Map<string, HiveAlert[]>();
  ids.forEach((id, k) => {
    const alerts = all[k] ?? [];
    if (alerts.length > 0) out.set(id, alerts);
  });
  return out;
}

/**
 * The app's read side of readings and visits (issue 29): what the hive page, the hive list and
 * the overview show, over the store port, with the one rule of core/inspection-kind.ts. The
 * contract's operations are not changed by any of it (ListInspections still lists readings,
 * GetDashboard still counts them); these reads sit beside them, device-side.
 *
 * Every read goes through an index of the replica: visits through the visits' indexes (a
 * reading's row is never read), a hive's readings as its reading points (ops/reading-points.ts:
 * on a device a table of their own, a few numbers a reading) into plain columns, events by
 * `[hive_id+type]` (the few that are not INSPECTION) and by `ref_id` (the visits' own).
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
import { measurementColumns } from "../core/inspection-kind.ts";
import { dayMs } from "./days.ts";
import { compareRows, type OrderTerm } from "./query.ts";
import {
  comparePoints,
  hiveReadingPoints,
  measuredPoint,
  num,
  type ReadingPoint,
} from "./reading-points.ts";
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

/** The numeric measurements a visit may carry too (weather is words, not a chart). */
const measuredAtVisit = measurementColumns.filter((c) => c !== "weather");

/** The columns of these points, in their order. */
function columnsOf(points: readonly ReadingPoint[]): ReadingColumns {
  return {
    at: points.map((p) => p.at),
    weightKg: points.map((p) => p.weightKg),
    tempHive: points.map((p) => p.tempHive),
    tempOutside: points.map((p) => p.tempOutside),
    humidityHive: points.map((p) => p.humidityHive),
    humidityOutside: points.map((p) => p.humidityOutside),
  };
}

/** Two lists oldest first (`comparePoints`) as one. */
function mergePoints(a: readonly ReadingPoint[], b: readonly ReadingPoint[]): ReadingPoint[] {
  const out: ReadingPoint[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && comparePoints(x, y) <= 0)) {
      out.push(x as ReadingPoint);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
}

/** The largest window an index read takes (IndexedDB's count is an unsigned 32-bit integer). */
const everyRow = 2 ** 32 - 1;

/** A hive's live visits, oldest first (on the device, the visits' index: no reading is read). */
async function visitRowsOf(r: ReplicaReader, hiveId: string): Promise<StoredRow[]> {
  const { rows } = await r.list("inspection", {
    where: [{ column: "hive_id", eq: hiveId }],
    orderBy: inspectionsOldestFirst,
    visitsOnly: true,
    // Every visit (a window, so the device reads the visits' index alone: a list without a
    // limit reads the hive's rows, readings and all, and filters them).
    limit: everyRow,
  });
  return rows;
}

/**
 * Feeds `scan` (alertScan) the hive's readings and visits newest first, until it has seen
 * enough.
 */
function scanNewestFirst(
  scan: ReturnType<typeof alertScan>,
  points: readonly ReadingPoint[],
  visitRows: readonly StoredRow[],
): void {
  let i = points.length - 1;
  let j = visitRows.length - 1;
  const visitAt = (row: StoredRow | undefined) => (row ? ms(row.values.date) : Number.NaN);
  while (i >= 0 || j >= 0) {
    const p = points[i];
    const v = visitRows[j];
    // Newest first by (time, id), as the rows' index gives them; a visit without a date last.
    const va = visitAt(v);
    const takePoint =
      v === undefined ||
      (p !== undefined &&
        (Number.isNaN(va) || p.at > va || (p.at === va && p.id > (v as StoredRow).id)));
    if (takePoint && p !== undefined) {
      i--;
      if (scan.visit(p.at, p.weightKg, true)) return;
    } else if (v !== undefined) {
      j--;
      if (scan.visit(va, num(v.values.weight_kg), false)) return;
    }
  }
}

/**
 * Everything the hive page shows of a hive's inspections and events; with `alertsAt`, its
 * weight alerts too, scanned (`alertScan`, as `hiveAlerts` does) over what this read has read.
 * Readings come as the hive's reading points (ops/reading-points.ts: on a device, a table of
 * their own) and visits through the visits' index: the page never reads a reading's row.
 */
export async function hiveHistory(
  r: ReplicaReader,
  hiveId: string,
  organizationId: string,
  alertsAt?: HistoryAlerts,
): Promise<HiveHistory> {
  // Every read sent at once, the small ones first (a transaction answers its requests in order):
  // the visits' own events are asked for while the hive's points are read.
  const visitsRead = visitRowsOf(r, hiveId);
  const [visitRows, byType, ofVisits, hemisphere, points] = await Promise.all([
    visitsRead,
    Promise.all(
      timelineTypes.map((type) =>
        r.list("event", {
          where: [
            { column: "type", eq: type },
            { column: "hive_id", eq: hiveId },
          ],
          orderBy: eventOrder,
        }),
      ),
    ),
    visitsRead.then((rows) =>
      Promise.all(
        rows.map((row) =>
          r.list("event", {
            where: [
              { column: "ref_id", eq: row.id },
              { column: "type", eq: EventType.INSPECTION },
            ],
            orderBy: eventOrder,
          }),
        ),
      ),
    ),
    alertsAt ? hemisphereOfHive(r, hiveId) : undefined,
    hiveReadingPoints(r, hiveId),
  ]);
  const measuredVisits: ReadingPoint[] = [];
  for (const row of visitRows) {
    if (!measuredAtVisit.some((c) => num(row.values[c]) !== 0)) continue;
    const p = measuredPoint(row.id, row.values);
    if (p) measuredVisits.push(p);
  }
  const readings = columnsOf(points);
  const measurements = columnsOf(mergePoints(measuredVisits, points));
  const visits = visitRows
    .map((row) => toProto(InspectionSchema, "inspection", row, organizationId))
    .reverse();
  const eventRows = [...byType, ...ofVisits]
    .flatMap((page) => page.rows)
    .filter((e) => e.values.hive_id === hiveId)
    .sort(compareRows(eventOrder));
  const events = eventRows.map((row) => toProto(EventSchema, "event", row, organizationId));
  let alerts: HiveAlert[] = [];
  if (alertsAt && hemisphere !== undefined) {
    const scan = alertScan(alertsAt.nowMs, alertsAt.thresholdKg, hemisphere);
    scanNewestFirst(scan, points, visitRows);
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
    visit(at: number, kg: number, reading: boolean): boolean {
      if (Number.isNaN(at) || at > nowMs) return false;
      if (latest === undefined && kg > 0) latest = { at, kg };
      if (at >= swarmSince) {
        if (reading) {
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
): Promise<Map<string, HiveAlert[]>> {
  const ofHive = async (hiveId: string): Promise<HiveAlert[]> => {
    const [hemisphere, points, visitRows] = await Promise.all([
      hemisphereOfHive(r, hiveId),
      hiveReadingPoints(r, hiveId),
      visitRowsOf(r, hiveId),
    ]);
    const scan = alertScan(nowMs, thresholdKg, hemisphere);
    scanNewestFirst(scan, points, visitRows);
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

/**
 * A hive's readings as points (issue 29): the time and the five numeric measurements of each live
 * reading, without the rest of its row (the visit columns, the stamps, the scopes). The hive page,
 * its charts and the weight alerts read only these, and a device keeps them in a table of their
 * own, in step with its inspections (device/reading-points.ts): about 60 bytes a reading instead
 * of a row of about 2 KB, which the browser otherwise reads and copies in full for every reading
 * of the readings window whenever a hive page opens or the overview looks for swarms.
 *
 * `readingPoint` is the one rule of what a point is (a live inspection that is a reading,
 * core/inspection-kind.ts, with a date); `hiveReadingPoints` reads a hive's points through the
 * store's own table when it has one (`ReplicaReader.readingPoints`), or from its rows with the
 * same rule.
 */
import { isReadingRow } from "../core/inspection-kind.ts";
import type { OrderTerm } from "./query.ts";
import type { ReplicaReader, StoredRow } from "./replica-store.ts";

/** One live reading of a hive; a measurement not taken is 0 (the contract's unset). */
export interface ReadingPoint {
  /** The inspection's id. */
  readonly id: string;
  /** Its date, Unix ms. */
  readonly at: number;
  readonly weightKg: number;
  readonly tempHive: number;
  readonly tempOutside: number;
  readonly humidityHive: number;
  readonly humidityOutside: number;
}

/** A stored measurement as a number: a finite number, else 0 (the contract's unset). */
export const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/**
 * The point of a live inspection's values (the caller knows the row is live), or undefined when
 * it is a visit or has no date that parses.
 */
export function readingPoint(
  id: string,
  values: Readonly<Record<string, unknown>>,
): ReadingPoint | undefined {
  return isReadingRow(values) ? measuredPoint(id, values) : undefined;
}

/**
 * The time and measurements of any inspection's values (a visit's too: a beekeeper who weighs
 * by hand), or undefined when it has no date that parses.
 */
export function measuredPoint(
  id: string,
  values: Readonly<Record<string, unknown>>,
): ReadingPoint | undefined {
  const at = typeof values.date === "string" ? Date.parse(values.date) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return {
    id,
    at,
    weightKg: num(values.weight_kg),
    tempHive: num(values.temp_hive),
    tempOutside: num(values.temp_outside),
    humidityHive: num(values.humidity_hive),
    humidityOutside: num(values.humidity_outside),
  };
}

/** Oldest first: by time, then by id (code units), as the device's index orders them. */
export function comparePoints(a: ReadingPoint, b: ReadingPoint): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const rowOrder: OrderTerm[] = [{ column: "date" }, { column: "id" }];

/**
 * The hive's reading points, oldest first (`comparePoints`): from the store's table of points
 * when it keeps one, else from its live inspection rows.
 */
export async function hiveReadingPoints(r: ReplicaReader, hiveId: string): Promise<ReadingPoint[]> {
  if (r.readingPoints) return r.readingPoints(hiveId);
  const { rows } = await r.list("inspection", {
    where: [{ column: "hive_id", eq: hiveId }],
    orderBy: rowOrder,
  });
  return pointsOfRows(rows);
}

/** The points of these live rows, oldest first. */
export function pointsOfRows(rows: readonly StoredRow[]): ReadingPoint[] {
  const points: ReadingPoint[] = [];
  for (const row of rows) {
    const p = readingPoint(row.id, row.values);
    if (p) points.push(p);
  }
  return points.sort(comparePoints);
}

/**
 * What kind of record an inspection is (issue 29): a **reading** (what a hive scale or climate
 * tracker posts: measurement fields only) or a **visit** (a beekeeper at the hive: anything of
 * the stock card, a note or a photo). The one rule for the device, the app and any tool; the
 * contract's operations do not use it (ListInspections lists readings, GetDashboard counts them).
 *
 * - Measurement fields: weight_kg, temp_hive, temp_outside, humidity_hive, humidity_outside and
 *   weather. The weather is a measurement: a weather station may send it beside the numbers, and
 *   a person who writes only the weather (and a weight) did not look into the colony.
 * - Visit fields: every stock-card field (queen_seen, eggs_seen, covered_larva, frames,
 *   brood_frames, stores, temperament, calmness, queen_cells, varroa, super_added), the note and
 *   the photos. One of them set (true, not 0, not blank, a photo) makes a visit.
 * - A reading holds at least one measurement: an inspection with nothing at all is a visit (a
 *   person saved an empty form at the hive; a scale never posts nothing).
 *
 * Two readers of the one column list: `isReading` over a proto `Inspection` (camelCase, what the
 * app holds) and `isReadingRow` over stored values (snake_case, what ops read from a replica).
 */
import { camelCase } from "./entities.ts";
import type { OrSetState } from "./or-set.ts";

/** The columns a scale or climate tracker fills. */
export const measurementColumns = [
  "weight_kg",
  "temp_hive",
  "temp_outside",
  "humidity_hive",
  "humidity_outside",
  "weather",
] as const;

/** The columns only a person at the hive fills. */
export const visitColumns = [
  "note",
  "photo_keys",
  "queen_seen",
  "eggs_seen",
  "covered_larva",
  "frames",
  "brood_frames",
  "stores",
  "temperament",
  "calmness",
  "queen_cells",
  "varroa",
  "super_added",
] as const;

type Column = (typeof measurementColumns)[number] | (typeof visitColumns)[number];

/** Whether a column's value says something: true, a number other than 0, non-blank text, an element. */
function isSet(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  if (typeof v === "string") return v.trim() !== "";
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object" && "adds" in v) return (v as OrSetState).adds.length > 0;
  return v === true;
}

function readingBy(get: (column: Column) => unknown): boolean {
  return measurementColumns.some((c) => isSet(get(c))) && !visitColumns.some((c) => isSet(get(c)));
}

const camel = new Map<Column, string>(
  [...measurementColumns, ...visitColumns].map((c) => [c, camelCase(c)]),
);

/** The fields of a proto Inspection the rule reads (its camelCase names). */
export type InspectionKindFields = {
  readonly [K in Column as CamelOf<K>]: unknown;
};
type CamelOf<S extends string> = S extends `${infer A}_${infer B}`
  ? `${A}${Capitalize<CamelOf<B>>}`
  : S;

/** Whether a proto Inspection is a reading (measurements only), not a visit. */
export function isReading(i: InspectionKindFields): boolean {
  const fields = i as unknown as Readonly<Record<string, unknown>>;
  return readingBy((c) => fields[camel.get(c) ?? c]);
}

/** Whether a stored inspection row's values (snake_case) are a reading. */
export function isReadingRow(values: Readonly<Record<string, unknown>>): boolean {
  return readingBy((c) => values[c]);
}

import type { EntitySpec, RowState, Values } from "@hivekeep/client-core/core";
import { unpackClock } from "./stored-clock.ts";

/**
 * A stored row → the merge state. Only columns that were ever written (have a
 * stamp in clock, stored grouped: stored-clock.ts) are values; timestamps become RFC 3339 strings (ms, UTC) as
 * they travel in change payloads.
 */
export function rowStateFromDb(row: Record<string, unknown>, spec: EntitySpec): RowState {
  const clock = unpackClock(row.clock);
  const values: Values = {};
  for (const [col, colSpec] of Object.entries(spec.columns)) {
    if (clock[col] === undefined && colSpec.type !== "orset") continue;
    const v = row[col];
    if (colSpec.type === "orset") {
      if (v !== null && v !== undefined) values[col] = v;
    } else {
      values[col] = v instanceof Date ? v.toISOString() : (v ?? null);
    }
  }
  return { values, clock, deleted: row.deleted === true };
}

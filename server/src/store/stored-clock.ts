/**
 * How a row's clock is stored: `clock` json maps each HLC to the columns it
 * stamps, `{"<hlc>": ["name", "lat", …]}` (the delete stamp is the column
 * `_deleted`). In memory (merge, validation, the server clock) a clock stays
 * column → HLC (`RowState.clock`); these functions convert at the table edge.
 *
 * Why grouped: a change usually sets many columns under one stamp, so the
 * column → HLC form repeated the same 35-character HLC for every column
 * (~1.2 KB per inspection, about half of the row). Writing and storing that
 * cost more than the row's values (docs/decisions.md). It is `json`, not
 * `jsonb`: the server reads it only whole, so a jsonb conversion on every
 * write bought nothing.
 */
import type { Hlc } from "@hivekeep/client-core/core";

/** The stored form: HLC → the columns it stamps. */
export type StoredClock = Record<string, string[]>;

export function packClock(clock: Readonly<Record<string, Hlc>>): StoredClock {
  // Keyed by stamps, which are new keys nearly every time: an ordinary object takes a new hidden
  // class for each (µs a row in V8); one without a prototype is a dictionary from the start.
  const packed: StoredClock = Object.create(null);
  // Most rows written were stamped by one change (every new row: a scale's readings, a first
  // sync): their one group needs no map.
  const columns = Object.keys(clock);
  const [first] = columns;
  const stamp = first === undefined ? undefined : clock[first];
  if (stamp !== undefined && columns.every((column) => clock[column] === stamp)) {
    packed[stamp] = columns;
    return packed;
  }
  for (const [hlc, group] of groupClock(clock)) packed[hlc] = group;
  return packed;
}

function groupClock(clock: Readonly<Record<string, Hlc>>): Map<string, string[]> {
  // Columns stamped together mostly follow each other: look a group up only
  // when the stamp changes (HLC-keyed objects are slow dictionaries).
  const groups = new Map<string, string[]>();
  let hlc: string | undefined;
  let columns: string[] = [];
  for (const column of Object.keys(clock)) {
    const stamp = clock[column] as Hlc;
    if (stamp !== hlc) {
      hlc = stamp;
      columns = groups.get(stamp) ?? [];
      if (columns.length === 0) groups.set(stamp, columns);
    }
    columns.push(column);
  }
  return groups;
}

/** A stored clock (as the drivers return json: parsed) → column → HLC. */
export function unpackClock(stored: unknown): Record<string, Hlc> {
  const clock: Record<string, Hlc> = {};
  if (stored === null || stored === undefined) return clock;
  for (const [hlc, columns] of Object.entries(stored as StoredClock)) {
    if (!Array.isArray(columns)) throw new TypeError(`stored clock entry ${hlc} is not a list`);
    for (const column of columns) clock[column] = hlc as Hlc;
  }
  return clock;
}

/**
 * SQL: the stamp (HLC) of `column` in the stored clock `clockSql` (a column
 * reference), null when the column has none. `column` is a registry column
 * name (never user input).
 */
export const stampSql = (column: string, clockSql = "clock"): string => {
  if (!/^[a-z_]+$/.test(column)) throw new Error(`not a column name: ${column}`);
  return `(select s.key from json_each(${clockSql}) as s where s.value::jsonb ? '${column}')`;
};

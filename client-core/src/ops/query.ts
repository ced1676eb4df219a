/**
 * Lists described as data: which rows (filters) in which order, and which window. The server
 * turns a query into SQL (server/src/store/sql-query.ts); the device and the in-memory store run
 * it with `matches` and `compareRows` below. Both follow the same pinned rules:
 *
 * - Text sorts by Unicode code point (SQL `collate "C"`), whatever the database's locale.
 * - `fold: "ascii"` sorts case-insensitively by folding A–Z only (SQL `lower(x collate "C")`,
 *   which folds ASCII only): a database's locale can never make device and server disagree.
 * - A filter `eq` on a column's default value (false, 0, "") also matches a null (never written)
 *   column, as the proto shows both alike; `eq: null` matches only null.
 * - Nulls sort last ascending and first descending (Postgres' default), unless `nulls` says.
 * - Timestamps are compared as their RFC 3339 strings (canonical: ms, UTC, four-digit years),
 *   whose string order is time order.
 */
import { type EntityName, entities, isReadableScope } from "../core/entities.ts";
import { isReadingRow } from "../core/inspection-kind.ts";
import type { StoredRow } from "./replica-store.ts";

export type Scalar = string | number | boolean;

export type Filter =
  /** The column equals the value (see the module comment for defaults and null). */
  | { readonly column: string; readonly eq: Scalar | null }
  /** Rows the user may read: every apiary scope, and only the user's own personal scope. */
  | { readonly readableBy: string };

export interface OrderTerm {
  /** A column of the entity, or "id". */
  readonly column: string;
  /** SQL coalesce(column, orElse): another column used when this one is null. */
  readonly orElse?: string;
  /** SQL coalesce(column, value): a literal used when the column is null. */
  readonly ifNull?: Scalar;
  /** Order by the column's HLC stamp instead of its value (events of one instant). */
  readonly stamp?: true;
  readonly fold?: "ascii";
  readonly desc?: boolean;
  readonly nulls?: "first" | "last";
}

export interface ListQuery {
  readonly where?: readonly Filter[];
  /** Should end with "id" so the order is total. */
  readonly orderBy: readonly OrderTerm[];
  readonly offset?: number;
  /** Undefined = every row. */
  readonly limit?: number;
  /**
   * Deleted (complete) rows too, as `GetOptions.evenDeleted`: what a backup carries of the
   * register's trail (deleted treatments and their events). Partial rows never.
   */
  readonly evenDeleted?: boolean;
  /**
   * Only rows whose id comes after this one (code point order, as `orderBy: [{column: "id"}]`):
   * keyset paging, so reading every row page by page costs one pass, not a pass per page. The
   * answer's `total` is then the number of rows returned (nothing else is counted).
   */
  readonly afterId?: string;
  /**
   * Inspections: only the visits, not the readings (`isVisitRow`). The device answers it
   * through its visits' indexes (replica-db.ts `visitIndexes`); the server's store does not
   * take it (the app's reads of ops/hive-history.ts run on the device).
   */
  readonly visitsOnly?: boolean;
}

/** What `ListQuery.visitsOnly` keeps: inspections that are visits (core/inspection-kind.ts). */
export const isVisitRow = (
  entity: EntityName,
  values: Readonly<Record<string, unknown>>,
): boolean => entity === "inspection" && !isReadingRow(values);

/** The default value a null column reads as (the proto's default of its type). */
export function defaultOf(entity: EntityName, column: string): Scalar | undefined {
  const type = column === "id" ? "id" : entities[entity].columns[column]?.type;
  switch (type) {
    case "text":
    case "id":
      return "";
    case "float":
    case "int":
    case "enum":
      return 0;
    case "bool":
      return false;
    default:
      return undefined;
  }
}

/** Throws unless `column` is a timestamp column of the entity (what `maxBy` compares). */
export function assertTimestamp(entity: EntityName, column: string): void {
  if (entities[entity].columns[column]?.type !== "timestamp") {
    throw new Error(`${entity}.${column} is not a timestamp column`);
  }
}

/** The value of a column of a row ("id" included); null when never written. */
export const columnOf = (row: StoredRow, column: string): unknown =>
  column === "id" ? row.id : (row.values[column] ?? null);

export function matches(entity: EntityName, row: StoredRow, filter: Filter): boolean {
  if ("readableBy" in filter) {
    return isReadableScope(row.scopeId, filter.readableBy);
  }
  const value = columnOf(row, filter.column);
  if (filter.eq === null) return value === null;
  if (value === null) return defaultOf(entity, filter.column) === filter.eq;
  return value === filter.eq;
}

/** Code point order of two strings (SQL `collate "C"` on UTF-8), not UTF-16 unit order. */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogateX = x >= 0xd800 && x <= 0xdfff;
    const surrogateY = y >= 0xd800 && y <= 0xdfff;
    // A surrogate (a code point above U+FFFF) sorts after every other code unit.
    if (surrogateX !== surrogateY) return surrogateX ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** A–Z to a–z, nothing else (what `lower` does under `collate "C"`). */
export const foldAscii = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

function termValue(row: StoredRow, term: OrderTerm): unknown {
  if (term.stamp) return row.clock[term.column] ?? null;
  let v = columnOf(row, term.column);
  if (v === null && term.orElse !== undefined) v = columnOf(row, term.orElse);
  if (v === null && term.ifNull !== undefined) v = term.ifNull;
  if (typeof v === "string" && term.fold === "ascii") v = foldAscii(v);
  return v;
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "string" && typeof b === "string") return compareText(a, b);
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  return compareText(String(a), String(b));
}

/** The comparator of an ordering (Zero's makeComparator, for our terms). */
export function compareRows(orderBy: readonly OrderTerm[]): (a: StoredRow, b: StoredRow) => number {
  return (a, b) => {
    for (const term of orderBy) {
      const x = termValue(a, term);
      const y = termValue(b, term);
      if (x === null || y === null) {
        if (x === y) continue;
        const nullsFirst = (term.nulls ?? (term.desc ? "first" : "last")) === "first";
        return (x === null) === nullsFirst ? -1 : 1;
      }
      const c = compareValues(x, y);
      if (c !== 0) return term.desc ? -c : c;
    }
    return 0;
  };
}

/** Runs a query over rows that are all live (filters, order, window). */
export function runList(
  entity: EntityName,
  rows: Iterable<StoredRow>,
  query: ListQuery,
): { rows: StoredRow[]; total: number } {
  const where = query.where ?? [];
  const after = query.afterId;
  const found: StoredRow[] = [];
  for (const row of rows) {
    if (after !== undefined && compareText(row.id, after) <= 0) continue;
    if (query.visitsOnly && !isVisitRow(entity, row.values)) continue;
    if (where.every((f) => matches(entity, row, f))) found.push(row);
  }
  found.sort(compareRows(query.orderBy));
  const offset = query.offset ?? 0;
  const end = query.limit === undefined ? undefined : offset + query.limit;
  const window = found.slice(offset, end);
  return { rows: window, total: after === undefined ? found.length : window.length };
}

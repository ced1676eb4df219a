/**
 * The device's replica store (ops/replica-store.ts) over the Dexie replica (replica-db.ts).
 * A local write runs the operation, merges its changes into the rows with the shared merge and
 * appends them to the outbox in one Dexie transaction: nothing is written that will not sync,
 * and nothing is pushed that was not written. Inside a transaction only Dexie calls are awaited,
 * each on the transaction's own tables (replica-db.ts says why).
 */
import { type Collection, Dexie, type IndexableType, type Table } from "dexie";
import { type Change, rowKey } from "../core/change.ts";
import { type EntityName, entities } from "../core/entities.ts";
import { isComplete } from "../core/merge.ts";
import { mergeChange, type ScopedRowState } from "../core/merge-change.ts";
import {
  assertTimestamp,
  compareRows,
  defaultOf,
  type Filter,
  isVisitRow,
  type ListQuery,
  matches,
  type OrderTerm,
  runList,
} from "../ops/query.ts";
import {
  observeReads,
  type ReplicaReader,
  type ReplicaStore,
  type ReplicaWriter,
  type StampObserver,
  type StoredRow,
} from "../ops/replica-store.ts";
import { exclusive } from "./exclusive.ts";
import { pointsTableOf, readHivePoints } from "./reading-points.ts";
import {
  type DeviceRow,
  entityTable,
  entityTables,
  indexedColumns,
  type MetaEntry,
  type OrderedIndex,
  orderedIndexes,
  orderedIndexName,
  pairIndexes,
  pairIndexName,
  type ReplicaDb,
  type TableSource,
  tablesOf,
  visitIndexes,
  visitMark,
} from "./replica-db.ts";

/** The merge state of a stored row (without base and the index helpers). */
export const stateOf = (row: DeviceRow): ScopedRowState => ({
  values: row.values,
  clock: row.clock,
  deleted: row.deleted,
  scopeId: row.scopeId,
});

/** A device row for a merged state; `base` as given (absent = nothing pending). */
export function deviceRow(
  entity: EntityName,
  id: string,
  state: ScopedRowState,
  base: ScopedRowState | null | undefined,
): DeviceRow {
  const complete = isComplete(state, entities[entity]);
  const live = complete && !state.deleted;
  const visit = visitMark(entity, live, state.values);
  const row: DeviceRow = {
    id,
    scopeId: state.scopeId,
    values: state.values,
    clock: state.clock,
    deleted: state.deleted,
    complete: complete ? 1 : 0,
    live: live ? 1 : 0,
    ...(visit === undefined ? {} : { visit }),
  };
  return base === undefined ? row : { ...row, base };
}

const toStored = (row: DeviceRow): StoredRow => ({
  id: row.id,
  scopeId: row.scopeId,
  values: row.values,
  clock: row.clock,
  deleted: row.deleted,
});

const isLive = (row: DeviceRow | undefined): row is DeviceRow =>
  row !== undefined && row.complete === 1 && !row.deleted;

/** The live rows of an ordered index under a key prefix (`[1]`, or `[1, value]`), in its order. */
const liveRange = (
  table: Table<DeviceRow, string>,
  index: OrderedIndex,
  prefix: readonly IndexableType[],
): Collection<DeviceRow, string> =>
  table
    .where(orderedIndexName(index))
    .between([...prefix, Dexie.minKey], [...prefix, Dexie.maxKey], true, true);

/**
 * Rows among which are all live rows whose `column` holds one of `values`, read through an
 * index when there is one: an ordered index filtered on the column (live rows only), else the
 * column's own index, else the whole table. Callers still check liveness and values.
 */
async function rowsWith(
  table: Table<DeviceRow, string>,
  entity: EntityName,
  column: string,
  values: readonly (string | number)[],
): Promise<DeviceRow[]> {
  const ordered = orderedIndexes[entity].find((i) => i.filter === column);
  if (ordered !== undefined && values.every((v) => typeof v === "string")) {
    const ranges = values.map((v) => liveRange(table, ordered, [1, v]).toArray());
    // In id order, as the other indexes give them (runList's stable sort keeps it for ties).
    return (await Promise.all(ranges)).flat().sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  if (indexedColumns[entity].includes(column)) {
    // One getAll per value (anyOf would step a cursor through every row).
    const ranges = values.map((v) => table.where(`values.${column}`).equals(v).toArray());
    return (await Promise.all(ranges)).flat();
  }
  return table.toArray();
}

/** Two equality filters a pair index answers (replica-db.ts `pairIndexes`), neither a default. */
function pairFilter(entity: EntityName, where: readonly Filter[]) {
  const eq = new Map<string, IndexableType>();
  for (const f of where) {
    if ("readableBy" in f || f.eq === null || typeof f.eq === "boolean") continue;
    if (defaultOf(entity, f.column) !== f.eq) eq.set(f.column, f.eq as IndexableType);
  }
  for (const pair of pairIndexes[entity]) {
    const [a, b] = pair;
    const va = eq.get(a);
    const vb = eq.get(b);
    if (va !== undefined && vb !== undefined) {
      return { index: pairIndexName(pair), key: [va, vb] as IndexableType };
    }
  }
  return undefined;
}

/** An equality filter an index can answer: an indexed column, a value that is not its default. */
function indexedFilter(entity: EntityName, where: readonly Filter[]) {
  for (const f of where) {
    if ("readableBy" in f || f.eq === null || typeof f.eq === "boolean") continue;
    const indexed =
      indexedColumns[entity].includes(f.column) ||
      (typeof f.eq === "string" && orderedIndexes[entity].some((i) => i.filter === f.column));
    if (indexed && defaultOf(entity, f.column) !== f.eq) return { column: f.column, value: f.eq };
  }
  return undefined;
}

const plain = (t: OrderTerm): boolean =>
  !t.stamp && t.fold === undefined && t.orElse === undefined && t.ifNull === undefined;

/**
 * How an ordered index (replica-db.ts) answers a list, when one can: a window of the rows that
 * match at most one equality filter (on the index's filter column), ordered first by the index's
 * column. The index holds live rows only, so its range is every match and its count the total.
 */
function orderedPlan(entity: EntityName, query: ListQuery) {
  const [first, ...rest] = query.orderBy;
  const where = query.where ?? [];
  if (first === undefined || !plain(first) || query.limit === undefined || where.length > 1) {
    return undefined;
  }
  const [f] = where;
  if (f !== undefined) {
    if ("readableBy" in f || typeof f.eq !== "string" || f.eq === defaultOf(entity, f.column)) {
      return undefined;
    }
  }
  const filter = f === undefined || "readableBy" in f ? undefined : f;
  const index = (query.visitsOnly ? visitIndexes : orderedIndexes)[entity].find(
    (i) => i.order === first.column && i.filter === filter?.column,
  );
  if (index === undefined) return undefined;
  const prefix: IndexableType[] = filter === undefined ? [1] : [1, filter.eq as string];
  const desc = first.desc === true;
  const [next] = rest;
  return {
    index,
    prefix,
    desc,
    /**
     * Rows of one value of the column come in id order (ascending, or descending when read
     * backwards); true when that is the query's own order of ties. Without further terms ties
     * keep the order rows are read in (ascending ids), as runList's stable sort does.
     */
    tiesById:
      next === undefined
        ? !desc
        : next.column === "id" && plain(next) && (next.desc === true) === desc,
  };
}

type OrderedPlan = NonNullable<ReturnType<typeof orderedPlan>>;

/** A window of live rows through an ordered index; the same answer as runList over them all. */
async function orderedList(
  table: Table<DeviceRow, string>,
  plan: OrderedPlan,
  query: ListQuery,
): Promise<{ rows: StoredRow[]; total: number }> {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 0;
  const range = () => {
    const all = liveRange(table, plan.index, plan.prefix);
    return plan.desc ? all.reverse() : all;
  };
  if (offset === 0 && limit > 0) {
    // From the start: one read of the window; when it ends before the limit it is every match
    // (the index holds live rows only), so there is nothing to count (a hive page reads all of
    // a hive's rows this way).
    const first = await range().limit(limit).toArray();
    if (plan.tiesById && first.length === limit) {
      // In the index's order already: the window is these rows; only the total needs a count.
      return { rows: first.filter(isLive).map(toStored), total: await range().count() };
    }
    if (first.length < limit) {
      const rows = first.filter(isLive).map(toStored);
      return {
        rows: plan.tiesById ? rows : rows.sort(compareRows(query.orderBy)),
        total: rows.length,
      };
    }
  }
  const total = await range().count();
  if (limit <= 0 || offset >= total) return { rows: [], total };
  const rowsOf = async (ids: readonly string[]) =>
    (await table.bulkGet([...ids])).filter(isLive).map(toStored);

  if (plan.tiesById) {
    const ids = await range().offset(offset).limit(limit).primaryKeys();
    return { rows: await rowsOf(ids), total };
  }
  // Ties of the first column are ordered by the other terms: read the keys up to the window's
  // end, then the whole groups of equal values the window touches, and sort those in memory.
  const keys: { value: string; id: string }[] = [];
  await range()
    .limit(offset + limit)
    .eachKey((key, cursor) => {
      const value = (key as IndexableType[])[plan.prefix.length];
      keys.push({ value: String(value), id: String(cursor.primaryKey) });
    });
  const startValue = keys[offset]?.value;
  const endValue = keys.at(-1)?.value;
  if (startValue === undefined || endValue === undefined) return { rows: [], total };
  const start = keys.findIndex((k) => k.value === startValue);
  const ids = new Set(keys.slice(start).map((k) => k.id));
  const endGroup = await table
    .where(orderedIndexName(plan.index))
    .equals([...plan.prefix, endValue] as IndexableType)
    .primaryKeys();
  for (const id of endGroup) ids.add(id);
  // Ascending ids first, so the stable sort leaves full ties as runList does.
  const rows = (await rowsOf([...ids].sort())).sort(compareRows(query.orderBy));
  return { rows: rows.slice(offset - start, offset - start + limit), total };
}

/** Reads of the replica; inside a transaction pass the transaction, so reads stay in it. */
export function dexieReader(db: TableSource): ReplicaReader {
  return {
    async get(entity, id, options) {
      const row = await entityTable(db, entity).get(id);
      if (row === undefined || row.complete !== 1) return undefined;
      if (row.deleted && !options?.evenDeleted) return undefined;
      return toStored(row);
    },
    async list(entity, query: ListQuery) {
      const table = entityTable(db, entity);
      const first = query.orderBy[0];
      if (query.afterId !== undefined && first?.column === "id" && plain(first) && !first.desc) {
        // Keyset paging in id order: the primary key from the id on (ids are ASCII, so
        // IndexedDB's order is code point order), only as far as the window needs.
        const wanted = (r: DeviceRow) =>
          r.complete === 1 &&
          (query.evenDeleted || !r.deleted) &&
          (!query.visitsOnly || isVisitRow(entity, r.values)) &&
          (query.where ?? []).every((f) => matches(entity, toStored(r), f));
        let rows = table.where(":id").above(query.afterId).filter(wanted);
        if (query.limit !== undefined) rows = rows.limit((query.offset ?? 0) + query.limit);
        const found = (await rows.toArray()).map(toStored);
        return runList(entity, found, { ...query, where: [] });
      }
      if (query.evenDeleted || query.afterId !== undefined) {
        // The indexes hold live rows only and know no id window: every complete row.
        const rows = await table.toArray();
        const kept = rows.filter((r) => r.complete === 1 && (query.evenDeleted || !r.deleted));
        return runList(entity, kept.map(toStored), query);
      }
      const plan = orderedPlan(entity, query);
      if (plan) return orderedList(table, plan, query);
      const pair = pairFilter(entity, query.where ?? []);
      if (pair) {
        const rows = await table.where(pair.index).equals(pair.key).toArray();
        return runList(entity, rows.filter(isLive).map(toStored), query);
      }
      const indexed = indexedFilter(entity, query.where ?? []);
      const rows = indexed
        ? await rowsWith(table, entity, indexed.column, [indexed.value])
        : await table.toArray();
      return runList(entity, rows.filter(isLive).map(toStored), query);
    },
    readingPoints: (hiveId) => readHivePoints(db, hiveId),
    async countBy(entity, column, values) {
      const counts = new Map<string, number>();
      if (values.length === 0) return counts;
      const table = entityTable(db, entity);
      const wanted = [...new Set(values)];
      const ordered = orderedIndexes[entity].find((i) => i.filter === column);
      if (ordered !== undefined) {
        // Counted in the index of live rows: no row is read.
        const n = await Promise.all(wanted.map((v) => liveRange(table, ordered, [1, v]).count()));
        for (const [i, v] of wanted.entries()) if ((n[i] ?? 0) > 0) counts.set(v, n[i] ?? 0);
        return counts;
      }
      const set = new Set(wanted);
      for (const row of await rowsWith(table, entity, column, wanted)) {
        const v = row.values[column];
        if (isLive(row) && typeof v === "string" && set.has(v)) {
          counts.set(v, (counts.get(v) ?? 0) + 1);
        }
      }
      return counts;
    },
    async scopesOf(entity, ids) {
      const scopes = new Map<string, string>();
      const unique = [...new Set(ids)];
      const rows = await entityTable(db, entity).bulkGet(unique);
      for (const row of rows) if (row?.complete === 1) scopes.set(row.id, row.scopeId);
      return scopes;
    },
    async maxBy(entity, column, values, of) {
      assertTimestamp(entity, of);
      const max = new Map<string, string>();
      if (values.length === 0) return max;
      const table = entityTable(db, entity);
      const wanted = [...new Set(values)];
      const index = orderedIndexes[entity].find((i) => i.filter === column && i.order === of);
      if (index !== undefined) {
        // The last key of each value's range, keys only: no row is read.
        const lasts = await Promise.all(
          wanted.map((v) => liveRange(table, index, [1, v]).reverse().limit(1).keys()),
        );
        for (const [i, v] of wanted.entries()) {
          const key = lasts[i]?.[0];
          if (Array.isArray(key) && typeof key[2] === "string") max.set(v, key[2]);
        }
        return max;
      }
      const set = new Set(wanted);
      for (const row of await rowsWith(table, entity, column, wanted)) {
        const v = row.values[column];
        const at = row.values[of];
        if (!isLive(row) || typeof v !== "string" || !set.has(v) || typeof at !== "string")
          continue;
        const m = max.get(v);
        if (m === undefined || at > m) max.set(v, at);
      }
      return max;
    },
  };
}

/**
 * Every row the changes touch, by `rowKey` (undefined: not in the replica), read at once: one
 * bulkGet per entity, sent together. Runs inside the caller's transaction.
 */
export async function readRows(
  tx: TableSource,
  changes: readonly Change[],
): Promise<Map<string, DeviceRow | undefined>> {
  const ids = new Map<EntityName, Set<string>>();
  for (const c of changes) {
    const set = ids.get(c.entity) ?? new Set<string>();
    set.add(c.entityId);
    ids.set(c.entity, set);
  }
  const rows = new Map<string, DeviceRow | undefined>();
  await Promise.all(
    [...ids].map(async ([entity, set]) => {
      const list = [...set];
      const table = entityTable(tx, entity);
      const ranged = list.length >= rangeReadMin ? await rangeRead(table, list) : undefined;
      if (ranged !== undefined) {
        for (const id of list) rows.set(rowKey(entity, id), ranged.get(id));
        return;
      }
      const found = await table.bulkGet(list);
      for (const [i, id] of list.entries()) rows.set(rowKey(entity, id), found[i]);
    }),
  );
  return rows;
}

/** Ids of one table from which `readRows` tries one read of their key range (`rangeRead`). */
const rangeReadMin = 100;

/**
 * The rows of `ids` read as one range of the primary key, from the least id to the greatest,
 * when that range holds at most twice as many rows as there are ids; else undefined (read them
 * one by one). A pulled page's ids are mostly consecutive (uuid v7, in order of creation: a
 * scale's readings), and a first sync finds the range empty: one count and one read instead of
 * a request per id, which IndexedDB answers one by one.
 */
async function rangeRead(
  table: Table<DeviceRow, string>,
  ids: readonly string[],
): Promise<Map<string, DeviceRow> | undefined> {
  let min = ids[0] as string;
  let max = min;
  for (const id of ids) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  const range = () => table.where(":id").between(min, max, true, true);
  if ((await range().count()) > 2 * ids.length) return undefined;
  const wanted = new Set(ids);
  const found = new Map<string, DeviceRow>();
  for (const row of await range().toArray()) if (wanted.has(row.id)) found.set(row.id, row);
  return found;
}

/**
 * Merges local changes into their rows (keeping each row's confirmed state as `base`) and queues
 * them in the outbox. Runs inside a transaction over the entity tables and the outbox.
 */
export async function applyLocal(tx: TableSource, changes: readonly Change[]): Promise<void> {
  const { outbox } = tablesOf(tx);
  const rows = await readRows(tx, changes);
  const written = new Map<string, { entity: EntityName; row: DeviceRow }>();
  for (const change of changes) {
    const key = rowKey(change.entity, change.entityId);
    const current = rows.get(key);
    const base =
      current === undefined ? null : current.base !== undefined ? current.base : stateOf(current);
    const merged = mergeChange(current && stateOf(current), change);
    const state = merged.row ?? (current && stateOf(current));
    if (state === undefined) continue;
    const row = deviceRow(change.entity, change.entityId, state, base);
    rows.set(key, row);
    written.set(key, { entity: change.entity, row });
  }
  const byEntity = new Map<EntityName, DeviceRow[]>();
  for (const { entity, row } of written.values()) {
    const list = byEntity.get(entity) ?? [];
    list.push(row);
    byEntity.set(entity, list);
  }
  await Promise.all([
    ...[...byEntity].map(([entity, list]) => entityTable(tx, entity).bulkPut(list)),
    outbox.bulkAdd(
      changes.map((change) => ({ rowKey: rowKey(change.entity, change.entityId), change })),
    ),
  ]);
}

export interface DexieStoreOptions {
  /**
   * The clock the operations stamp with (the device's): a write's reads observe every row they
   * return with it (`observeReads`). Required, so a store cannot be opened that forgets it; a
   * test that stamps nothing passes `ignoreStamps`.
   */
  readonly clock: StampObserver;
  /** Meta entries to save with every write (the HLC clock the write advanced). */
  readonly metaOnWrite?: () => readonly MetaEntry[];
  /** Called after a write committed (the sync engine pushes soon). */
  readonly afterWrite?: () => void;
}

export function dexieStore(db: ReplicaDb, options: DexieStoreOptions): ReplicaStore {
  // The reading points are read beside the rows (and written by the middleware of
  // reading-points.ts with every write of inspections).
  const readable = () => [...entityTables(db), pointsTableOf(db)];
  const all = () => [...readable(), db.outbox, db.meta];
  return {
    read: (fn) => exclusive(db, () => db.transaction("r", readable(), (tx) => fn(dexieReader(tx)))),
    async write(fn) {
      const result = await exclusive(db, () =>
        db.transaction("rw", all(), async (tx) => {
          const writer: ReplicaWriter = {
            ...observeReads(dexieReader(tx), options.clock),
            apply: (changes) => applyLocal(tx, changes),
          };
          const value = await fn(writer);
          const meta = options.metaOnWrite?.() ?? [];
          if (meta.length > 0) await tablesOf(tx).meta.bulkPut([...meta]);
          return value;
        }),
      );
      options.afterWrite?.();
      return result;
    },
  };
}

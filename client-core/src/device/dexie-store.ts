/**
 * The device's replica store (ops/replica-store.ts) over the Dexie replica (replica-db.ts).
 * A local write runs the operation, merges its changes into the rows with the shared merge and
 * appends them to the outbox in one Dexie transaction: nothing is written that will not sync,
 * and nothing is pushed that was not written. Inside a transaction only Dexie calls are awaited,
 * each on the transaction's own tables (replica-db.ts says why).
 */
import type { Change } from "../core/change.ts";
import { type EntityName, entities } from "../core/entities.ts";
import { isComplete } from "../core/merge.ts";
import { mergeChange, type ScopedRowState } from "../core/merge-change.ts";
import { defaultOf, type Filter, type ListQuery, runList } from "../ops/query.ts";
import type {
  ReplicaReader,
  ReplicaStore,
  ReplicaWriter,
  StoredRow,
} from "../ops/replica-store.ts";
import { exclusive } from "./exclusive.ts";
import {
  type DeviceRow,
  entityTable,
  entityTables,
  indexedColumns,
  type MetaEntry,
  type ReplicaDb,
  rowKey,
  type TableSource,
  tablesOf,
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
  const row: DeviceRow = {
    id,
    scopeId: state.scopeId,
    values: state.values,
    clock: state.clock,
    deleted: state.deleted,
    complete: isComplete(state, entities[entity]) ? 1 : 0,
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

/** An equality filter an index can answer: an indexed column, a value that is not its default. */
function indexedFilter(entity: EntityName, where: readonly Filter[]) {
  for (const f of where) {
    if ("readableBy" in f || f.eq === null || typeof f.eq !== "string") continue;
    if (indexedColumns[entity].includes(f.column) && defaultOf(entity, f.column) !== f.eq) {
      return { column: f.column, value: f.eq };
    }
  }
  return undefined;
}

/** Reads of the replica; inside a transaction pass the transaction, so reads stay in it. */
export function dexieReader(db: TableSource): ReplicaReader {
  async function candidates(entity: EntityName, where: readonly Filter[]): Promise<DeviceRow[]> {
    const table = entityTable(db, entity);
    const indexed = indexedFilter(entity, where);
    return indexed
      ? table.where(`values.${indexed.column}`).equals(indexed.value).toArray()
      : table.toArray();
  }
  return {
    async get(entity, id, options) {
      const row = await entityTable(db, entity).get(id);
      if (row === undefined || row.complete !== 1) return undefined;
      if (row.deleted && !options?.evenDeleted) return undefined;
      return toStored(row);
    },
    async list(entity, query: ListQuery) {
      const rows = await candidates(entity, query.where ?? []);
      return runList(entity, rows.filter(isLive).map(toStored), query);
    },
    async countBy(entity, column, values) {
      const counts = new Map<string, number>();
      if (values.length === 0) return counts;
      const table = entityTable(db, entity);
      const wanted = new Set(values);
      const rows = indexedColumns[entity].includes(column)
        ? await table
            .where(`values.${column}`)
            .anyOf([...wanted])
            .toArray()
        : await table.toArray();
      for (const row of rows) {
        const v = row.values[column];
        if (isLive(row) && typeof v === "string" && wanted.has(v)) {
          counts.set(v, (counts.get(v) ?? 0) + 1);
        }
      }
      return counts;
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
      const found = await entityTable(tx, entity).bulkGet(list);
      for (const [i, id] of list.entries()) rows.set(rowKey(entity, id), found[i]);
    }),
  );
  return rows;
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
  /** Meta entries to save with every write (the HLC clock the write advanced). */
  readonly metaOnWrite?: () => readonly MetaEntry[];
  /** Called after a write committed (the sync engine pushes soon). */
  readonly afterWrite?: () => void;
}

export function dexieStore(db: ReplicaDb, options: DexieStoreOptions = {}): ReplicaStore {
  const all = () => [...entityTables(db), db.outbox, db.meta];
  return {
    read: (fn) =>
      exclusive(db, () => db.transaction("r", entityTables(db), (tx) => fn(dexieReader(tx)))),
    async write(fn) {
      const result = await exclusive(db, () =>
        db.transaction("rw", all(), async (tx) => {
          const writer: ReplicaWriter = {
            ...dexieReader(tx),
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

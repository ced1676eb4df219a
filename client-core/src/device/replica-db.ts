/**
 * The device's replica: one IndexedDB database (through Dexie) per server, organization and user.
 *
 * - One table per entity (the registry's table names), keyed by id: a `DeviceRow` holds what the
 *   device shows (the merge of everything it pulled and everything it wrote) and, while changes of
 *   its own are pending, `base`: the row as the server has confirmed it (pulled plus
 *   acknowledged), so a refused or re-stamped change can be taken back out (see outbox.ts).
 * - `outbox`: the device's changes not yet acknowledged, in the order they were made.
 * - `quarantine`: changes the server refused, kept and shown with the reason until the user
 *   retries or discards them.
 * - `meta`: the cursor, the HLC clock, the measured server clock offset, who the replica is for.
 *
 * Schema changes add a `version(n)` with an upgrade function; versions are never edited.
 *
 * Inside a transaction every read and write goes through the transaction's own tables
 * (`tx.table(name)`, `tablesOf(tx)`), never through the database object: Dexie finds the
 * transaction of a `db.table` call by its async zone, which a chain of native awaits (the
 * shared operations are ordinary async functions) can lose, and the call then runs in a
 * transaction of its own while the outer one commits early. A table taken from the transaction
 * is bound to it whatever the zone.
 */
import { Dexie, type EntityTable, type Table, type Transaction } from "dexie";
import type { Change } from "../core/change.ts";
import { type EntityName, entities, entityNames } from "../core/entities.ts";
import type { ScopedRowState } from "../core/merge-change.ts";

export interface DeviceRow extends ScopedRowState {
  readonly id: string;
  /** 1 when every required column has been written (an index cannot hold booleans). */
  readonly complete: 0 | 1;
  /**
   * The confirmed row while changes of the device to it are pending: null when the server has
   * confirmed nothing of it yet; absent when nothing is pending.
   */
  readonly base?: ScopedRowState | null;
}

export interface OutboxEntry {
  /** Order of writing; kept when an entry moves to quarantine and back. */
  readonly seq?: number;
  /** `entity/id` of the row the change touches. */
  readonly rowKey: string;
  readonly change: Change;
}

export interface QuarantineEntry extends OutboxEntry {
  readonly seq: number;
  /** Connect code of the refusal, e.g. "invalid_argument". */
  readonly code: string;
  readonly reason: string;
}

export interface MetaEntry {
  readonly key: string;
  readonly value: unknown;
}

/** The columns each entity table indexes (besides id): the ones lists filter on. */
export const indexedColumns: Readonly<Record<EntityName, readonly string[]>> = {
  apiary: [],
  hive: ["apiary_id"],
  placement: ["hive_id"],
  inspection: ["hive_id"],
  queen: ["hive_id"],
  task: ["hive_id"],
  treatment: ["hive_id"],
  harvest: ["hive_id"],
  event: ["hive_id", "ref_id"],
};

export const rowKey = (entity: string, id: string): string => `${entity}/${id}`;

export type ReplicaDb = Dexie & {
  outbox: EntityTable<OutboxEntry, "seq">;
  quarantine: EntityTable<QuarantineEntry, "seq">;
  meta: EntityTable<MetaEntry, "key">;
};

export interface ReplicaDbOptions {
  readonly indexedDB?: IDBFactory;
  readonly IDBKeyRange?: typeof IDBKeyRange;
}

export function openReplicaDb(name: string, options: ReplicaDbOptions = {}): ReplicaDb {
  const db = new Dexie(name, {
    ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
    ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
  }) as ReplicaDb;
  const stores: Record<string, string> = {
    outbox: "++seq, rowKey",
    quarantine: "seq, rowKey",
    meta: "key",
  };
  for (const name of entityNames) {
    stores[entities[name].table] = ["id", ...indexedColumns[name].map((c) => `values.${c}`)].join(
      ", ",
    );
  }
  db.version(1).stores(stores);
  return db;
}

/** The database (outside transactions) or a transaction (its tables are bound to it). */
export type TableSource = Pick<Transaction, "table">;

export const entityTable = (src: TableSource, entity: EntityName): Table<DeviceRow, string> =>
  src.table<DeviceRow, string>(entities[entity].table);

export const entityTables = (src: TableSource) => entityNames.map((e) => entityTable(src, e));

/** The sync tables of a source: inside a transaction, bound to it. */
export function tablesOf(src: TableSource) {
  return {
    outbox: src.table<OutboxEntry, number>("outbox"),
    quarantine: src.table<QuarantineEntry, number>("quarantine"),
    meta: src.table<MetaEntry, string>("meta"),
  };
}

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
 * - `notices` (version 3): what sync overrode or set aside of the user's work, until dismissed
 *   (notices.ts).
 * - `photos` (version 4): photos the replica holds by reference (core/photo-ref.ts), fetched
 *   when shown or ahead for recent visits, keyed by reference (photos.ts).
 * - `series` and `seriesRanges` (version 5): a hive's day buckets of GetReadingSeries for the
 *   days older than the readings window, and which range of them was fetched when
 *   (reading-series-cache.ts).
 * - `series` rows packed (version 9): `CachedSeriesBucket`.
 * - `readingPoints` (version 8): each live reading's time and measurements, kept in step with the
 *   inspections by a middleware (reading-points.ts).
 *
 * Schema changes add a `version(n)` with an upgrade function; versions are never edited. A new
 * ordered index on a table that had none needs its upgrade to write `live` into that table's rows.
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
import {
  type ColumnStats,
  type SeriesBucket,
  type SeriesColumn,
  seriesColumns,
} from "../core/reading-series.ts";
import { isVisitRow } from "../ops/query.ts";
import { noticesTable, type SyncNotice } from "./notices.ts";
import {
  fillPoints,
  readingPointsMiddleware,
  readingPointsStore,
  readingPointsTable,
} from "./reading-points.ts";

export const photosTable = "photos";
export const seriesTable = "series";
export const seriesRangesTable = "seriesRanges";

/**
 * One day bucket of a hive's GetReadingSeries as cached (version 9): its columns' statistics
 * packed in one array, `count, min, max, mean` per column of `seriesColumns` in order, a count of
 * 0 for a column the bucket does not have. A three-year chart reads about 1,100 buckets; as nested
 * objects (seven per bucket) that read was most of the chart's wait after "All" (issue 29), an
 * array of numbers is copied whole.
 */
export interface CachedSeriesBucket {
  readonly hiveId: string;
  readonly start: number;
  readonly count: number;
  readonly stats: Float64Array;
}

/** A fetched bucket as cached. */
export function packBucket(hiveId: string, bucket: SeriesBucket): CachedSeriesBucket {
  const stats = new Float64Array(seriesColumns.length * 4);
  seriesColumns.forEach((column, k) => {
    const c = bucket.columns[column];
    if (c === undefined) return;
    stats.set([c.count, c.min, c.max, c.mean], k * 4);
  });
  return { hiveId, start: bucket.start, count: bucket.count, stats };
}

/** A cached bucket as the rule gives it (`packBucket` undone). */
export function unpackBucket(row: CachedSeriesBucket): SeriesBucket {
  const columns: Partial<Record<SeriesColumn, ColumnStats>> = {};
  const { stats } = row;
  seriesColumns.forEach((column, k) => {
    const count = stats[k * 4] ?? 0;
    if (count === 0) return;
    columns[column] = {
      count,
      min: stats[k * 4 + 1] ?? 0,
      max: stats[k * 4 + 2] ?? 0,
      mean: stats[k * 4 + 3] ?? 0,
    };
  });
  return { start: row.start, count: row.count, columns };
}

/** The range of a hive's buckets fetched together, and when: what is fresh. */
export interface CachedSeriesRange {
  readonly hiveId: string;
  /** Unix ms, UTC midnights: [from, to). */
  readonly from: number;
  readonly to: number;
  readonly fetchedAt: number;
}

/** A photo held by reference, fetched (photos.ts). */
export interface CachedPhoto {
  /** "hkphoto:…" (core/photo-ref.ts). */
  readonly ref: string;
  /** The photo, a data:image/ URL. */
  readonly dataUrl: string;
  /** When it was last shown or fetched (ms): what is kept longest. */
  readonly usedAt: number;
}

export interface DeviceRow extends ScopedRowState {
  readonly id: string;
  /** 1 when every required column has been written (an index cannot hold booleans). */
  readonly complete: 0 | 1;
  /**
   * 1 when the row shows in reads (complete and not deleted). First in the ordered indexes, so
   * their range `[1, …]` holds exactly the live rows. Absent only on rows stored before version
   * 2 in tables without an ordered index, until they are next written; nothing reads it there.
   */
  readonly live?: 0 | 1;
  /**
   * 1 on a live inspection that is a visit, not a reading (core/inspection-kind.ts); absent on
   * every other row (version 7). First in the visits' indexes (`visitIndexes`), which therefore
   * hold live visits only: the overview's recent visits and each hive's last visit are read
   * without reading the readings after them.
   */
  readonly visit?: 1;
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

/**
 * The columns each entity table indexes (besides id): the ones lists filter on. An inspection's
 * hive_id is the filter of an ordered index instead (below), which finds its live rows.
 */
export const indexedColumns: Readonly<Record<EntityName, readonly string[]>> = {
  apiary: [],
  hive: ["apiary_id"],
  placement: ["hive_id"],
  inspection: [],
  queen: ["hive_id"],
  task: ["hive_id"],
  treatment: ["hive_id"],
  harvest: ["hive_id"],
  // type: statistics read the HARVEST events only.
  event: ["hive_id", "ref_id", "type"],
};

/**
 * An index of live rows in the order of a column: `[live+values.<filter>+values.<order>]`, or
 * `[live+values.<order>]` without a filter. `order` must be a required timestamp column: every
 * live row has it (validate-change.ts), so the index holds every live row, and the string order
 * of its canonical RFC 3339 values is the order of query.ts. Within one key IndexedDB orders by
 * primary key, the id: the order `date desc, id desc` is the index read backwards.
 */
export interface OrderedIndex {
  readonly filter?: string;
  readonly order: string;
  /** Keyed by `visit` instead of `live`: live visits only (version 7, `visitIndexes`). */
  readonly visits?: true;
}

export const orderedIndexes: Readonly<Record<EntityName, readonly OrderedIndex[]>> = {
  apiary: [],
  hive: [],
  placement: [],
  // ListInspections (all hives, or one), the dashboard's recent inspections and each hive's last.
  inspection: [{ order: "date" }, { filter: "hive_id", order: "date" }],
  queen: [],
  task: [],
  treatment: [],
  harvest: [],
  event: [],
};

export const orderedIndexName = ({ filter, order, visits }: OrderedIndex): string => {
  const first = visits ? "visit" : "live";
  return filter === undefined
    ? `[${first}+values.${order}]`
    : `[${first}+values.${filter}+values.${order}]`;
};

/**
 * The ordered indexes of live visits (version 7; `DeviceRow.visit`), for lists asked with
 * `visitsOnly`: the tenant's by date, a hive's by date.
 */
export const visitIndexes: Readonly<Record<EntityName, readonly OrderedIndex[]>> = {
  apiary: [],
  hive: [],
  placement: [],
  inspection: [
    { order: "date", visits: true },
    { filter: "hive_id", order: "date", visits: true },
  ],
  queen: [],
  task: [],
  treatment: [],
  harvest: [],
  event: [],
};

/** Version 1's indexes, as shipped (versions are never edited). */
const indexesV1: Readonly<Record<EntityName, readonly string[]>> = {
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

const syncTables: Record<string, string> = {
  outbox: "++seq, rowKey",
  quarantine: "seq, rowKey",
  meta: "key",
};

/** The Dexie stores of version 1 (exported for the upgrade test). */
export function storesV1(): Record<string, string> {
  const stores = { ...syncTables };
  for (const name of entityNames) {
    stores[entities[name].table] = ["id", ...indexesV1[name].map((c) => `values.${c}`)].join(", ");
  }
  return stores;
}

/** The Dexie stores of version 2 (and, with `notices`, of version 3); exported for the upgrade test. */
export function storesV2(): Record<string, string> {
  return stores();
}

/** The record and sync tables' stores of version 6 (exported for the upgrade test). */
export function storesV6(): Record<string, string> {
  return stores(true);
}

/**
 * Indexes of two columns, both compared for equality (version 6): a hive's timeline reads its
 * events of one type without reading the tenant's events of that type, or the hive's readings'.
 */
export const pairIndexes: Readonly<Record<EntityName, readonly (readonly [string, string])[]>> = {
  apiary: [],
  hive: [],
  placement: [],
  inspection: [],
  queen: [],
  task: [],
  treatment: [],
  harvest: [],
  event: [["hive_id", "type"]],
};

export const pairIndexName = ([a, b]: readonly [string, string]): string =>
  `[values.${a}+values.${b}]`;

/**
 * The Dexie stores of the record and sync tables of versions 2 to 5, with the pair indexes
 * (`pairs`) of version 6, and with the visits' indexes (`visits`) of version 7. (A version's stores must stay as it was shipped: Dexie creates an index
 * only where a version declares it first.)
 */
function stores(pairs = false, visits = false): Record<string, string> {
  const stores = { ...syncTables };
  for (const name of entityNames) {
    stores[entities[name].table] = [
      "id",
      ...indexedColumns[name].map((c) => `values.${c}`),
      ...orderedIndexes[name].map(orderedIndexName),
      ...(pairs ? pairIndexes[name].map(pairIndexName) : []),
      ...(visits ? visitIndexes[name].map(orderedIndexName) : []),
    ].join(", ");
  }
  return stores;
}

/** The tables beside the records' and the sync's, as of version 5 (their stores never changed). */
const sideTables = {
  [noticesTable]: "key",
  [photosTable]: "ref, usedAt",
  [seriesTable]: "[hiveId+start]",
  [seriesRangesTable]: "hiveId",
};

/** Every table's store as of version 8 (and 9, which rewrote rows only); for the upgrade test. */
export function storesV8(): Record<string, string> {
  return { ...stores(true, true), ...sideTables, [readingPointsTable]: readingPointsStore };
}

export type ReplicaDb = Dexie & {
  notices: EntityTable<SyncNotice, "key">;
  photos: EntityTable<CachedPhoto, "ref">;
  series: Table<CachedSeriesBucket, [string, number]>;
  seriesRanges: EntityTable<CachedSeriesRange, "hiveId">;
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
  db.version(1).stores(storesV1());
  // Ordered indexes of live rows, and events by type. The rows of the tables with an ordered
  // index get `live` (then IndexedDB fills the indexes); the upgrade rewrites each of those rows
  // once, so no other table is touched (the season's replica: 4.4 s instead of 7.8 s for all).
  db.version(2)
    .stores(stores())
    .upgrade(async (tx) => {
      for (const name of ["inspection"] as const) {
        await tx
          .table<{ complete: 0 | 1; deleted: boolean; live?: 0 | 1 }, string>(entities[name].table)
          .toCollection()
          .modify((row) => {
            row.live = row.complete === 1 && !row.deleted ? 1 : 0;
          });
      }
    });
  // Notices of overridden work (issue 25): a new table, nothing to rewrite.
  db.version(3).stores({ ...stores(), [noticesTable]: "key" });
  // Photos by reference (issue 29): a new table, nothing to rewrite (photos already in rows stay).
  db.version(4).stores({ ...stores(), [noticesTable]: "key", [photosTable]: "ref, usedAt" });
  // Reading series (issue 29): two new tables, nothing to rewrite.
  db.version(5).stores({
    ...stores(),
    ...sideTables,
  });
  // A hive's events by type (issue 29): an index added, nothing to rewrite.
  db.version(6).stores({
    ...stores(true),
    ...sideTables,
  });
  // The visits' indexes (issue 29): each live inspection that is a visit gets `visit` (then
  // IndexedDB fills the indexes); readings and other rows are left as they are.
  db.version(7)
    .stores({
      ...stores(true, true),
      ...sideTables,
    })
    .upgrade(async (tx) => {
      await tx
        .table<DeviceRow, string>(entities.inspection.table)
        .filter((row) => visitMark("inspection", row.live === 1, row.values) !== undefined)
        .modify((row: { visit?: 1 }) => {
          row.visit = 1;
        });
    });
  // Reading points (issue 29): a new table, kept in step with the inspections by a middleware
  // (reading-points.ts); the upgrade makes the points of the rows already there.
  db.version(8)
    .stores(storesV8())
    .upgrade((tx) => fillPoints(tx));
  // Cached series buckets packed (issue 29): the same table, each row rewritten.
  db.version(9)
    .stores(storesV8())
    .upgrade(async (tx) => {
      const table = tx.table(seriesTable);
      const rows = (await table.toArray()) as (SeriesBucket & { hiveId: string })[];
      await table.bulkPut(rows.map((row) => packBucket(row.hiveId, row)));
    });
  db.use(readingPointsMiddleware);
  return db;
}

/** `DeviceRow.visit` of a row of `entity` (live or not) with these values. */
export const visitMark = (
  entity: EntityName,
  live: boolean,
  values: Readonly<Record<string, unknown>>,
): 1 | undefined => (live && isVisitRow(entity, values) ? 1 : undefined);

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

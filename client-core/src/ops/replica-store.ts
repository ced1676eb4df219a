/**
 * The store port: what the contract operations (ops/*-service.ts) need of a replica. Three
 * implementations pass one suite (client-core/src/testing/replica-store-suite.ts): SQL on the server (the one write path),
 * Dexie on the device, and memory for unit tests.
 *
 * Reads see only rows that exist for the API: complete (every required column written) and not
 * deleted, unless `evenDeleted` is asked for. Lists are described as data (query.ts), so SQL turns
 * them into `where … order by … offset … limit …` and the other stores run them with the one
 * comparator of query.ts.
 *
 * A `write` runs its function in one transaction of the tenant: reads see the writes made before
 * them in it, and nothing is kept when the function throws. Only the store's own calls may be
 * awaited inside (Dexie commits a transaction that waits on anything else).
 *
 * The writer a store hands to `write` shows its clock (the one the operations stamp with) every
 * stamp of every row its `get` and `list` return (`observeReads`), before the operation sees the
 * row: a change the operation then stamps is later than every stamp of the rows it read, so an
 * edit never loses last-writer-wins to the very row it edits, even a row stamped ahead of this
 * node's clock by another node. No operation observes anything by hand.
 */
import type { Change } from "../core/change.ts";
import type { EntityName } from "../core/entities.ts";
import type { Hlc } from "../core/hlc.ts";
import type { Values } from "../core/merge.ts";
import type { ListQuery } from "./query.ts";
import type { ReadingPoint } from "./reading-points.ts";

/**
 * A row as the operations see it: the merged values (snake_case columns; timestamps as RFC 3339
 * strings with milliseconds, UTC; an orset column as its `OrSetState`; a column never written is
 * absent), the stamps, and the scope.
 */
export interface StoredRow {
  readonly id: string;
  readonly scopeId: string;
  readonly values: Values;
  readonly clock: Readonly<Record<string, Hlc>>;
  readonly deleted: boolean;
}

export interface GetOptions {
  /** Tombstoned rows too (labels of statistics name removed hives). Partial rows never. */
  readonly evenDeleted?: boolean;
}

export interface ReplicaReader {
  get(entity: EntityName, id: string, options?: GetOptions): Promise<StoredRow | undefined>;
  /** A page of live rows and the number of all rows that match. */
  list(entity: EntityName, query: ListQuery): Promise<{ rows: StoredRow[]; total: number }>;
  /** The number of live rows per value of `column` among `values` (absent = 0). */
  countBy(
    entity: EntityName,
    column: string,
    values: readonly string[],
  ): Promise<Map<string, number>>;
  /**
   * The latest value of the timestamp column `of` among live rows, per value of `column` among
   * `values` (absent = no live row with one); RFC 3339 strings, as in the rows.
   */
  maxBy(
    entity: EntityName,
    column: string,
    values: readonly string[],
    of: string,
  ): Promise<Map<string, string>>;
  /**
   * Which of these ids are rows of the entity (complete, deleted ones too), with their scopes:
   * what an import asks of the organization in one read instead of a `get` per id.
   */
  scopesOf(entity: EntityName, ids: readonly string[]): Promise<Map<string, string>>;
  /**
   * A hive's reading points (ops/reading-points.ts), oldest first, from a table the store keeps
   * of them (a device's). Absent: `hiveReadingPoints` reads them from the rows.
   */
  readingPoints?(hiveId: string): Promise<ReadingPoint[]>;
}

export interface ReplicaWriter extends ReplicaReader {
  /** Merges the changes with the shared rule (and, on a device, queues them for Push). */
  apply(changes: readonly Change[]): Promise<void>;
}

export interface ReplicaStore {
  read<T>(fn: (r: ReplicaReader) => Promise<T>): Promise<T>;
  /** The writer observes every row it returns with the store's clock (`observeReads`). */
  write<T>(fn: (w: ReplicaWriter) => Promise<T>): Promise<T>;
}

/**
 * What a store's writer needs of the clock the operations stamp with (the server's
 * `ServerClock`, a device's `DeviceClock`): to see a stamp, so that its next one is later.
 */
export interface StampObserver {
  observe(hlc: Hlc): void;
}

/**
 * The writer's reads, observing: every stamp of every row `get` and `list` return is shown to
 * `clock` before the row is returned. Each store wraps the writer it hands to `write` in this
 * (the one implementation of the rule). Every store takes its clock as a required option, so none
 * can be opened that forgets it (tests that stamp nothing pass `testing/ignore-stamps.ts`).
 */
export function observeReads<R extends ReplicaReader>(reader: R, clock: StampObserver): R {
  const see = (row: StoredRow): void => {
    for (const hlc of Object.values(row.clock)) clock.observe(hlc);
  };
  return {
    ...reader,
    async get(entity, id, options) {
      const row = await reader.get(entity, id, options);
      if (row !== undefined) see(row);
      return row;
    },
    async list(entity, query) {
      const page = await reader.list(entity, query);
      for (const row of page.rows) see(row);
      return page;
    },
  };
}

/**
 * The in-memory replica store: the port's reference implementation, for unit tests and tools.
 * It keeps every row's merge state and the feed of accepted changes (what the server's feed
 * would hold). A write works on a copy of the touched rows and publishes them only when its
 * function resolves; writes run one at a time. Given the clock the operations stamp with, a
 * write's reads observe every row they return (`observeReads`).
 */
import { type Change, rowKey } from "../core/change.ts";
import { type EntityName, entities } from "../core/entities.ts";
import { isComplete } from "../core/merge.ts";
import { mergeChange, type ScopedRowState } from "../core/merge-change.ts";
import { assertTimestamp, type ListQuery, runList } from "./query.ts";
import {
  observeReads,
  type ReplicaReader,
  type ReplicaStore,
  type ReplicaWriter,
  type StampObserver,
  type StoredRow,
} from "./replica-store.ts";

export class MemoryStore implements ReplicaStore {
  /** Rows by `entity/id`, partial and deleted ones included. */
  rows = new Map<string, ScopedRowState>();
  /** The accepted part of every change that contributed, in order. */
  readonly feed: Change[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly clock: StampObserver) {}

  read<T>(fn: (r: ReplicaReader) => Promise<T>): Promise<T> {
    return fn(reader(this.rows));
  }

  write<T>(fn: (w: ReplicaWriter) => Promise<T>): Promise<T> {
    const run = async () => {
      const staged = new Map(this.rows);
      const fed: Change[] = [];
      const w: ReplicaWriter = {
        ...observeReads(reader(staged), this.clock),
        async apply(changes) {
          for (const change of changes) {
            const k = rowKey(change.entity, change.entityId);
            const merged = mergeChange(staged.get(k), change);
            if (merged.row === undefined || merged.fed === undefined) continue;
            staged.set(k, merged.row);
            fed.push(merged.fed);
          }
        },
      };
      const result = await fn(w);
      this.rows = staged;
      this.feed.push(...fed);
      return result;
    };
    const done = this.queue.then(run, run);
    this.queue = done.catch(() => {});
    return done;
  }
}

const toStored = (id: string, row: ScopedRowState): StoredRow => ({
  id,
  scopeId: row.scopeId,
  values: row.values,
  clock: row.clock,
  deleted: row.deleted,
});

function reader(map: ReadonlyMap<string, ScopedRowState>): ReplicaReader {
  function* live(entity: EntityName, evenDeleted = false): Iterable<StoredRow> {
    const prefix = `${entity}/`;
    for (const [k, row] of map) {
      if (!k.startsWith(prefix) || (row.deleted && !evenDeleted)) continue;
      if (!isComplete(row, entities[entity])) continue;
      yield toStored(k.slice(prefix.length), row);
    }
  }
  return {
    async get(entity, id, options) {
      const row = map.get(rowKey(entity, id));
      if (row === undefined || !isComplete(row, entities[entity])) return undefined;
      if (row.deleted && !options?.evenDeleted) return undefined;
      return toStored(id, row);
    },
    async list(entity, query: ListQuery) {
      return runList(entity, live(entity, query.evenDeleted), query);
    },
    async countBy(entity, column, values) {
      const wanted = new Set(values);
      const counts = new Map<string, number>();
      for (const row of live(entity)) {
        const v = row.values[column];
        if (typeof v === "string" && wanted.has(v)) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      return counts;
    },
    async maxBy(entity, column, values, of) {
      assertTimestamp(entity, of);
      const wanted = new Set(values);
      const max = new Map<string, string>();
      for (const row of live(entity)) {
        const v = row.values[column];
        const at = row.values[of];
        if (typeof v !== "string" || !wanted.has(v) || typeof at !== "string") continue;
        const m = max.get(v);
        // Canonical RFC 3339 strings (ASCII): string order is time order.
        if (m === undefined || at > m) max.set(v, at);
      }
      return max;
    },
  };
}

/**
 * The server's replica store (client-core ops/replica-store.ts): the entity tables of one tenant,
 * read with SQL and written through the one write path (tenant-write.ts, apply-changes.ts).
 */
import { type EntityName, entities, isComplete, rowKey } from "@hivekeep/client-core/core";
import {
  assertTimestamp,
  type ListQuery,
  observeReads,
  type ReplicaReader,
  type ReplicaStore,
  type ReplicaWriter,
  type StoredRow,
} from "@hivekeep/client-core/ops";
import { type Db, type Queryable, type Row, settled } from "../db/db.ts";
import type { WrittenRow } from "./apply-changes.ts";
import { idsSql } from "./entity-sql.ts";
import { rowStateFromDb } from "./row-state.ts";
import type { ServerClock } from "./server-clock.ts";
import { orderSql, whereSql } from "./sql-query.ts";
import { type WriteOptions, writeTenant } from "./tenant-write.ts";

export function storedRow(entity: EntityName, row: Row): StoredRow {
  const state = rowStateFromDb(row, entities[entity]);
  return { id: String(row.id), scopeId: String(row.scope_id), ...state };
}

export function sqlReader(q: Queryable, organizationId: string): ReplicaReader {
  return {
    async get(entity, id, options) {
      const [row] = await q.query(
        `select * from ${entities[entity].table}
         where organization_id = $1 and id = $2 and complete
           ${options?.evenDeleted ? "" : "and not deleted"}`,
        [organizationId, id],
      );
      return row && storedRow(entity, row);
    },

    async list(entity: EntityName, query: ListQuery) {
      if (query.visitsOnly) throw new Error("sql-store: visitsOnly is a read of the device");
      const params: unknown[] = [organizationId];
      const where = ["organization_id = $1", "complete"];
      if (!query.evenDeleted) where.push("not deleted");
      if (query.afterId !== undefined) {
        params.push(query.afterId);
        where.push(`id collate "C" > $${params.length}`);
      }
      where.push(...whereSql(entity, query.where ?? [], params));
      const table = entities[entity].table;
      const conds = where.join(" and ");
      const countParams = [...params];
      const order = orderSql(entity, query, params);
      let window = "";
      if (query.offset) {
        params.push(query.offset);
        window += ` offset $${params.length}`;
      }
      if (query.limit !== undefined) {
        params.push(query.limit);
        window += ` limit $${params.length}`;
      }
      const select = `select * from ${table} where ${conds} order by ${order}${window}`;
      if (window === "" || query.afterId !== undefined) {
        // Every row that matches (or a keyset page, which counts nothing): the total is their
        // number, no count to ask for.
        const rows = (await q.query(select, params)).map((r) => storedRow(entity, r));
        return { rows, total: rows.length };
      }
      const [rows, count] = await settled([
        q.query(select, params),
        q.query<{ n: number }>(`select count(*) as n from ${table} where ${conds}`, countParams),
      ]);
      return { rows: rows.map((r) => storedRow(entity, r)), total: Number(count[0]?.n ?? 0) };
    },

    async countBy(entity, column, values) {
      if (!(column in entities[entity].columns)) throw new Error(`unknown column ${column}`);
      const counts = new Map<string, number>();
      if (values.length === 0) return counts;
      const rows = await q.query<{ v: string; n: number }>(
        `select ${column} as v, count(*) as n from ${entities[entity].table}
         where organization_id = $1 and complete and not deleted
           and ${column} = any (${idsSql("$2")})
         group by ${column}`,
        [organizationId, JSON.stringify(values)],
      );
      for (const r of rows) counts.set(String(r.v), Number(r.n));
      return counts;
    },

    async scopesOf(entity, ids) {
      return (await rowsOf(q, organizationId, entity, ids)).scopes;
    },

    async maxBy(entity, column, values, of) {
      if (!(column in entities[entity].columns)) throw new Error(`unknown column ${column}`);
      assertTimestamp(entity, of);
      const max = new Map<string, string>();
      if (values.length === 0) return max;
      const rows = await q.query<{ v: string; m: Date | null }>(
        `select ${column} as v, max(${of}) as m from ${entities[entity].table}
         where organization_id = $1 and complete and not deleted
           and ${column} = any (${idsSql("$2")})
         group by ${column}`,
        [organizationId, JSON.stringify(values)],
      );
      // As rowStateFromDb makes a timestamp (RFC 3339, ms, UTC).
      for (const r of rows) if (r.m !== null) max.set(String(r.v), new Date(r.m).toISOString());
      return max;
    },
  };
}

/**
 * The rows of `ids`: the scopes of the complete ones (what `scopesOf` answers: deleted rows too)
 * and the ids that have a row at all, complete or not.
 */
async function rowsOf(
  q: Queryable,
  organizationId: string,
  entity: EntityName,
  ids: readonly string[],
): Promise<{ scopes: Map<string, string>; present: Set<string> }> {
  const scopes = new Map<string, string>();
  const present = new Set<string>();
  if (ids.length === 0) return { scopes, present };
  const rows = await q.query<{ id: string; scope_id: string; complete: boolean }>(
    `select id, scope_id, complete from ${entities[entity].table}
     where organization_id = $1 and id = any (${idsSql("$2")})`,
    [organizationId, JSON.stringify(ids)],
  );
  for (const r of rows) {
    present.add(String(r.id));
    if (r.complete) scopes.set(String(r.id), String(r.scope_id));
  }
  return { scopes, present };
}

export interface StoreOptions extends WriteOptions {
  /**
   * The clock the operations stamp with (the server's, deps.clock): it stamps the invariant
   * repair, and a write's reads observe every row they return with it (`observeReads`).
   */
  readonly clock: ServerClock;
  /**
   * Ids the caller minted for new rows (the session's newId), none of them written yet: an apply
   * does not look them up, and takes out the ones it writes.
   */
  readonly minted?: Set<string>;
}

/**
 * The store of one tenant. Reads outside a write run without a transaction; writes stamp the
 * invariant repair with `options.clock` (the server's), and their reads show it every row they
 * return. Inside a write, `get` answers a row the write has applied from the state it wrote (the
 * row as stored) without reading it back.
 */
export function sqlStore(db: Db, organizationId: string, options: StoreOptions): ReplicaStore {
  const { minted, ...writeOptions } = options;
  return {
    read: (fn) => fn(sqlReader(db, organizationId)),
    write: (fn) =>
      writeTenant(
        db,
        organizationId,
        (w) => {
          const reader = sqlReader(w.tx, organizationId);
          const written = new Map<string, WrittenRow>();
          // Rows this write looked for and found none of (not even a partial row), by rowKey.
          // The write holds the tenant's lock, so none appears until the write itself writes it:
          // its apply need not look them up again (CreateReadings: the readings' derived ids).
          const absent = new Set<string>();
          const writer: ReplicaWriter = {
            ...reader,
            async scopesOf(entity, ids) {
              const { scopes, present } = await rowsOf(w.tx, organizationId, entity, ids);
              for (const id of ids) if (!present.has(id)) absent.add(rowKey(entity, id));
              return scopes;
            },
            async get(entity, id, getOptions) {
              const row = written.get(rowKey(entity, id));
              if (row === undefined) return reader.get(entity, id, getOptions);
              // As the select: never a partial row, a deleted one only when asked for.
              const complete = isComplete(row.state, entities[entity]);
              if (!complete || (row.state.deleted && !getOptions?.evenDeleted)) return undefined;
              return { id, scopeId: row.scopeId, ...row.state };
            },
            async apply(changes) {
              if (changes.length === 0) return;
              const fresh = new Set<string>();
              for (const c of changes) {
                const unstored = absent.delete(rowKey(c.entity, c.entityId));
                if (minted?.delete(c.entityId) || unstored) fresh.add(c.entityId);
              }
              const outcome = await w.apply(changes, { fresh });
              for (const [key, row] of outcome.written) written.set(key, row);
            },
          };
          return fn(observeReads(writer, writeOptions.clock));
        },
        writeOptions,
      ),
  };
}

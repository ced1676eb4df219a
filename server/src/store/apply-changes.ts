/**
 * The one write path (DESIGN.md §2). Every state change, from an RPC or a
 * Push, is a list of Changes applied here inside the caller's transaction,
 * which already holds the tenant's feed lock (see tenant-write.ts):
 *
 *   load target rows → plan the writes (write-plan.ts: merge each change with
 *   the shared rule, the rows to write, the feed entries with the next
 *   sequence numbers) → run the plan's statements, chunk by chunk.
 *
 * This file is the I/O half: the loads, the statements and their sending.
 * What is written is decided by `planWrites`, which is tested without SQL.
 */

import type { EntityName, RowState } from "@hivekeep/client-core/core";
import {
  type ApplyResult,
  type Change,
  type Conflict,
  entities,
  entityNames,
  type Rejection,
  rowKey,
} from "@hivekeep/client-core/core";
import { type Queryable, settled } from "../db/db.ts";
import { entitySql, sqlTypes } from "./entity-sql.ts";
import { rowStateFromDb } from "./row-state.ts";
import {
  type Check,
  planWrites,
  type RowWrite,
  type WriteChunk,
  type WrittenRow,
} from "./write-plan.ts";
import { feedRecordsJson, rowRecordsJson } from "./write-records.ts";

export type { Check, Conflict, WrittenRow };

export interface ApplyOutcome {
  readonly conflicts: readonly Conflict[];
  /** The feed sequence number of the last appended row (unchanged if none). */
  readonly lastSeq: number;
  /** How many feed rows were appended. */
  readonly appended: number;
  /** Per change (same order): what the merge did. */
  readonly results: readonly ApplyResult[];
  /** The rows the batch wrote, as written, by rowKey. */
  readonly written: ReadonlyMap<string, WrittenRow>;
}

export interface ApplyOptions {
  /**
   * Called for each change, in order, before it merges, with the row as it
   * stands (earlier changes of the batch included). Any rejection aborts the
   * whole batch before anything is written (Push validation); writes of
   * earlier chunks already sent are rolled back with the transaction.
   */
  readonly check?: Check | Promise<Check>;
  /**
   * Changes merged per write statement (default: all of them). With a
   * database in another process (Postgres), a chunk's writes are sent before
   * the next chunk merges, so the database writes while the server merges;
   * in process (PGlite) that overlap cannot happen and one write is cheapest.
   */
  readonly writeChunk?: number;
  /**
   * Ids of rows known not to be stored (ids this request minted): they are not loaded, and
   * their rows are inserted, so a row that did exist fails the insert instead of merging.
   */
  readonly fresh?: ReadonlySet<string>;
}

/** A batch with invalid changes: nothing of it was written. */
export class BatchRejectedError extends Error {
  override name = "BatchRejectedError";
  constructor(readonly rejections: readonly Rejection[]) {
    super(`${rejections.length} change(s) rejected`);
  }
}

export async function applyChanges(
  tx: Queryable,
  organizationId: string,
  changes: readonly Change[],
  feedSeq: number,
  options: ApplyOptions = {},
): Promise<ApplyOutcome> {
  const [stored, check] = await settled([
    loadRows(tx, organizationId, changes, options.fresh),
    options.check,
  ]);
  const plan = planWrites({ changes, stored, feedSeq, check, chunk: options.writeChunk });
  const writes: Promise<unknown>[] = [];
  let step = plan.next();
  while (!step.done) {
    writes.push(...sendChunk(tx, organizationId, step.value));
    // Let the driver send them before the next chunk is planned.
    if (step.value.upTo < changes.length) await new Promise((resolve) => setImmediate(resolve));
    step = plan.next();
  }
  const { rejections, results, conflicts, lastSeq, written } = step.value;
  if (rejections.length > 0) {
    await Promise.allSettled(writes);
    throw new BatchRejectedError(rejections);
  }
  await settled(writes);
  return { conflicts, lastSeq, appended: lastSeq - feedSeq, results, written };
}

/**
 * Sends (does not await) a chunk's statements: per table, one insert of its new rows and one
 * upsert of its stored rows; then the feed's insert, which also writes the rows its entries
 * carry.
 */
function sendChunk(tx: Queryable, organizationId: string, chunk: WriteChunk): Promise<unknown>[] {
  // New rows are inserted; rows already stored are upserted (cheaper that way).
  const groups = new Map<EntityName, Record<RowWrite["how"], RowWrite[]>>();
  for (const row of chunk.rows) {
    let group = groups.get(row.entity);
    if (group === undefined) {
      group = { insert: [], upsert: [] };
      groups.set(row.entity, group);
    }
    group[row.how].push(row);
  }
  const writes: Promise<unknown>[] = [];
  for (const [entity, group] of groups) {
    const sql = entitySql(entities[entity]);
    for (const how of ["insert", "upsert"] as const) {
      if (group[how].length > 0) {
        writes.push(tx.query(sql[how], [organizationId, rowRecordsJson(group[how])]));
      }
    }
  }
  if (chunk.feed.length > 0) {
    const carried = new Set<EntityName>();
    for (const entry of chunk.feed) if (entry.carries) carried.add(entry.change.entity);
    writes.push(tx.query(feedSql(carried), [organizationId, feedRecordsJson(chunk.feed)]));
  }
  // Awaited later (applyChanges), after the next chunks are planned: marked handled now, so a
  // failure meanwhile is not an unhandled rejection.
  for (const w of writes) w.catch(() => {});
  return writes;
}

/** The stored rows the changes target, by rowKey; rows of `fresh` ids are not looked up. */
async function loadRows(
  tx: Queryable,
  organizationId: string,
  changes: readonly Change[],
  fresh: ReadonlySet<string> | undefined,
): Promise<Map<string, WrittenRow>> {
  const idsByEntity = new Map<EntityName, Set<string>>();
  for (const c of changes) {
    if (fresh?.has(c.entityId)) continue;
    const ids = idsByEntity.get(c.entity) ?? new Set<string>();
    ids.add(c.entityId);
    idsByEntity.set(c.entity, ids);
  }
  const loads = [...idsByEntity].map(async ([entity, ids]) => ({
    entity,
    rows: await tx.query(entitySql(entities[entity]).load, [
      organizationId,
      JSON.stringify([...ids]),
    ]),
  }));
  const stored = new Map<string, WrittenRow>();
  for (const { entity, rows } of await settled(loads)) {
    for (const row of rows) {
      const state: RowState = rowStateFromDb(row, entities[entity]);
      stored.set(rowKey(entity, String(row.id)), { state, scopeId: String(row.scope_id) });
    }
  }
  return stored;
}

const feedSqlCache = new Map<string, string>();

/**
 * Inserts the feed records of $2 (write-records.ts `feedRecordsJson`) and, in the same
 * statement, the rows of the `carried` entities that a record carries (it has `row_complete`
 * and `row_clock`): the row's values are the record's payload.
 */
function feedSql(carried: ReadonlySet<EntityName>): string {
  const names = entityNames.filter((e) => carried.has(e));
  const cacheKey = names.join(",");
  const hit = feedSqlCache.get(cacheKey);
  if (hit) return hit;
  const rowInserts = names.map((entity) => {
    const spec = entities[entity];
    const cols = Object.keys(spec.columns);
    const defs = cols.map((c) => `${c} ${sqlTypes[spec.columns[c]?.type ?? "text"]}`).join(", ");
    return `, rows_${entity} as (
      insert into ${spec.table} (organization_id, id, scope_id, clock, deleted, complete, ${cols.join(", ")})
      select $1, f.entity_id, f.scope_id,
        f.row_clock, false, f.row_complete, ${cols.map((c) => `p.${c}`).join(", ")}
      from f cross join lateral json_to_record(f.payload) as p(${defs})
      where f.entity = '${entity}' and f.row_complete is not null)`;
  });
  const sql = `with f as (
      select * from json_to_recordset($2::text::json) as r(seq bigint, entity text, entity_id text,
        scope_id text, op smallint, payload json, payload_refs text, hlc text, author_id text, change_head text,
        held_until timestamptz, with_state boolean, row_complete boolean, row_clock json))
    ${rowInserts.join("\n")}
    insert into changes (organization_id, seq, entity, entity_id, scope_id, op, payload, payload_refs,
      hlc, author_id, change_head, held_until, with_state)
    select $1, f.seq, f.entity, f.entity_id, f.scope_id, f.op, f.payload::text, f.payload_refs, f.hlc,
      f.author_id, f.change_head, f.held_until, f.with_state
    from f`;
  feedSqlCache.set(cacheKey, sql);
  return sql;
}

/**
 * The one write path (DESIGN.md §2). Every state change, from an RPC or a
 * Push, is a list of Changes applied here inside the caller's transaction,
 * which already holds the tenant's feed lock (see tenant-write.ts):
 *
 *   load target rows → merge each change with the shared rule (client-core)
 *   → write the merged rows → append the accepted part of each change to the
 *   feed with the next sequence numbers, and with its Change message's bytes
 *   but the payload, which Pull sends as they are (feed.ts).
 *
 * A change of which nothing was accepted (a re-push, or one that lost every
 * column) adds no feed row.
 */

import type { Rejection, RowFacts } from "@hivekeep/client-core/core";
import {
  type ApplyResult,
  type Change,
  type Conflict,
  type EntityName,
  type EntitySpec,
  entities,
  entityNames,
  isComplete,
  mergeChange,
  type RowState,
  rowKey,
  type Values,
} from "@hivekeep/client-core/core";
import { type Queryable, settled } from "../db/db.ts";
import { entitySql, sqlTypes } from "./entity-sql.ts";
import { changeHead } from "./feed.ts";
import { rowStateFromDb } from "./row-state.ts";
import { clockJson, packClock, type StoredClock } from "./stored-clock.ts";

export type { Conflict };

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

/** A row as an apply left it in its table. */
export interface WrittenRow {
  readonly state: RowState;
  readonly scopeId: string;
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

/**
 * A Push check. It may be given as a promise (of facts still being read), so
 * its queries travel together with the target rows' (one round trip).
 */
export type Check = (change: Change, index: number, existing: RowFacts | undefined) => Rejection[];

/** A batch with invalid changes: nothing of it was written. */
export class BatchRejectedError extends Error {
  override name = "BatchRejectedError";
  constructor(readonly rejections: readonly Rejection[]) {
    super(`${rejections.length} change(s) rejected`);
  }
}

interface Target {
  /** The row exists in the table (else it is inserted, not upserted). */
  stored: boolean;
  state: RowState | undefined;
  scopeId: string;
  dirty: boolean;
  /**
   * The feed row of the one change that created this row, while the row is
   * exactly that change's accepted payload (a row never seen, one upsert, no
   * orset column): then the feed row's payload also writes the row
   * (feedSql), and the row's values travel to the database once.
   */
  feedRow?: FeedRecord;
}

interface FeedRecord {
  seq: number;
  entity: string;
  entity_id: string;
  scope_id: string;
  op: 1 | 2;
  payload: Values;
  hlc: string;
  author_id: string;
  /** The Change message's bytes but the payload, base64 (`changeHead`). */
  change_head: string;
  /** Set only on a feed row that also writes its row (Target.feedRow). */
  row_complete?: boolean;
  row_clock?: StoredClock;
}

export async function applyChanges(
  tx: Queryable,
  organizationId: string,
  changes: readonly Change[],
  feedSeq: number,
  options: ApplyOptions = {},
): Promise<ApplyOutcome> {
  const [targets, check] = await settled([
    loadTargets(tx, organizationId, changes, options.fresh),
    options.check,
  ]);
  const chunk = options.writeChunk ?? changes.length;
  // A row is written once, with the chunk that holds its last change.
  const lastChange = new Map<string, number>();
  for (const [index, c] of changes.entries()) lastChange.set(rowKey(c.entity, c.entityId), index);
  const rejections: Rejection[] = [];
  const conflicts: Conflict[] = [];
  const results: ApplyResult[] = [];
  const writes: Promise<unknown>[] = [];
  let seq = feedSeq;
  let feed: FeedRecord[] = [];
  /** Rows whose last change has merged, not yet written. */
  let finished: string[] = [];
  /** The last sequence number whose feed row has been sent. */
  let sentSeq = feedSeq;

  for (const [index, change] of changes.entries()) {
    const spec = entities[change.entity];
    const key = rowKey(change.entity, change.entityId);
    const target = targets.get(key) ?? {
      stored: false,
      state: undefined,
      scopeId: change.scopeId,
      dirty: false,
    };
    targets.set(key, target);
    const found = check?.(
      change,
      index,
      target.state && {
        ...target.state,
        complete: isComplete(target.state, spec),
        scopeId: target.scopeId,
      },
    );
    if (found !== undefined && found.length > 0) {
      rejections.push(...found);
    } else {
      const record = merge(change, spec, target, seq + 1, results, conflicts);
      if (record !== undefined) {
        seq = record.seq;
        feed.push(record);
      }
    }
    if (lastChange.get(key) === index) finished.push(key);
    const chunkEnd = (index + 1) % chunk === 0 || index === changes.length - 1;
    // After a rejection nothing more is sent: the batch fails and rolls back.
    if (chunkEnd && rejections.length === 0) {
      writes.push(...sendWrites(tx, organizationId, targets, finished, feed, sentSeq));
      sentSeq = seq;
      feed = [];
      finished = [];
      // Let the driver send them before the next chunk merges.
      if (index < changes.length - 1) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  if (rejections.length > 0) {
    await Promise.allSettled(writes);
    throw new BatchRejectedError(rejections);
  }
  await settled(writes);
  const written = new Map<string, WrittenRow>();
  for (const [key, t] of targets) {
    if (t.dirty && t.state !== undefined) written.set(key, { state: t.state, scopeId: t.scopeId });
  }
  return { conflicts, lastSeq: seq, appended: seq - feedSeq, results, written };
}

/**
 * Merges one accepted change into its target (shared rule, client-core) and
 * answers its feed row (sequence number `seq`), none when nothing changed.
 */
function merge(
  change: Change,
  spec: EntitySpec,
  target: Target,
  seq: number,
  results: ApplyResult[],
  conflicts: Conflict[],
): FeedRecord | undefined {
  const unseen = target.state === undefined;
  // The scope a row had: stored or set earlier in the batch (a partial row has one too).
  const current =
    target.state === undefined ? undefined : { ...target.state, scopeId: target.scopeId };
  const { result, row, fed, conflict } = mergeChange(current, change);
  results.push(result);
  if (conflict !== undefined) conflicts.push(conflict);
  if (row === undefined || fed === undefined) return undefined;
  target.state = result.row;
  target.scopeId = row.scopeId;
  target.dirty = true;
  const feedRow: FeedRecord = {
    seq,
    entity: change.entity,
    entity_id: change.entityId,
    scope_id: fed.scopeId,
    op: change.op === "delete" ? 2 : 1,
    // Nested, not a string: json_to_recordset hands a json field over as
    // its exact text, which is JSON.stringify of the object (no escaping twice).
    payload: fed.payload,
    hlc: change.hlc,
    author_id: change.authorId,
    // The change as Pull will send it (with the payload), encoded once, here.
    change_head: "",
  };
  feedRow.change_head = changeHead(feedRow);
  // The merge of a change into a row never seen, without orset columns, is
  // the change's own state, all of it accepted (merge.ts): row = payload.
  target.feedRow =
    unseen && change.op === "upsert" && !hasOrSetColumn(spec, change) ? feedRow : undefined;
  return feedRow;
}

/**
 * Sends (does not await) the writes of a chunk: its feed rows, and the rows
 * whose last change it holds. A row that is its feed row's payload is written
 * by the feed's statement, unless that feed row went out with an earlier chunk.
 */
function sendWrites(
  tx: Queryable,
  organizationId: string,
  targets: ReadonlyMap<string, Target>,
  finished: readonly string[],
  feed: readonly FeedRecord[],
  sentSeq: number,
): Promise<unknown>[] {
  const rows: [string, Target][] = [];
  const rowEntities = new Set<EntityName>();
  for (const key of finished) {
    const t = targets.get(key);
    if (t === undefined || !t.dirty || t.state === undefined) continue;
    const entity = key.slice(0, key.indexOf("/")) as EntityName;
    if (t.feedRow !== undefined && t.feedRow.seq > sentSeq) {
      t.feedRow.row_complete = isComplete(t.state, entities[entity]);
      t.feedRow.row_clock = packClock(t.state.clock);
      rowEntities.add(entity);
    } else {
      t.feedRow = undefined;
      rows.push([key, t]);
    }
  }
  const writes = writeTargets(tx, organizationId, rows);
  if (feed.length > 0) {
    writes.push(tx.query(feedSql(rowEntities), [organizationId, JSON.stringify(feed)]));
  }
  // Awaited later (applyChanges), after the next chunks merge: marked handled
  // now, so a failure meanwhile is not an unhandled rejection.
  for (const w of writes) w.catch(() => {});
  return writes;
}

async function loadTargets(
  tx: Queryable,
  organizationId: string,
  changes: readonly Change[],
  fresh: ReadonlySet<string> | undefined,
): Promise<Map<string, Target>> {
  const idsByEntity = new Map<EntityName, Set<string>>();
  for (const c of changes) {
    if (fresh?.has(c.entityId)) continue;
    const ids = idsByEntity.get(c.entity) ?? new Set<string>();
    ids.add(c.entityId);
    idsByEntity.set(c.entity, ids);
  }
  const targets = new Map<string, Target>();
  const loads = [...idsByEntity].map(async ([entity, ids]) => {
    const spec = entities[entity];
    return {
      entity,
      spec,
      rows: await tx.query(entitySql(spec).load, [organizationId, JSON.stringify([...ids])]),
    };
  });
  for (const { entity, spec, rows } of await settled(loads)) {
    for (const row of rows) {
      targets.set(rowKey(entity, String(row.id)), {
        state: rowStateFromDb(row, spec),
        scopeId: String(row.scope_id),
        dirty: false,
        stored: true,
      });
    }
  }
  return targets;
}

/** Sends the writes of rows not written by the feed's statement; the caller awaits them. */
function writeTargets(
  tx: Queryable,
  organizationId: string,
  targets: Iterable<[string, Target]>,
): Promise<unknown>[] {
  // New rows are inserted; rows already stored are upserted (cheaper that way).
  // Each group is a JSON array of records, written as text here: the record's
  // clock is spliced in as JSON built by clockJson (HLC-keyed objects are slow
  // to build and to stringify).
  const byEntity = new Map<string, string[]>();
  for (const [key, t] of targets) {
    if (!t.dirty || t.state === undefined || t.feedRow !== undefined) continue;
    const slash = key.indexOf("/");
    const entity = key.slice(0, slash) as EntityName;
    const spec = entities[entity];
    const record = JSON.stringify({
      ...t.state.values,
      id: key.slice(slash + 1),
      scope_id: t.scopeId,
      deleted: t.state.deleted,
      complete: isComplete(t.state, spec),
    });
    const group = `${entity}/${t.stored ? "upsert" : "insert"}`;
    const list = byEntity.get(group) ?? [];
    list.push(`${record.slice(0, -1)},"clock":${clockJson(t.state.clock)}}`);
    byEntity.set(group, list);
  }
  return [...byEntity].map(([group, records]) => {
    const [entity, how] = group.split("/") as [EntityName, "upsert" | "insert"];
    return tx.query(entitySql(entities[entity])[how], [organizationId, `[${records.join(",")}]`]);
  });
}

const hasOrSetColumn = (spec: EntitySpec, change: Change): boolean =>
  Object.keys(change.payload).some((column) => spec.columns[column]?.type === "orset");

const feedSqlCache = new Map<string, string>();

/**
 * Inserts the feed rows of $2 (a JSON array of FeedRecord) and, in the same
 * statement, the rows of `rowEntities` whose feed row has `row_complete` and
 * `row_clock`: the row's values are the feed row's payload.
 */
function feedSql(rowEntities: ReadonlySet<EntityName>): string {
  const names = entityNames.filter((e) => rowEntities.has(e));
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
        scope_id text, op smallint, payload json, hlc text, author_id text, change_head text,
        row_complete boolean, row_clock json))
    ${rowInserts.join("\n")}
    insert into changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id,
      change_head)
    select $1, f.seq, f.entity, f.entity_id, f.scope_id, f.op, f.payload::text, f.hlc, f.author_id,
      f.change_head
    from f`;
  feedSqlCache.set(cacheKey, sql);
  return sql;
}

/** Reading the change feed (SyncService.Pull). */
import { userScope } from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";

export interface FeedRow {
  readonly seq: number;
  readonly entity: string;
  readonly entityId: string;
  readonly scopeId: string;
  readonly op: 1 | 2;
  readonly payload: string;
  readonly hlc: string;
  readonly authorId: string;
}

export async function feedHead(q: Queryable, organizationId: string): Promise<number | undefined> {
  const [row] = await q.query<{ feed_seq: number }>(
    "select feed_seq from organizations where id = $1",
    [organizationId],
  );
  return row === undefined ? undefined : Number(row.feed_seq);
}

/**
 * Rows after `after`, in sequence order, that the user may read: every scope
 * of the tenant except other users' personal scopes.
 */
export async function readFeed(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
): Promise<FeedRow[]> {
  const rows = await q.query<{
    seq: number;
    entity: string;
    entity_id: string;
    scope_id: string;
    op: number;
    payload: string;
    hlc: string;
    author_id: string;
  }>(
    `select seq, entity, entity_id, scope_id, op, payload, hlc, author_id from changes
     where organization_id = $1 and seq > $2
       and ${readableScope("scope_id", "$3")}
     order by seq limit $4`,
    [organizationId, after, userScope(userId), limit],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    entity: r.entity,
    entityId: r.entity_id,
    scopeId: r.scope_id,
    op: r.op === 2 ? 2 : 1,
    payload: r.payload,
    hlc: r.hlc,
    authorId: r.author_id,
  }));
}

/**
 * SQL condition: the scope in `column` is readable by the user whose personal
 * scope (`user:<id>`) is the parameter `param`. Every scope of the tenant is,
 * except other users' personal ones. Pull, Subscribe, tasks and stats share it.
 */
export const readableScope = (column: string, param: string): string =>
  `(${column} not like 'user:%' or ${column} = ${param})`;

/** The last sequence number in (after, upTo] the user may read, if any. */
export async function lastVisibleSeq(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  upTo: number,
): Promise<number | undefined> {
  const [row] = await q.query<{ seq: number | null }>(
    `select max(seq) as seq from changes
     where organization_id = $1 and seq > $2 and seq <= $3
       and ${readableScope("scope_id", "$4")}`,
    [organizationId, after, upTo, userScope(userId)],
  );
  return row?.seq === null || row?.seq === undefined ? undefined : Number(row.seq);
}

/** Reading the change feed (SyncService.Pull). */
import { userScope } from "@hivekeep/client-core/core";
import type { WireText } from "@hivekeep/client-core/sync";
import type { Queryable, RawValue } from "../db/db.ts";

/**
 * A change of the feed. `T` is how its text arrives: strings (`readFeed`), or
 * for the binary Pull either UTF-8 bytes straight from the driver or strings
 * (`readFeedRaw`, see `Queryable.queryRaw`).
 */
export interface FeedRow<T extends FeedText = string> {
  readonly seq: number;
  readonly entity: T;
  readonly entityId: T;
  readonly scopeId: T;
  readonly op: 1 | 2;
  readonly payloadJson: T;
  readonly hlc: T;
  readonly authorId: T;
}

export type FeedText = WireText;

export async function feedHead(q: Queryable, organizationId: string): Promise<number | undefined> {
  const [row] = await q.query<{ feed_seq: number }>(
    "select feed_seq from organizations where id = $1",
    [organizationId],
  );
  return row === undefined ? undefined : Number(row.feed_seq);
}

/**
 * Rows after `after`, in sequence order, that the user may read: every scope
 * of the tenant except other users' personal scopes. Their text stays as the
 * driver hands it over (UTF-8 bytes from postgres.js): the binary Pull copies
 * it to the wire without decoding and encoding every string.
 */
export async function readFeedRaw(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
): Promise<FeedRow<FeedText>[]> {
  const rows = await q.queryRaw(
    `select seq, op, entity, entity_id, scope_id, payload, hlc, author_id from changes
     where organization_id = $1 and seq > $2
       and ${readableScope("scope_id", "$3")}
     order by seq limit $4`,
    [organizationId, after, userScope(userId), limit],
  );
  return rows.map((r) => ({
    seq: integer(r[0]),
    op: integer(r[1]) === 2 ? 2 : 1,
    entity: text(r[2]),
    entityId: text(r[3]),
    scopeId: text(r[4]),
    payloadJson: text(r[5]),
    hlc: text(r[6]),
    authorId: text(r[7]),
  }));
}

/** `readFeedRaw` with every text a string. */
export async function readFeed(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
): Promise<FeedRow[]> {
  const rows = await readFeedRaw(q, organizationId, userId, after, limit);
  return rows.map((r) => ({
    ...r,
    entity: feedString(r.entity),
    entityId: feedString(r.entityId),
    scopeId: feedString(r.scopeId),
    payloadJson: feedString(r.payloadJson),
    hlc: feedString(r.hlc),
    authorId: feedString(r.authorId),
  }));
}

const utf8 = new TextDecoder();

export const feedString = (t: FeedText): string => (typeof t === "string" ? t : utf8.decode(t));

function text(v: RawValue | undefined): FeedText {
  if (typeof v === "string" || v instanceof Uint8Array) return v;
  throw new TypeError(`feed column: expected text, got ${v === null ? "null" : typeof v}`);
}

/** A number column, as a number or as its ASCII digits. */
function integer(v: RawValue | undefined): number {
  if (typeof v === "number") return v;
  if (typeof v === "string") return Number(v);
  if (v instanceof Uint8Array) {
    let n = 0;
    for (let i = 0; i < v.length; i++) n = n * 10 + ((v[i] as number) - 48);
    return n;
  }
  throw new TypeError(`feed column: expected a number, got ${v === null ? "null" : typeof v}`);
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

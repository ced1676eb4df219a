/** Reading the change feed (SyncService.Pull). */
import { userScope } from "@hivekeep/client-core/core";
import { varintSize, writeVarint } from "@hivekeep/client-core/sync";
import type { Queryable } from "../db/db.ts";

/** A change of the feed. */
export interface FeedRow {
  readonly seq: number;
  readonly entity: string;
  readonly entityId: string;
  readonly scopeId: string;
  readonly op: 1 | 2;
  readonly payloadJson: string;
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
 * Pull reads each change as the database keeps it for the wire: its
 * `wire_head` (migration 004: `<seq>` U+001F, then the Change's protobuf
 * fields but the payload, ending with op) followed by its payload's text, one
 * value per change. The database computed the head when the change was
 * written; a driver hands the value over as it arrives (postgres.js: its UTF-8
 * bytes, never decoded; PGlite decodes every value itself, so there the string
 * is encoded once more), and `WirePageWriter` frames it with two copies, the
 * head's fields and the payload behind its tag and length, into chunks of the
 * response. Nothing of a row is kept until the page is in: no string or object
 * per value that would live through the query.
 *
 * Fields go in the order 1, 2, 3, 6, 7, 4, 5, which every protobuf reader
 * accepts. The head's texts are validated ASCII ids, names, scopes and stamps
 * of at most 105 bytes, so one length byte holds each; a longer one could only
 * be stored as a length of two bytes (`chr` of 128 or more), and is refused
 * here rather than misread.
 */

/** Where the parts of the change last read by `readLayout` are (reused: no object per change). */
const layout = { seq: 0, fields: 0, payload: 0 };

/** Reads a change's layout into `layout`; throws when it is not laid out so. */
function readLayout(change: Uint8Array): void {
  let seq = 0;
  let at = 0;
  for (; at < change.length && change[at] !== 0x1f; at++) {
    seq = seq * 10 + (change[at] as number) - 48;
  }
  const fields = ++at;
  // Walk the text fields up to op (tag 0x20), the last of the head.
  while (at < change.length && change[at] !== 0x20 && (change[at + 1] as number) < 0x80) {
    at += 2 + (change[at + 1] as number);
  }
  if (change[at] !== 0x20 || change[at + 2] !== 0x7b) {
    throw new Error(`feed row ${seq}: malformed wire head or payload`);
  }
  layout.seq = seq;
  layout.fields = fields;
  layout.payload = at + 2;
}

/** A page of changes framed for the wire. */
export interface WirePage {
  readonly count: number;
  /** The sequence number of the last change; undefined for none. */
  readonly lastSeq: number | undefined;
  /**
   * The changes as the repeated field 1 of a message (PullResponse's
   * `changes`), in chunks that each start with a change's tag.
   */
  readonly chunks: readonly Uint8Array[];
}

const chunkBytes = 256 * 1024;

/** Frames changes as they arrive into chunks of the response (see above). */
export class WirePageWriter {
  private readonly chunks: Uint8Array[] = [];
  private buf = new Uint8Array(0);
  private o = 0;
  private count = 0;
  private lastSeq: number | undefined;

  /** A change as the feed query returns it: `wire_head || payload`. */
  add(change: Uint8Array): void {
    readLayout(change);
    const { fields, payload } = layout;
    const payloadBytes = change.length - payload;
    const message = payload - fields + 1 + varintSize(payloadBytes) + payloadBytes;
    const total = 1 + varintSize(message) + message;
    if (this.o + total > this.buf.length) {
      if (this.o > 0) this.chunks.push(this.buf.subarray(0, this.o));
      this.buf = new Uint8Array(Math.max(chunkBytes, total));
      this.o = 0;
    }
    const out = this.buf;
    let o = this.o;
    out[o++] = 0x0a; // field 1 (changes), length-delimited
    o = writeVarint(out, o, message);
    out.set(change.subarray(fields, payload), o);
    o += payload - fields;
    out[o++] = 0x2a; // 5 payload_json
    o = writeVarint(out, o, payloadBytes);
    out.set(change.subarray(payload), o);
    this.o = o + payloadBytes;
    this.count++;
    this.lastSeq = layout.seq;
  }

  finish(): WirePage {
    if (this.o > 0) this.chunks.push(this.buf.subarray(0, this.o));
    this.buf = new Uint8Array(0);
    this.o = 0;
    return { count: this.count, lastSeq: this.lastSeq, chunks: this.chunks };
  }
}

/** A change as the feed query returns it, decoded (JSON responses, tests). */
export function decodeChange(change: Uint8Array): FeedRow {
  readLayout(change);
  const { seq, fields, payload } = layout;
  const text: string[] = [];
  let op: 1 | 2 = 1;
  for (let at = fields; at < payload; ) {
    const tag = change[at] as number;
    if (tag === 0x20) {
      op = change[at + 1] === 2 ? 2 : 1;
      break;
    }
    const length = change[at + 1] as number;
    text[tag >>> 3] = utf8Decoder.decode(change.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return {
    seq,
    op,
    entity: text[1] ?? "",
    entityId: text[2] ?? "",
    scopeId: text[3] ?? "",
    payloadJson: utf8Decoder.decode(change.subarray(payload)),
    hlc: text[6] ?? "",
    authorId: text[7] ?? "",
  };
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * Hands each of up to `limit` changes after `after`, in sequence order, that
 * the user may read (every scope of the tenant except other users' personal
 * scopes) to `take`, as the feed query returns it. Returns whether more follow.
 */
async function scanFeed(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
  take: (change: Uint8Array) => void,
): Promise<boolean> {
  let n = 0;
  // Thrown once the query is done: a driver must see each row handled.
  let failure: unknown;
  // One row more than asked tells whether more follow.
  await q.queryRaw(
    `select wire_head || payload from changes
     where organization_id = $1 and seq > $2
       and ${readableScope("scope_id", "$3")}
     order by seq limit $4`,
    [organizationId, after, userScope(userId), limit + 1],
    ([value]) => {
      if (n++ >= limit || failure !== undefined) return;
      try {
        if (typeof value === "string") take(utf8.encode(value));
        else if (value instanceof Uint8Array) take(value);
        else
          throw new TypeError(`feed: expected text, got ${value === null ? "null" : typeof value}`);
      } catch (err) {
        failure = err;
      }
    },
  );
  if (failure !== undefined) throw failure;
  return n > limit;
}

/** A page of the feed framed for the wire (the binary Pull), and whether more follow. */
export async function readWirePage(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
): Promise<WirePage & { readonly hasMore: boolean }> {
  const writer = new WirePageWriter();
  const hasMore = await scanFeed(q, organizationId, userId, after, limit, (c) => writer.add(c));
  return { ...writer.finish(), hasMore };
}

/** A page of the feed decoded (the JSON Pull), and whether more follow. */
export async function readFeedPage(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
): Promise<{
  readonly rows: FeedRow[];
  readonly lastSeq: number | undefined;
  readonly hasMore: boolean;
}> {
  const rows: FeedRow[] = [];
  const hasMore = await scanFeed(q, organizationId, userId, after, limit, (c) =>
    rows.push(decodeChange(c)),
  );
  return { rows, lastSeq: rows.at(-1)?.seq, hasMore };
}

/** `readFeedPage`'s changes. */
export async function readFeed(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
): Promise<FeedRow[]> {
  return (await readFeedPage(q, organizationId, userId, after, limit)).rows;
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

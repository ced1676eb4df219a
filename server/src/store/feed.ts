/** Reading the change feed (SyncService.Pull). */
import { userScope } from "@hivekeep/client-core/core";
import { varintSize, writeVarint } from "@hivekeep/client-core/sync";
import type { Queryable, RawValue } from "../db/db.ts";

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
 * A page of the feed, each change as the database lays it out for the wire
 * (`packedChange`): `<seq>` U+001F, then the change's protobuf fields but the
 * payload (a "head": entity, entity_id, scope_id, hlc and author_id, each as
 * tag, one length byte and text, ending with op), then the payload's text.
 * The database builds that in one concatenation; a driver hands over one value
 * per change instead of eight (postgres.js: its UTF-8 bytes, never decoded;
 * PGlite decodes every value itself, so there each string is encoded once
 * more), and `encode` frames each change with two copies: head, then the
 * payload behind its tag and length.
 *
 * Fields go in the order 1, 2, 3, 6, 7, 4, 5, which every protobuf reader
 * accepts. The head's texts are ids, names, scopes and stamps: validated
 * ASCII of at most 105 bytes before they reach the feed, so one length byte
 * holds each; a longer one could only be written as a byte of 0x80 or more
 * by `chr`, and is refused here rather than misread.
 */
export class FeedPage {
  /** The changes of the page (at most the limit asked for). */
  readonly count: number;
  /** More changes the caller may read follow this page. */
  readonly hasMore: boolean;
  private readonly rows: Uint8Array[];
  /** Per change: where its head starts, where its payload starts. */
  private readonly at: Int32Array;
  private readonly seqs: Float64Array;

  constructor(packed: readonly (Uint8Array | string)[], limit: number) {
    this.count = Math.min(packed.length, limit);
    this.hasMore = packed.length > limit;
    this.rows = new Array(this.count);
    this.at = new Int32Array(this.count * 2);
    this.seqs = new Float64Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const value = packed[i] as Uint8Array | string;
      const row = typeof value === "string" ? utf8.encode(value) : value;
      this.rows[i] = row;
      let seq = 0;
      let p = 0;
      for (; p < row.length && row[p] !== 0x1f; p++) seq = seq * 10 + (row[p] as number) - 48;
      const head = ++p;
      // Walk the head's text fields up to op (tag 0x20), its last.
      while (p < row.length && row[p] !== 0x20) {
        const length = row[p + 1] as number;
        if (length >= 0x80) break;
        p += 2 + length;
      }
      const payload = p + 2;
      if (row[p] !== 0x20 || row[payload] !== 0x7b) {
        throw new Error(`feed row ${seq}: malformed packed change`);
      }
      this.at[i * 2] = head;
      this.at[i * 2 + 1] = payload;
      this.seqs[i] = seq;
    }
  }

  seq(i: number): number {
    return this.seqs[i] as number;
  }

  /**
   * The changes as the repeated field 1 of a message (what PullResponse's
   * `changes` are).
   */
  encodeChanges(): Uint8Array {
    let total = 0;
    for (let i = 0; i < this.count; i++) {
      const message = this.messageSize(i);
      total += 1 + varintSize(message) + message;
    }
    const out = new Uint8Array(total);
    let o = 0;
    for (let i = 0; i < this.count; i++) {
      const row = this.rows[i] as Uint8Array;
      const head = this.at[i * 2] as number;
      const payload = this.at[i * 2 + 1] as number;
      out[o++] = 0x0a; // field 1 (changes), length-delimited
      o = writeVarint(out, o, this.messageSize(i));
      out.set(row.subarray(head, payload), o);
      o += payload - head;
      out[o++] = 0x2a; // 5 payload_json
      o = writeVarint(out, o, row.length - payload);
      out.set(row.subarray(payload), o);
      o += row.length - payload;
    }
    if (o !== total) throw new Error(`feed page encoding wrote ${o} bytes, expected ${total}`);
    return out;
  }

  private messageSize(i: number): number {
    const row = this.rows[i] as Uint8Array;
    const payload = this.at[i * 2 + 1] as number;
    const payloadBytes = row.length - payload;
    return payload - (this.at[i * 2] as number) + 1 + varintSize(payloadBytes) + payloadBytes;
  }

  /** Change `i` with its text decoded (JSON responses, tests). */
  row(i: number): FeedRow {
    const row = this.rows[i] as Uint8Array;
    const payload = this.at[i * 2 + 1] as number;
    const text: string[] = [];
    let op: 1 | 2 = 1;
    for (let p = this.at[i * 2] as number; p < payload; ) {
      const tag = row[p] as number;
      if (tag === 0x20) {
        op = row[p + 1] === 2 ? 2 : 1;
        break;
      }
      const length = row[p + 1] as number;
      text[tag >>> 3] = utf8Decoder.decode(row.subarray(p + 2, p + 2 + length));
      p += 2 + length;
    }
    return {
      seq: this.seq(i),
      op,
      entity: text[1] ?? "",
      entityId: text[2] ?? "",
      scopeId: text[3] ?? "",
      payloadJson: utf8Decoder.decode(row.subarray(payload)),
      hlc: text[6] ?? "",
      authorId: text[7] ?? "",
    };
  }
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * A text column as protobuf field `tag`: the tag, its length in one byte (see
 * FeedPage), the text. Only author_id may be empty (then it is left out, as
 * proto3 does): `chr(0)` is an error, and every other column is validated
 * non-empty.
 */
const field = (tag: number, column: string) =>
  `chr(${tag}) || chr(octet_length(${column})) || ${column}`;
const optionalField = (tag: number, column: string) =>
  `case when ${column} = '' then '' else ${field(tag, column)} end`;

/** SQL: a feed row laid out for the wire (see FeedPage). */
const packedChange = [
  "seq::text || chr(31)",
  field(0x0a, "entity"),
  field(0x12, "entity_id"),
  field(0x1a, "scope_id"),
  field(0x32, "hlc"),
  optionalField(0x3a, "author_id"),
  "chr(32) || chr(op)",
  "payload",
].join(" || ");

/**
 * Up to `limit` rows after `after`, in sequence order, that the user may read:
 * every scope of the tenant except other users' personal scopes.
 */
export async function readFeedPage(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
): Promise<FeedPage> {
  // One row more than asked tells whether more follow.
  const rows = await q.queryRaw(
    `select ${packedChange} from changes
     where organization_id = $1 and seq > $2
       and ${readableScope("scope_id", "$3")}
     order by seq limit $4`,
    [organizationId, after, userScope(userId), limit + 1],
  );
  return new FeedPage(rows.map(packedText), limit);
}

/** `readFeedPage` with every change decoded. */
export async function readFeed(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
): Promise<FeedRow[]> {
  const page = await readFeedPage(q, organizationId, userId, after, limit);
  return Array.from({ length: page.count }, (_, i) => page.row(i));
}

function packedText([v]: RawValue[]): Uint8Array | string {
  if (typeof v === "string" || v instanceof Uint8Array) return v;
  throw new TypeError(`feed: expected a packed change, got ${v === null ? "null" : typeof v}`);
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

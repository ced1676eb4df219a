/**
 * Reading the change feed (SyncService.Pull).
 *
 * Each feed row keeps, besides its plain columns, `change_head`: its Change
 * message but payload_json, as the device's encoder writes it (client-core
 * protocol/wire.ts `encodeChangeHead`, the one hand-written layout of Change
 * besides sync.proto), in base64. The write path encodes it once, when it
 * appends the row (apply-changes.ts; migration 005's step for rows written
 * before). The binary Pull frames the stored head and the stored payload as
 * they are, with payload_json's tag and length between them (from wire.ts), so
 * no SQL or server code lays out or reads protobuf. The JSON Pull reads the
 * plain columns.
 *
 * Why not the whole message: the payload is most of a change, and the feed
 * already keeps it for the JSON Pull; a second copy in every row cost Push
 * 20-60 µs a change on PGlite (its 16 MB of shared buffers fill twice as fast)
 * and 15 µs on Postgres. Why base64 text rather than bytea: both drivers hand a
 * bytea over in its text form, hex (twice the bytes to send and decode), and
 * PGlite parses hex into bytes one parseInt at a time (about 50 µs a change).
 */
import {
  entities,
  payloadWithPhotoRefs,
  readableScopeSql,
  stateChanges,
  userScope,
} from "@hivekeep/client-core/core";
import {
  encodeChangeHead,
  payloadFieldHeaderSize,
  varintSize,
  writePayloadFieldHeader,
  writeVarint,
} from "@hivekeep/client-core/protocol";
import type { Queryable } from "../db/db.ts";
import { sha256Base64url } from "../rpc/photo-hash.ts";
import { idsSql } from "./entity-sql.ts";
import { rowStateFromDb } from "./row-state.ts";

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

/** A feed row's columns that its `change_head` holds. */
export type HeadColumns = {
  readonly entity: string;
  readonly entity_id: string;
  readonly scope_id: string;
  readonly op: number;
  readonly hlc: string;
  readonly author_id: string;
};

/** What `changes.change_head` keeps for a feed row: its Change message's bytes but the payload, base64. */
export function changeHead(row: HeadColumns): string {
  const bytes = encodeChangeHead({
    entity: row.entity,
    entityId: row.entity_id,
    scopeId: row.scope_id,
    op: row.op,
    payloadJson: "",
    hlc: row.hlc,
    authorId: row.author_id,
  });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
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

/**
 * Frames stored changes into chunks of the response as they arrive: per change
 * the tag of field 1 and the message's length, its head (`change_head`,
 * decoded from base64 straight into the chunk by Node), payload_json's tag and
 * length, and the payload's UTF-8 (copied as postgres.js hands it over; PGlite
 * hands a string, encoded into the chunk). Nothing of a row is kept until the
 * page is in: no string or object per value that would live through the query.
 */
export class WirePageWriter {
  private readonly chunks: Uint8Array[] = [];
  private buf = Buffer.alloc(0);
  private o = 0;
  private count = 0;
  private lastSeq: number | undefined;

  /** A change `seq`: its `change_head` (base64) and its payload's text. */
  add(seq: number, head: string | Uint8Array, payload: string | Uint8Array): void {
    const headText = typeof head === "string" ? head : latin1(head);
    const headBytes = base64Bytes(headText);
    if (headBytes < 0) throw new Error(`feed row ${seq}: change_head is not base64`);
    const payloadBytes = typeof payload === "string" ? Buffer.byteLength(payload) : payload.length;
    if (payloadBytes === 0) throw new Error(`feed row ${seq}: empty payload`);
    const message = headBytes + payloadFieldHeaderSize(payloadBytes) + payloadBytes;
    const total = 1 + varintSize(message) + message;
    if (this.o + total > this.buf.length) {
      if (this.o > 0) this.chunks.push(this.buf.subarray(0, this.o));
      this.buf = Buffer.allocUnsafe(Math.max(chunkBytes, total));
      this.o = 0;
    }
    const out = this.buf;
    out[this.o] = 0x0a; // field 1 (changes), length-delimited
    let at = writeVarint(out, this.o + 1, message);
    if (out.write(headText, at, headBytes, "base64") !== headBytes) {
      throw new Error(`feed row ${seq}: change_head is not base64`);
    }
    at = writePayloadFieldHeader(out, at + headBytes, payloadBytes);
    if (typeof payload === "string") out.write(payload, at, payloadBytes, "utf8");
    else out.set(payload, at);
    this.o = at + payloadBytes;
    this.count++;
    this.lastSeq = seq;
  }

  finish(): WirePage {
    if (this.o > 0) this.chunks.push(this.buf.subarray(0, this.o));
    this.buf = Buffer.alloc(0);
    this.o = 0;
    return { count: this.count, lastSeq: this.lastSeq, chunks: this.chunks };
  }
}

/** The bytes that padded base64 `text` holds; -1 when its length cannot be base64. */
function base64Bytes(text: string): number {
  if (text.length % 4 !== 0) return -1;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** ASCII bytes as a string (Node decodes them in C++). */
const latin1 = (text: Uint8Array): string =>
  (Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.length)).toString(
    "latin1",
  );

/** Text as a driver hands it over: a string, or its UTF-8 (postgres.js). */
const isText = (v: unknown): v is string | Uint8Array =>
  typeof v === "string" || v instanceof Uint8Array;

/** The digits of a number as postgres.js hands them over undecoded. */
function digits(text: Uint8Array): number {
  let n = 0;
  for (const d of text) n = n * 10 + d - 48;
  return n;
}

/** How a Pull reads the feed beyond the contract's plain page. */
export interface FeedReadOptions {
  /**
   * Photos by reference (photo-ref.ts): each change's `payload_refs` where it has one (computed
   * when written, migration 009), so the photos are not read; false: payloads as stored.
   */
  readonly photoRefs?: boolean | undefined;
  /**
   * The readings window's cutoff (ms, readings-window.ts): rows held until before it are left
   * out, and a change stamped `with_state` comes with its inspection's whole state and its
   * events'. Undefined: every row (the contract's Pull).
   */
  readonly cutoffMs?: number | undefined;
}

/**
 * The feed's rows after `after` that the user may read (every scope of the
 * tenant except other users' personal scopes), in sequence order, up to
 * `limit`: the condition and order shared by the binary and the JSON Pull.
 * One row more than asked tells whether more follow. With a cutoff ($5), the
 * rows held until before it are left out.
 */
const feedWhere = (windowed: boolean) => `where organization_id = $1 and seq > $2
       and ${readableScopeSql("scope_id", "$3")}
       ${windowed ? "and (held_until is null or held_until >= $5)" : ""}
     order by seq limit $4`;

const feedParams = (
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
  cutoffMs: number | undefined,
) => [
  organizationId,
  after,
  userScope(userId),
  limit + 1,
  ...(cutoffMs === undefined ? [] : [new Date(cutoffMs).toISOString()]),
];

/** A page of the feed framed for the wire (the binary Pull), and whether more follow. */
export async function readWirePage(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
  options: FeedReadOptions = {},
): Promise<WirePage & { readonly hasMore: boolean }> {
  const { photoRefs, cutoffMs } = options;
  const windowed = cutoffMs !== undefined;
  const writer = new WirePageWriter();
  const whole = new WholeStates();
  let n = 0;
  let last = 0;
  // Thrown once the query is done: a driver must see each row handled.
  let failure: unknown;
  await q.queryRaw(
    `select seq, change_head, ${payloadColumn(photoRefs)}${windowed ? ", entity, entity_id, with_state" : ""}
     from changes ${feedWhere(windowed)}`,
    feedParams(organizationId, userId, after, limit, cutoffMs),
    ([seq, head, payload, entity, entityId, withState]) => {
      if (n++ >= limit || failure !== undefined) return;
      try {
        // postgres.js hands seq over as its digits, PGlite as a number.
        const n = seq instanceof Uint8Array ? digits(seq) : seq;
        if (typeof n !== "number" || !isText(head) || !isText(payload)) {
          throw new TypeError(
            `feed: unexpected row ${typeof seq}, ${typeof head}, ${typeof payload}`,
          );
        }
        writer.add(n, head, payload);
        last = n;
        if (windowed && isText(entity) && isText(entityId)) {
          whole.note(asString(entity), asString(entityId), isTrue(withState));
        }
      } catch (err) {
        failure = err;
      }
    },
  );
  if (failure !== undefined) throw failure;
  for (const change of await whole.states(q, organizationId, userId, photoRefs === true)) {
    writer.add(last, changeHead(headColumns(change)), change.payloadJson);
  }
  return { ...writer.finish(), hasMore: n > limit };
}

const utf8 = new TextDecoder();
const asString = (text: string | Uint8Array): string =>
  typeof text === "string" ? text : utf8.decode(text);

/** A boolean column as the drivers hand it over raw: PGlite true, postgres.js "t". */
const isTrue = (value: unknown): boolean =>
  value === true || value === "t" || (value instanceof Uint8Array && value[0] === 0x74);

/** The payload a page sends: with photos by reference, the stored reference form where there is one. */
const payloadColumn = (photoRefs: boolean | undefined): string =>
  photoRefs ? "coalesce(payload_refs, payload) as payload" : "payload";

/**
 * The inspections of a windowed page whose earlier changes a device may not hold
 * (readings-window.ts: a change stamped `with_state`). After the page, their whole states, as
 * changes, follow it, with their events'.
 */
class WholeStates {
  private readonly inspections = new Set<string>();

  note(entity: string, entityId: string, withState: boolean): void {
    if (withState && entity === "inspection") this.inspections.add(entityId);
  }

  async states(
    q: Queryable,
    organizationId: string,
    userId: string,
    photoRefs: boolean,
  ): Promise<FeedRow[]> {
    if (this.inspections.size === 0) return [];
    const scope = readableScopeSql("scope_id", "$3");
    const params = [organizationId, JSON.stringify([...this.inspections]), userScope(userId)];
    const [inspections, events] = await Promise.all([
      q.query<Record<string, unknown>>(
        `select * from inspections where organization_id = $1
           and id = any (${idsSql("$2")}) and ${scope}`,
        params,
      ),
      q.query<Record<string, unknown>>(
        `select * from events where organization_id = $1 and ${scope}
           and ref_entity = 'inspection' and ref_id = any (${idsSql("$2")})`,
        params,
      ),
    ]);
    const rows: FeedRow[] = [];
    for (const [entity, found] of [
      ["inspection", inspections],
      ["event", events],
    ] as const) {
      const spec = entities[entity];
      for (const row of found) {
        const state = rowStateFromDb(row, spec);
        for (const change of stateChanges(entity, String(row.id), String(row.scope_id), state)) {
          const payload = photoRefs
            ? payloadWithPhotoRefs(entity, change.payload, sha256Base64url)
            : change.payload;
          rows.push({
            seq: 0,
            entity,
            entityId: change.entityId,
            scopeId: change.scopeId,
            op: change.op === "delete" ? 2 : 1,
            payloadJson: JSON.stringify(payload),
            hlc: change.hlc,
            authorId: change.authorId,
          });
        }
      }
    }
    return rows;
  }
}

const headColumns = (row: FeedRow): HeadColumns => ({
  entity: row.entity,
  entity_id: row.entityId,
  scope_id: row.scopeId,
  op: row.op,
  hlc: row.hlc,
  author_id: row.authorId,
});

/** A page of the feed as rows (the JSON Pull), and whether more follow. */
export async function readFeedPage(
  q: Queryable,
  organizationId: string,
  userId: string,
  after: number,
  limit: number,
  /** As for `readWirePage`. */
  options: FeedReadOptions = {},
): Promise<{
  readonly rows: FeedRow[];
  readonly lastSeq: number | undefined;
  readonly hasMore: boolean;
}> {
  const { photoRefs, cutoffMs } = options;
  const found = await q.query<{
    seq: number;
    entity: string;
    entity_id: string;
    scope_id: string;
    op: number;
    payload: string;
    hlc: string;
    author_id: string;
    with_state?: boolean;
  }>(
    `select seq, entity, entity_id, scope_id, op, ${payloadColumn(photoRefs)}, hlc, author_id,
       with_state
     from changes ${feedWhere(cutoffMs !== undefined)}`,
    feedParams(organizationId, userId, after, limit, cutoffMs),
  );
  const whole = new WholeStates();
  const rows = found.slice(0, limit).map((r): FeedRow => {
    if (cutoffMs !== undefined) whole.note(r.entity, r.entity_id, r.with_state === true);
    return {
      seq: Number(r.seq),
      entity: r.entity,
      entityId: r.entity_id,
      scopeId: r.scope_id,
      op: r.op === 2 ? 2 : 1,
      payloadJson: r.payload,
      hlc: r.hlc,
      authorId: r.author_id,
    };
  });
  const lastSeq = rows.at(-1)?.seq;
  const states = await whole.states(q, organizationId, userId, photoRefs === true);
  return {
    rows: [...rows, ...states.map((row) => ({ ...row, seq: lastSeq ?? 0 }))],
    lastSeq,
    hasMore: found.length > limit,
  };
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
       and ${readableScopeSql("scope_id", "$4")}`,
    [organizationId, after, upTo, userScope(userId)],
  );
  return row?.seq === null || row?.seq === undefined ? undefined : Number(row.seq);
}

/**
 * The binary form of `Change`, written and read by hand, and the two bulk
 * sync messages built from it: PushRequest (a device's outbox, up to 5000
 * changes) and PullResponse (a page of up to 5000 changes of the feed).
 *
 * protobuf-es builds and walks a message per change by reflection: about 10 µs
 * to encode a change and 3 µs to decode one on a laptop, more than the server
 * spends on it, and several times that on a phone. A change is seven strings
 * and a small enum, so its bytes are written (`writeChange`) and read
 * (`readChange`) directly here; the rest of a PullResponse (cursor, flags,
 * timestamp, unknown fields) is read with protobuf-es's BinaryReader, and
 * everything else (PushResponse, errors, small calls) goes through protobuf-es.
 *
 * This is the one place that knows the layout of `Change` besides sync.proto:
 * the server encodes each change's fields but its payload (`encodeChangeHead`)
 * when it appends it to the feed, stores those bytes beside the payload, and
 * frames both into Pull pages as they are (`writePayloadFieldHeader` between
 * them; server/src/store/feed.ts). `changeFields` lists the fields the code
 * below writes and reads; wire.test.ts fails when ChangeSchema has any other.
 *
 * `encodePushRequest` writes byte for byte what `toBinary(PushRequestSchema, …)`
 * writes (and `encodeChange` what `toBinary(ChangeSchema, …)` does), and
 * `decodePullResponse` reads whatever a protobuf writer may send (fields in any
 * order, unknown fields skipped, a repeated field's last singular value
 * winning): wire.test.ts proves both against protobuf-es.
 */

import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { utf8ByteLength } from "../core/utf8.ts";
import type { WireChange } from "../core/validate-change.ts";
import { varintSize, writeVarint } from "./varint.ts";

/** A change as it travels (the proto `Change`, plain object, `op` as the enum number). */
export interface SyncChange extends WireChange {
  readonly authorId: string;
}

/** A PullResponse. */
export interface PullPage {
  readonly changes: SyncChange[];
  readonly nextCursor: string;
  readonly hasMore: boolean;
  /** `server_time` in Unix milliseconds; undefined when the server sent none. */
  readonly serverTimeMs: number | undefined;
  /** Where the feed ended when the page was read ("" when the server does not say). */
  readonly headCursor: string;
  /**
   * The readings window's cutoff the page was read with (`readings_cutoff`, Unix ms); undefined
   * for a Pull without the window (core/readings-window.ts).
   */
  readonly readingsCutoffMs?: number | undefined;
}

/**
 * The fields of `Change` that `writeChange` and `readChange` know, in number
 * order: proto name, number, kind, and the property of SyncChange. The tags
 * below are derived from it; a field of ChangeSchema not listed here (or listed
 * otherwise) fails wire.test.ts instead of being dropped silently.
 */
export const changeFields = [
  { name: "entity", no: 1, kind: "string", key: "entity" },
  { name: "entity_id", no: 2, kind: "string", key: "entityId" },
  { name: "scope_id", no: 3, kind: "string", key: "scopeId" },
  { name: "op", no: 4, kind: "enum", key: "op" },
  { name: "payload_json", no: 5, kind: "string", key: "payloadJson" },
  { name: "hlc", no: 6, kind: "string", key: "hlc" },
  { name: "author_id", no: 7, kind: "string", key: "authorId" },
] as const satisfies readonly {
  name: string;
  no: number;
  kind: "string" | "enum";
  key: keyof SyncChange;
}[];

/** A field's number by its SyncChange property. */
function fieldNo(key: keyof SyncChange): number {
  const field = changeFields.find((f) => f.key === key);
  // One-byte tags only: the writer and the fast path of the reader write and read them so.
  if (field === undefined || field.no > 15) throw new Error(`Change: no one-byte field ${key}`);
  return field.no;
}

const entityNo = fieldNo("entity");
const entityIdNo = fieldNo("entityId");
const scopeIdNo = fieldNo("scopeId");
const opNo = fieldNo("op");
const payloadJsonNo = fieldNo("payloadJson");
const hlcNo = fieldNo("hlc");
const authorIdNo = fieldNo("authorId");
const textTag = (no: number): number => (no << 3) | WireType.LengthDelimited;
const entityTag = textTag(entityNo);
const entityIdTag = textTag(entityIdNo);
const scopeIdTag = textTag(scopeIdNo);
const opTag = (opNo << 3) | WireType.Varint;
const payloadJsonTag = textTag(payloadJsonNo);
const hlcTag = textTag(hlcNo);
const authorIdTag = textTag(authorIdNo);
/** The SyncChange property of each string field, by number. */
const textFields: (keyof Omit<SyncChange, "op">)[] = [];
for (const f of changeFields) if (f.kind === "string") textFields[f.no] = f.key;
/** The tag of PushRequest's and PullResponse's repeated `changes` (field 1). */
const changesTag = textTag(1);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Where `utf8Size` has long strings encoded (any string of up to a third of its size). */
const scratch = new Uint8Array(256 * 1024);

/**
 * The UTF-8 size of `s`: counted in JS when short, else as the bytes
 * `encodeInto` writes, which for a payload is ten times faster than counting.
 */
const utf8Size = (s: string): number =>
  s.length < 64 || s.length * 3 > scratch.length
    ? utf8ByteLength(s)
    : encoder.encodeInto(s, scratch).written;

/** Bytes of a string field: tag, length and UTF-8; 0 when empty (proto3 leaves it out). */
const stringFieldSize = (bytes: number): number =>
  bytes === 0 ? 0 : 1 + varintSize(bytes) + bytes;

/** Per change in `sizes`: the UTF-8 size of each of its six strings, then of its message. */
const sizesPerChange = 7;

/**
 * Measures change `c` (the `index`th) into `sizes` at `k`: the UTF-8 size of
 * every string, so that every length is known before it is written, and the
 * size of its message, which is returned.
 */
function measureChange(c: SyncChange, index: number, sizes: Int32Array, k: number): number {
  if (!Number.isInteger(c.op) || c.op < 0 || c.op > 0x7fffffff) {
    throw new RangeError(`change ${index}: op must be a ChangeOp number, got ${c.op}`);
  }
  const strings = [c.entity, c.entityId, c.scopeId, c.payloadJson, c.hlc, c.authorId];
  let message = c.op === 0 ? 0 : 1 + varintSize(c.op);
  for (let j = 0; j < 6; j++) {
    const bytes = utf8Size(strings[j] as string);
    sizes[k + j] = bytes;
    message += stringFieldSize(bytes);
  }
  sizes[k + 6] = message;
  return message;
}

/** Writes the string field `tag` of `bytes` UTF-8 bytes into `out` at `o`; returns where it ends. */
function writeString(out: Uint8Array, o: number, tag: number, s: string, bytes: number): number {
  if (bytes === 0) return o;
  out[o++] = tag;
  o = writeVarint(out, o, bytes);
  if (bytes === s.length && bytes < 64) {
    // Short ASCII (ids, names, stamps): cheaper than a call into the encoder.
    for (let j = 0; j < bytes; j++) out[o + j] = s.charCodeAt(j);
  } else {
    encoder.encodeInto(s, out.subarray(o, o + bytes));
  }
  return o + bytes;
}

/**
 * Writes the fields of change `c`, measured at `k` of `sizes`, in number order
 * into `out` at `o` (its message, without tag or length); returns where it ends.
 */
function writeChange(out: Uint8Array, o: number, c: SyncChange, sizes: Int32Array, k: number) {
  o = writeString(out, o, entityTag, c.entity, sizes[k] as number);
  o = writeString(out, o, entityIdTag, c.entityId, sizes[k + 1] as number);
  o = writeString(out, o, scopeIdTag, c.scopeId, sizes[k + 2] as number);
  if (c.op !== 0) {
    out[o++] = opTag;
    o = writeVarint(out, o, c.op);
  }
  o = writeString(out, o, payloadJsonTag, c.payloadJson, sizes[k + 3] as number);
  o = writeString(out, o, hlcTag, c.hlc, sizes[k + 4] as number);
  return writeString(out, o, authorIdTag, c.authorId, sizes[k + 5] as number);
}

const oneChange = new Int32Array(sizesPerChange);

/**
 * The bytes of one Change message (what `toBinary(ChangeSchema, …)` writes):
 * what the server stores for a change of its feed, and Pull frames.
 */
export function encodeChange(c: SyncChange): Uint8Array {
  const out = new Uint8Array(measureChange(c, 0, oneChange, 0));
  const o = writeChange(out, 0, c, oneChange, 0);
  if (o !== out.length) throw new Error(`change encoding wrote ${o} bytes, expected ${out.length}`);
  return out;
}

/**
 * The bytes of change `c`'s message without its payload_json: what the server
 * stores per feed row. Followed by the payload's field (`writePayloadFieldHeader`
 * and the payload's UTF-8), it is the whole message, its payload last.
 */
export const encodeChangeHead = (c: SyncChange): Uint8Array =>
  // Field by field, not `{...c, payloadJson: ""}`: in V8 a spread followed by another property
  // cost several µs, and the server encodes a head for every feed row it appends.
  encodeChange({
    entity: c.entity,
    entityId: c.entityId,
    scopeId: c.scopeId,
    op: c.op,
    payloadJson: "",
    hlc: c.hlc,
    authorId: c.authorId,
  });

/** The bytes of payload_json's tag and length for a payload of `bytes` UTF-8 bytes. */
export const payloadFieldHeaderSize = (bytes: number): number => 1 + varintSize(bytes);

/**
 * Writes payload_json's tag and length for a payload of `bytes` (more than 0)
 * UTF-8 bytes into `out` at `o`; returns where the payload's bytes go.
 */
export function writePayloadFieldHeader(out: Uint8Array, o: number, bytes: number): number {
  out[o] = payloadJsonTag;
  return writeVarint(out, o + 1, bytes);
}

/**
 * The bytes of a PushRequest carrying `changes`: its repeated field 1, each
 * change's tag, length and fields (`authorId` included when set, as the
 * message would; the server ignores it).
 */
export function encodePushRequest(changes: readonly SyncChange[]): Uint8Array {
  const sizes = new Int32Array(changes.length * sizesPerChange);
  let total = 0;
  for (let i = 0; i < changes.length; i++) {
    const message = measureChange(changes[i] as SyncChange, i, sizes, i * sizesPerChange);
    total += 1 + varintSize(message) + message;
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (let i = 0; i < changes.length; i++) {
    const k = i * sizesPerChange;
    out[o++] = changesTag;
    o = writeVarint(out, o, sizes[k + 6] as number);
    o = writeChange(out, o, changes[i] as SyncChange, sizes, k);
  }
  if (o !== total) throw new Error(`change encoding wrote ${o} bytes, expected ${total}`);
  return out;
}

/** The end of the length-delimited value that starts at `r.pos` (after its tag). */
function delimitedEnd(r: BinaryReader): number {
  const end = r.uint32() + r.pos;
  if (end > r.len) throw new Error("protobuf: message is truncated");
  return end;
}

/** Decodes the bytes of a PullResponse. */
export function decodePullResponse(bytes: Uint8Array): PullPage {
  const r = new BinaryReader(bytes);
  const changes: SyncChange[] = [];
  const repeated = [0, 1, 2].map((): Repeated => ({ start: 0, length: -1, value: "" }));
  let nextCursor = "";
  let hasMore = false;
  let serverTime: Timestamp | undefined;
  let headCursor = "";
  let cutoff: Timestamp | undefined;
  while (r.pos < r.len) {
    const [no, wireType] = r.tag();
    switch (no) {
      case 1: {
        if (wireType !== WireType.LengthDelimited) break;
        const end = delimitedEnd(r);
        changes.push(readChange(bytes, r.pos, end, repeated));
        r.pos = end;
        continue;
      }
      case 2:
        if (wireType !== WireType.LengthDelimited) break;
        nextCursor = r.string();
        continue;
      case 3:
        if (wireType !== WireType.Varint) break;
        hasMore = r.bool();
        continue;
      case 4:
        if (wireType !== WireType.LengthDelimited) break;
        {
          const end = delimitedEnd(r);
          serverTime = readTimestamp(
            bytes.subarray(r.pos, end),
            serverTime ?? { seconds: 0, nanos: 0 },
          );
          r.pos = end;
          continue;
        }
      case 5:
        if (wireType !== WireType.LengthDelimited) break;
        headCursor = r.string();
        continue;
      case 6:
        if (wireType !== WireType.LengthDelimited) break;
        {
          const end = delimitedEnd(r);
          cutoff = readTimestamp(bytes.subarray(r.pos, end), cutoff ?? { seconds: 0, nanos: 0 });
          r.pos = end;
          continue;
        }
    }
    r.skip(wireType, no);
  }
  const serverTimeMs =
    serverTime && serverTime.seconds * 1000 + Math.floor(serverTime.nanos / 1_000_000);
  const page = { changes, nextCursor, hasMore, serverTimeMs, headCursor };
  if (cutoff === undefined) return page;
  return {
    ...page,
    readingsCutoffMs: cutoff.seconds * 1000 + Math.floor(cutoff.nanos / 1_000_000),
  };
}

/**
 * The last text read for a field that mostly repeats the same field of the
 * change before (entity, scope, author): equal bytes reuse its string instead
 * of decoding a new copy.
 */
interface Repeated {
  start: number;
  length: number;
  value: string;
}

/** The text of `buf[start, end)`, reusing `last`'s string when the bytes are the same. */
function repeatedText(buf: Uint8Array, start: number, end: number, last: Repeated): string {
  const length = end - start;
  if (length === last.length) {
    const previous = last.start;
    let i = 0;
    while (i < length && buf[start + i] === buf[previous + i]) i++;
    last.start = start;
    if (i === length) return last.value;
  }
  last.start = start;
  last.length = length;
  last.value = decoder.decode(buf.subarray(start, end));
  return last.value;
}

type MutableChange = { -readonly [K in keyof SyncChange]: SyncChange[K] };

/**
 * Reads the Change in `buf[pos, end)`. The common case, one-byte tags,
 * lengths below 2^14 and an op below 128, is read inline; anything else
 * field by field by a BinaryReader (`readOtherField`).
 */
function readChange(buf: Uint8Array, pos: number, end: number, repeated: Repeated[]): SyncChange {
  const c: MutableChange = {
    entity: "",
    entityId: "",
    scopeId: "",
    op: 0,
    payloadJson: "",
    hlc: "",
    authorId: "",
  };
  while (pos < end) {
    const tag = buf[pos] as number;
    if (tag === opTag && pos + 1 < end && (buf[pos + 1] as number) < 0x80) {
      c.op = buf[pos + 1] as number;
      pos += 2;
    } else if ((tag & 7) === WireType.LengthDelimited && tag < 0x80 && pos + 1 < end) {
      // A length-delimited field with a one-byte tag, its length inline when
      // it takes one or two bytes.
      let length = buf[pos + 1] as number;
      let start = pos + 2;
      if (length >= 0x80) {
        const second = buf[start] as number;
        if (start >= end || second >= 0x80) {
          pos = readOtherField(buf, pos, end, c);
          continue;
        }
        length = (length & 0x7f) | (second << 7);
        start++;
      }
      const stop = start + length;
      if (stop > end) throw new Error("protobuf: message is truncated");
      switch (tag >>> 3) {
        case entityNo:
          c.entity = repeatedText(buf, start, stop, repeated[0] as Repeated);
          break;
        case entityIdNo:
          c.entityId = decoder.decode(buf.subarray(start, stop));
          break;
        case scopeIdNo:
          c.scopeId = repeatedText(buf, start, stop, repeated[1] as Repeated);
          break;
        case payloadJsonNo:
          c.payloadJson = decoder.decode(buf.subarray(start, stop));
          break;
        case hlcNo:
          c.hlc = decoder.decode(buf.subarray(start, stop));
          break;
        case authorIdNo:
          c.authorId = repeatedText(buf, start, stop, repeated[2] as Repeated);
          break;
      }
      pos = stop;
    } else {
      pos = readOtherField(buf, pos, end, c);
    }
  }
  return c;
}

/**
 * The field of a Change at `buf[pos]` that the inline path does not read (a
 * long tag or length, a large or negative op, another wire type), read into
 * `c` (or skipped) by a BinaryReader bounded by the Change's `end`; returns
 * where it ends.
 */
function readOtherField(buf: Uint8Array, pos: number, end: number, c: MutableChange): number {
  const r = new BinaryReader(buf.subarray(pos, end));
  const [no, wireType] = r.tag();
  const text = textFields[no];
  if (wireType === WireType.Varint && no === opNo) {
    // An enum is an int32; a negative one arrives as 10 bytes.
    c.op = r.int32();
  } else if (wireType === WireType.LengthDelimited && text !== undefined) {
    c[text] = r.string();
  } else {
    r.skip(wireType, no);
  }
  return pos + r.pos;
}

interface Timestamp {
  seconds: number;
  nanos: number;
}

/** A google.protobuf.Timestamp's bytes, merged field by field into `ts` (as protobuf merges a repeated message). */
function readTimestamp(bytes: Uint8Array, ts: Timestamp): Timestamp {
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wireType] = r.tag();
    if (no === 1 && wireType === WireType.Varint) ts.seconds = Number(r.int64());
    else if (no === 2 && wireType === WireType.Varint) ts.nanos = r.int32();
    else r.skip(wireType, no);
  }
  return ts;
}

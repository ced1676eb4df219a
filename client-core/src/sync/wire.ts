/**
 * The binary form of the two hot sync messages, written and read by hand:
 * PushRequest (a device's outbox, up to 5000 changes) and PullResponse (a
 * page of up to 5000 changes of the feed).
 *
 * protobuf-es builds and walks a message per change by reflection: about 10 µs
 * to encode a pushed change and 3 µs to decode a pulled one on a laptop, more
 * than the server spends on it, and several times that on a phone. A change is
 * seven strings and a small enum, so its bytes are written and read directly
 * here; everything else (PushResponse, errors, small calls) goes through
 * protobuf-es. (The server frames a Pull page's changes from bytes the
 * database has laid out: server/src/store/feed.ts.)
 *
 * `encodePushRequest` writes byte for byte what `toBinary(PushRequestSchema, …)`
 * writes, and `decodePullResponse` reads whatever a protobuf writer may send
 * (fields in any order, unknown fields skipped, a repeated field's last
 * singular value winning): wire.test.ts proves both against protobuf-es.
 */

import { utf8ByteLength } from "../core/utf8.ts";
import type { WireChange } from "../core/validate-change.ts";

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
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bytes of `n` (below 2^32) as a varint. */
export const varintSize = (n: number): number =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;

/** Writes `n` (below 2^32) as a varint into `out` at `at`; returns where it ends. */
export function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n > 0x7f) {
    out[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[at++] = n;
  return at;
}

/** Bytes of a string field: tag, length and UTF-8; 0 when empty (proto3 leaves it out). */
const stringFieldSize = (bytes: number): number =>
  bytes === 0 ? 0 : 1 + varintSize(bytes) + bytes;

/**
 * The bytes of a PushRequest carrying `changes`: its repeated field 1, each
 * change's tag, length and fields (`authorId` included when set, as the
 * message would; the server ignores it).
 */
export function encodePushRequest(changes: readonly SyncChange[]): Uint8Array {
  // Pass 1: the UTF-8 size of every string and of every Change, so that every
  // length is known before it is written.
  const sizes = new Int32Array(changes.length * 7);
  let total = 0;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i] as SyncChange;
    if (!Number.isInteger(c.op) || c.op < 0 || c.op > 0x7fffffff) {
      throw new RangeError(`change ${i}: op must be a ChangeOp number, got ${c.op}`);
    }
    const k = i * 7;
    const strings = [c.entity, c.entityId, c.scopeId, c.payloadJson, c.hlc, c.authorId];
    let message = c.op === 0 ? 0 : 1 + varintSize(c.op);
    for (let j = 0; j < 6; j++) {
      const bytes = utf8ByteLength(strings[j] as string);
      sizes[k + j] = bytes;
      message += stringFieldSize(bytes);
    }
    sizes[k + 6] = message;
    total += 1 + varintSize(message) + message;
  }

  // Pass 2: field 1 (changes) per change, its fields in number order.
  const out = new Uint8Array(total);
  let o = 0;
  const varint = (n: number): void => {
    o = writeVarint(out, o, n);
  };
  const string = (tag: number, s: string, bytes: number): void => {
    if (bytes === 0) return;
    out[o++] = tag;
    varint(bytes);
    if (bytes === s.length && bytes < 64) {
      // Short ASCII (ids, names, stamps): cheaper than a call into the encoder.
      for (let j = 0; j < bytes; j++) out[o + j] = s.charCodeAt(j);
    } else {
      encoder.encodeInto(s, out.subarray(o, o + bytes));
    }
    o += bytes;
  };
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i] as SyncChange;
    const k = i * 7;
    out[o++] = 0x0a; // field 1 (changes), length-delimited
    varint(sizes[k + 6] as number);
    string(0x0a, c.entity, sizes[k] as number); // 1 entity
    string(0x12, c.entityId, sizes[k + 1] as number); // 2 entity_id
    string(0x1a, c.scopeId, sizes[k + 2] as number); // 3 scope_id
    if (c.op !== 0) {
      out[o++] = 0x20; // 4 op
      varint(c.op);
    }
    string(0x2a, c.payloadJson, sizes[k + 3] as number); // 5 payload_json
    string(0x32, c.hlc, sizes[k + 4] as number); // 6 hlc
    string(0x3a, c.authorId, sizes[k + 5] as number); // 7 author_id
  }
  if (o !== total) throw new Error(`change encoding wrote ${o} bytes, expected ${total}`);
  return out;
}

/** Reads protobuf wire format from one buffer. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start: number,
    public end: number,
  ) {
    this.pos = start;
  }

  /** A varint of at most 32 bits (tags, lengths, enums, bools). */
  uint32(): number {
    const first = this.byte();
    if (first < 0x80) return first;
    let result = first & 0x7f;
    for (let shift = 7; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result > 0xffffffff ? result % 2 ** 32 : result;
    }
    // An int32 written as 10 bytes (negative): keep its low 32 bits.
    for (let i = 0; i < 5; i++) if (this.byte() < 0x80) return result % 2 ** 32;
    throw new Error("protobuf: varint longer than 10 bytes");
  }

  /** A varint of up to 64 bits as a signed number (int64; exact below 2^53). */
  int64(): number {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = this.byte();
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return Number(BigInt.asIntN(64, result));
    }
    throw new Error("protobuf: varint longer than 10 bytes");
  }

  byte(): number {
    if (this.pos >= this.end) throw new Error("protobuf: message is truncated");
    return this.buf[this.pos++] as number;
  }

  /** The end of a length-delimited field that starts here. */
  delimited(): number {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.end) throw new Error("protobuf: message is truncated");
    return end;
  }

  string(): string {
    const end = this.delimited();
    const s = decoder.decode(this.buf.subarray(this.pos, end));
    this.pos = end;
    return s;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.int64();
        return;
      case 1:
        this.advance(8);
        return;
      case 2:
        this.pos = this.delimited();
        return;
      case 5:
        this.advance(4);
        return;
      default:
        throw new Error(`protobuf: unsupported wire type ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new Error("protobuf: message is truncated");
    this.pos += n;
  }
}

/** Decodes the bytes of a PullResponse. */
export function decodePullResponse(bytes: Uint8Array): PullPage {
  const r = new Reader(bytes, 0, bytes.length);
  const changes: SyncChange[] = [];
  const repeated = [0, 1, 2].map((): Repeated => ({ start: 0, length: -1, value: "" }));
  let nextCursor = "";
  let hasMore = false;
  let serverTime: Timestamp | undefined;
  while (r.pos < r.end) {
    const tag = r.uint32();
    const wireType = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wireType !== 2) break;
        changes.push(readChange(r, r.delimited(), repeated));
        continue;
      case 2:
        if (wireType !== 2) break;
        nextCursor = r.string();
        continue;
      case 3:
        if (wireType !== 0) break;
        hasMore = r.uint32() !== 0;
        continue;
      case 4:
        if (wireType !== 2) break;
        serverTime = readTimestamp(r, r.delimited(), serverTime ?? { seconds: 0, nanos: 0 });
        continue;
    }
    r.skip(wireType);
  }
  const serverTimeMs =
    serverTime && serverTime.seconds * 1000 + Math.floor(serverTime.nanos / 1_000_000);
  return { changes, nextCursor, hasMore, serverTimeMs };
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
 * Reads a Change from `r` up to `end`, then leaves `r` at `end`. The common
 * case, one-byte tags and lengths below 2^14, is read inline; anything else
 * goes through `r` (`readOtherField`).
 */
function readChange(r: Reader, end: number, repeated: Repeated[]): SyncChange {
  const c: MutableChange = {
    entity: "",
    entityId: "",
    scopeId: "",
    op: 0,
    payloadJson: "",
    hlc: "",
    authorId: "",
  };
  const { buf } = r;
  const outer = r.end;
  r.end = end;
  let pos = r.pos;
  while (pos < end) {
    const tag = buf[pos] as number;
    if ((tag & 7) === 2 && tag < 0x80 && pos + 1 < end) {
      // A length-delimited field with a one-byte tag, its length inline when
      // it takes one or two bytes.
      let length = buf[pos + 1] as number;
      let start = pos + 2;
      if (length >= 0x80) {
        const second = buf[start] as number;
        if (start >= end || second >= 0x80) {
          r.pos = pos;
          pos = readOtherField(r, c);
          continue;
        }
        length = (length & 0x7f) | (second << 7);
        start++;
      }
      const stop = start + length;
      if (stop > end) throw new Error("protobuf: message is truncated");
      switch (tag >>> 3) {
        case 1:
          c.entity = repeatedText(buf, start, stop, repeated[0] as Repeated);
          break;
        case 2:
          c.entityId = decoder.decode(buf.subarray(start, stop));
          break;
        case 3:
          c.scopeId = repeatedText(buf, start, stop, repeated[1] as Repeated);
          break;
        case 5:
          c.payloadJson = decoder.decode(buf.subarray(start, stop));
          break;
        case 6:
          c.hlc = decoder.decode(buf.subarray(start, stop));
          break;
        case 7:
          c.authorId = repeatedText(buf, start, stop, repeated[2] as Repeated);
          break;
      }
      pos = stop;
    } else {
      r.pos = pos;
      pos = readOtherField(r, c);
    }
  }
  r.pos = end;
  r.end = outer;
  return c;
}

/** One field of a Change read by `r` (a long tag or length, op, another wire type); returns where it ends. */
function readOtherField(r: Reader, c: MutableChange): number {
  const tag = r.uint32();
  const wireType = tag & 7;
  const field = tag >>> 3;
  if (wireType === 0 && field === 4) {
    // An enum is an int32; a negative one arrives as 10 bytes.
    c.op = r.uint32() | 0;
  } else if (wireType === 2 && field >= 1 && field <= 7 && field !== 4) {
    const text = r.string();
    if (field === 1) c.entity = text;
    else if (field === 2) c.entityId = text;
    else if (field === 3) c.scopeId = text;
    else if (field === 5) c.payloadJson = text;
    else if (field === 6) c.hlc = text;
    else c.authorId = text;
  } else {
    r.skip(wireType);
  }
  return r.pos;
}

interface Timestamp {
  seconds: number;
  nanos: number;
}

/** A google.protobuf.Timestamp, merged field by field into `ts` (as protobuf merges a repeated message). */
function readTimestamp(r: Reader, end: number, ts: Timestamp): Timestamp {
  const inner = new Reader(r.buf, r.pos, end);
  while (inner.pos < end) {
    const tag = inner.uint32();
    const wireType = tag & 7;
    if (tag >>> 3 === 1 && wireType === 0) ts.seconds = inner.int64();
    else if (tag >>> 3 === 2 && wireType === 0) ts.nanos = inner.uint32() | 0;
    else inner.skip(wireType);
  }
  r.pos = end;
  return ts;
}

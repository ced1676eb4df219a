/**
 * The binary form of Pull's `changes`, written by hand.
 *
 * protobuf-es builds a message per feed row and encodes it by reflection,
 * about 8 µs per change (40 ms for a page of 5000, more than reading the page
 * from the database). Feed rows are seven strings and a small enum, so their
 * wire bytes are written straight from the rows into one buffer here, byte for
 * byte what `toBinary(PullResponseSchema, …)` writes for the same changes
 * (fields in number order, empty strings left out; proven by
 * pull-encoding.test.ts).
 *
 * The bytes travel as an unknown field of an otherwise ordinary PullResponse
 * (`encodedChanges`): protobuf-es writes a message's unknown fields after its
 * known ones, and protobuf readers accept fields in any order, so a binary
 * client reads the same message. It is one unknown field for the whole page:
 * protobuf-es writes the first change's tag, and the others' tags are part of
 * the data (5000 unknown fields cost the writer 3 ms to copy one by one).
 * JSON has no unknown fields, so a JSON request must get the ordinary message
 * (see `isBinaryRequest`).
 */
import type { UnknownField } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import type { FeedRow, FeedText } from "../store/feed.ts";

/** `changes` is field 1 of PullResponse: tag (1 << 3 | 2). */
const changesField = 1;

const varintSize = (n: number): number =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;

/** Bytes of a string field (tag, length, UTF-8), 0 when empty (proto3 leaves it out). */
const fieldSize = (bytes: number): number => (bytes === 0 ? 0 : 1 + varintSize(bytes) + bytes);

/**
 * The changes of a page as one unknown field of PullResponse whose bytes,
 * after the tag protobuf-es writes, are every change as field 1 (length and
 * message, then the next change's tag, and so on). None for no rows.
 */
export function encodedChanges(rows: readonly FeedRow<FeedText>[]): UnknownField[] {
  // Pass 1: UTF-8 sizes of every string, so lengths can be written up front.
  const sizes = new Int32Array(rows.length * 7);
  let total = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as FeedRow<FeedText>;
    const k = i * 7;
    const strings = [r.entity, r.entityId, r.scopeId, r.payload, r.hlc, r.authorId];
    let message = 2; // op: tag and a one-byte varint (1 or 2)
    for (let j = 0; j < 6; j++) {
      const t = strings[j] as FeedText;
      const bytes = typeof t === "string" ? Buffer.byteLength(t) : t.length;
      sizes[k + j] = bytes;
      message += fieldSize(bytes);
    }
    sizes[k + 6] = message;
    total += 1 + varintSize(message) + message;
  }
  if (rows.length === 0) return [];
  total -= 1; // the first tag is written by protobuf-es

  // Pass 2: write each change as the value of a length-delimited field (its
  // length and bytes; the writer adds the tag).
  const buf = Buffer.allocUnsafe(total);
  let o = 0;
  const varint = (n: number): void => {
    while (n > 0x7f) {
      buf[o++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[o++] = n;
  };
  const string = (tag: number, t: FeedText, bytes: number): void => {
    if (bytes === 0) return;
    buf[o++] = tag;
    varint(bytes);
    if (typeof t === "string") o += buf.write(t, o, bytes, "utf8");
    else {
      buf.set(t, o);
      o += bytes;
    }
  };
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as FeedRow<FeedText>;
    const k = i * 7;
    if (i > 0) buf[o++] = (changesField << 3) | WireType.LengthDelimited;
    varint(sizes[k + 6] as number);
    string(0x0a, r.entity, sizes[k] as number); // 1 entity
    string(0x12, r.entityId, sizes[k + 1] as number); // 2 entity_id
    string(0x1a, r.scopeId, sizes[k + 2] as number); // 3 scope_id
    buf[o++] = 0x20; // 4 op (ChangeOp: 1 upsert, 2 delete)
    buf[o++] = r.op === 2 ? 2 : 1;
    string(0x2a, r.payload, sizes[k + 3] as number); // 5 payload_json
    string(0x32, r.hlc, sizes[k + 4] as number); // 6 hlc
    string(0x3a, r.authorId, sizes[k + 5] as number); // 7 author_id
  }
  if (o !== total) throw new Error(`pull encoding wrote ${o} bytes, expected ${total}`);
  return [{ no: changesField, wireType: WireType.LengthDelimited, data: buf }];
}

/**
 * The request is Connect unary binary (`application/proto`), so the response is
 * binary too. Anything else (JSON, a GET) gets the ordinary message.
 */
export const isBinaryRequest = (header: Headers): boolean =>
  /^application\/proto$/i.test(header.get("content-type") ?? "");

import { create, fromBinary, toBinary, toJsonString } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { isStorableText } from "@hivekeep/client-core/core";
import { PullResponseSchema } from "@hivekeep/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeChange, type FeedRow, WirePageWriter } from "../store/feed.ts";
import { feedRowToProto } from "./mapping.ts";
import { encodedChanges, isBinaryRequest } from "./pull-encoding.ts";

const utf8 = new TextEncoder();
/** `chr(tag) || chr(octet_length(text)) || text`, left out when empty, as wire_head has them. */
const field = (tag: number, text: string) =>
  text === "" ? "" : String.fromCharCode(tag, utf8.encode(text).length) + text;
/** A change as the feed query returns it: its wire_head (migration 004), then its payload. */
const pack = (r: FeedRow): string =>
  `${r.seq}\x1f${field(0x0a, r.entity)}${field(0x12, r.entityId)}${field(0x1a, r.scopeId)}` +
  `${field(0x32, r.hlc)}${field(0x3a, r.authorId)}${String.fromCharCode(0x20, r.op)}${r.payloadJson}`;
/** The changes as postgres.js hands them over (bytes; PGlite's strings are encoded alike), framed. */
const pageOf = (rows: FeedRow[]) => {
  const writer = new WirePageWriter();
  for (const r of rows) writer.add(utf8.encode(pack(r)));
  return writer.finish();
};

const row = (over: Partial<FeedRow> = {}): FeedRow => ({
  seq: 1,
  entity: "inspection",
  entityId: "0193a0c2-7f00-7000-8000-000000000001",
  scopeId: "0193a0c2-7f00-7000-8000-000000000002",
  op: 1,
  payloadJson: '{"note":"Strong flight"}',
  hlc: "000001767225600000:00001:device-a",
  authorId: "user-1",
  ...over,
});

const responses = (rows: FeedRow[]) => {
  const init = { nextCursor: "42", hasMore: true, serverTime: timestampFromMs(1_767_225_600_123) };
  const ordinary = create(PullResponseSchema, { ...init, changes: rows.map(feedRowToProto) });
  const encoded = create(PullResponseSchema, init);
  encoded.$unknown = encodedChanges(pageOf(rows));
  return { ordinary, encoded };
};

describe("hand-written Pull encoding", () => {
  it("decodes to the message toBinary writes, changes first", () => {
    const rows = [
      row(),
      row({ op: 2, payloadJson: "{}" }),
      // Non-ASCII (2-, 3- and 4-byte UTF-8) and a payload longer than 16 KiB (3-byte length).
      row({ payloadJson: JSON.stringify({ note: `Bienenstöcke ✓ 🐝 ${"x".repeat(20_000)}` }) }),
      // An empty author is left out, as proto3 does; the longest ids fit one length byte.
      row({ authorId: "", entityId: "e".repeat(100), scopeId: `user:${"u".repeat(100)}` }),
    ];
    const { ordinary, encoded } = responses(rows);
    const bytes = toBinary(PullResponseSchema, encoded);
    expect(bytes.length).toBe(toBinary(PullResponseSchema, ordinary).length);
    expect(fromBinary(PullResponseSchema, bytes)).toEqual(ordinary);
    // protobuf-es writes the page (an unknown field) after the known fields.
    const tail = toBinary(
      PullResponseSchema,
      create(PullResponseSchema, { ...ordinary, changes: [] }),
    );
    expect(Buffer.from(bytes.subarray(0, tail.length))).toEqual(Buffer.from(tail));
  });

  it("decodes to the same message for any rows", () => {
    // Every part but the payload is a validated number, name, id, scope or
    // stamp; the payload is a JSON object of any text.
    const name = fc.stringMatching(/^[A-Za-z0-9_:.-]{1,105}$/);
    const payload = fc
      .string({ unit: "binary", maxLength: 300 })
      .map((s) => `{${s}`)
      .filter(isStorableText);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            seq: fc.nat(),
            entity: name,
            entityId: name,
            scopeId: name,
            op: fc.constantFrom(1 as const, 2 as const),
            payloadJson: payload,
            hlc: name,
            authorId: fc.oneof(fc.constant(""), name),
          }),
          { maxLength: 20 },
        ),
        (rows) => {
          const { ordinary, encoded } = responses(rows);
          const decoded = fromBinary(PullResponseSchema, toBinary(PullResponseSchema, encoded));
          expect(decoded).toEqual(
            fromBinary(PullResponseSchema, toBinary(PullResponseSchema, ordinary)),
          );
          expect(rows.map((r) => decodeChange(utf8.encode(pack(r))))).toEqual(rows);
          const page = pageOf(rows);
          expect([page.count, page.lastSeq]).toEqual([rows.length, rows.at(-1)?.seq]);
        },
      ),
    );
  });

  it("frames a large page in chunks that each start with a change", () => {
    // About 4 MiB in chunks of 256 KiB, five changes larger than a chunk among them.
    const rows = Array.from({ length: 500 }, (_, i) =>
      row({
        seq: i + 1,
        payloadJson: JSON.stringify({ note: "n".repeat(i % 100 === 99 ? 300_000 : 5_000) }),
      }),
    );
    const page = pageOf(rows);
    expect(page.chunks.length).toBeGreaterThan(5);
    for (const chunk of page.chunks) expect(chunk[0]).toBe(0x0a);
    const { ordinary, encoded } = responses(rows);
    expect(fromBinary(PullResponseSchema, toBinary(PullResponseSchema, encoded))).toEqual(ordinary);
    expect(pageOf([])).toEqual({ count: 0, lastSeq: undefined, chunks: [] });
  });

  it("refuses a change whose head or payload is not laid out so", () => {
    const packed = pack(row({ seq: 5 }));
    const op = String.fromCharCode(0x20, 1);
    const malformed = [
      packed.replace(op, ""), // no op
      packed.replace(op, `${op}x`), // something between op and the payload
      packed.replace("5\x1f", "5"), // no separator after the seq
      // A text of 128 bytes or more: chr() writes its length as 2 bytes.
      packed.replace(
        field(0x12, row().entityId),
        `\x12${String.fromCharCode(200)}${"e".repeat(200)}`,
      ),
      packed.replace("{", "["), // a payload that is not an object
      packed.slice(0, packed.indexOf("{")), // no payload
    ];
    for (const m of malformed) {
      expect(() => new WirePageWriter().add(utf8.encode(m))).toThrow(/malformed/);
      expect(() => decodeChange(utf8.encode(m))).toThrow(/malformed/);
    }
  });

  it("has nothing for JSON, so only binary requests get it", () => {
    const { encoded } = responses([row()]);
    expect(toJsonString(PullResponseSchema, encoded)).not.toContain("changes");
    const h = (ct: string) => new Headers({ "content-type": ct });
    expect(isBinaryRequest(h("application/proto"))).toBe(true);
    expect(isBinaryRequest(h("Application/Proto"))).toBe(true);
    expect(isBinaryRequest(h("application/json"))).toBe(false);
    expect(isBinaryRequest(h("application/json; charset=utf-8"))).toBe(false);
    expect(isBinaryRequest(h("application/connect+proto"))).toBe(false);
    expect(isBinaryRequest(new Headers())).toBe(false);
  });
});

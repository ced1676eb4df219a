import { create, fromBinary, toBinary, toJsonString } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { isStorableText } from "@hivekeep/client-core/core";
import { PullResponseSchema } from "@hivekeep/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FeedPage, type FeedRow } from "../store/feed.ts";
import { feedRowToProto } from "./mapping.ts";
import { encodedChanges, isBinaryRequest } from "./pull-encoding.ts";

const utf8 = new TextEncoder();
/** `chr(tag) || chr(octet_length(text)) || text`, as the feed's select writes a field. */
const field = (tag: number, text: string) =>
  String.fromCharCode(tag, utf8.encode(text).length) + text;
/** A change laid out as the feed's select lays it out (`packedChange` in feed.ts). */
const pack = (r: FeedRow): string =>
  `${r.seq}\x1f${field(0x0a, r.entity)}${field(0x12, r.entityId)}${field(0x1a, r.scopeId)}` +
  `${field(0x32, r.hlc)}${r.authorId === "" ? "" : field(0x3a, r.authorId)}` +
  `${String.fromCharCode(0x20, r.op)}${r.payloadJson}`;
/** The page as postgres.js hands it over (bytes) or as PGlite does (strings). */
const pageOf = (rows: FeedRow[], as: "bytes" | "strings" = "bytes", limit = rows.length) =>
  new FeedPage(
    rows.map((r) => (as === "bytes" ? utf8.encode(pack(r)) : pack(r))),
    limit,
  );

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

const responses = (rows: FeedRow[], as: "bytes" | "strings" = "bytes") => {
  const init = { nextCursor: "42", hasMore: true, serverTime: timestampFromMs(1_767_225_600_123) };
  const ordinary = create(PullResponseSchema, { ...init, changes: rows.map(feedRowToProto) });
  const encoded = create(PullResponseSchema, init);
  encoded.$unknown = encodedChanges(pageOf(rows, as));
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

  it("decodes to the same message for any rows, from bytes or strings", () => {
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
        fc.constantFrom("bytes" as const, "strings" as const),
        (rows, as) => {
          const { ordinary, encoded } = responses(rows, as);
          const decoded = fromBinary(PullResponseSchema, toBinary(PullResponseSchema, encoded));
          expect(decoded).toEqual(
            fromBinary(PullResponseSchema, toBinary(PullResponseSchema, ordinary)),
          );
          const page = pageOf(rows, as);
          expect(Array.from({ length: page.count }, (_, i) => page.row(i))).toEqual(rows);
        },
      ),
    );
  });

  it("keeps the limit and says whether more follow", () => {
    const rows = [row({ seq: 7 }), row({ seq: 9, op: 2, payloadJson: "{}" }), row({ seq: 12 })];
    const page = pageOf(rows, "bytes", 2);
    expect([page.count, page.hasMore, page.seq(0), page.seq(1), page.row(1).op]).toEqual([
      2,
      true,
      7,
      9,
      2,
    ]);
    const all = pageOf(rows, "strings", 3);
    expect([all.count, all.hasMore, all.seq(2)]).toEqual([3, false, 12]);
    expect(pageOf([], "bytes", 5).count).toBe(0);
  });

  it("refuses a change that is not laid out as the select lays it out", () => {
    const packed = pack(row({ seq: 5 }));
    const malformed = [
      packed.slice(0, packed.indexOf("{")), // no payload
      packed.replace(String.fromCharCode(0x20, 1), ""), // no op
      // A text of 128 bytes or more: chr() writes its length as 2 bytes.
      packed.replace(
        field(0x12, row().entityId),
        `\x12${String.fromCharCode(200)}${"e".repeat(200)}`,
      ),
      packed.replace("{", "["), // a payload that is not an object
    ];
    for (const m of malformed) {
      expect(() => new FeedPage([utf8.encode(m)], 1)).toThrow(/feed row 5: malformed/);
      expect(() => new FeedPage([m], 1)).toThrow(/feed row 5: malformed/);
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

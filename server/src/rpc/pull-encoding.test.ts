import { create, fromBinary, toBinary, toJsonString } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { isStorableText } from "@hivekeep/client-core/core";
import { PullResponseSchema } from "@hivekeep/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changeHead, type FeedRow, WirePageWriter } from "../store/feed.ts";
import { feedRowToProto } from "./mapping.ts";
import { encodedChanges, isBinaryRequest } from "./pull-encoding.ts";

/** What the write path stores for a feed row's Change but its payload (`changes.change_head`). */
const headOf = (r: FeedRow): string =>
  changeHead({
    entity: r.entity,
    entity_id: r.entityId,
    scope_id: r.scopeId,
    op: r.op,
    hlc: r.hlc,
    author_id: r.authorId,
  });
/** The changes framed as PGlite hands them over (strings), or postgres.js (their UTF-8). */
const pageOf = (rows: FeedRow[], bytes = false) => {
  const writer = new WirePageWriter();
  for (const r of rows) {
    const head = headOf(r);
    if (bytes) writer.add(r.seq, Buffer.from(head, "latin1"), Buffer.from(r.payloadJson, "utf8"));
    else writer.add(r.seq, head, r.payloadJson);
  }
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

const responses = (rows: FeedRow[], bytes = false) => {
  const init = { nextCursor: "42", hasMore: true, serverTime: timestampFromMs(1_767_225_600_123) };
  const ordinary = create(PullResponseSchema, { ...init, changes: rows.map(feedRowToProto) });
  const encoded = create(PullResponseSchema, init);
  encoded.$unknown = encodedChanges(pageOf(rows, bytes));
  return { ordinary, encoded };
};

describe("hand-written Pull encoding", () => {
  it.each([
    ["a string (PGlite)", false],
    ["bytes (postgres.js)", true],
  ])("decodes to the message toBinary writes, changes first, from %s", (_, asBytes) => {
    const rows = [
      row(),
      row({ op: 2, payloadJson: "{}" }),
      // Non-ASCII (2-, 3- and 4-byte UTF-8) and a payload longer than 16 KiB (3-byte length).
      row({ payloadJson: JSON.stringify({ note: `Bienenstöcke ✓ 🐝 ${"x".repeat(20_000)}` }) }),
      // An empty author is left out, as proto3 does; ids of 128 bytes and more (2-byte lengths).
      row({ authorId: "", entityId: "e".repeat(200), scopeId: `user:${"u".repeat(300)}` }),
    ];
    const { ordinary, encoded } = responses(rows, asBytes);
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
    // stamp (any text here: the stored bytes are the device's encoding of
    // whatever was written); the payload is a JSON object of any text.
    const name = fc.string({ unit: "binary", minLength: 1, maxLength: 200 }).filter(isStorableText);
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
        fc.boolean(),
        (rows, bytes) => {
          const { ordinary, encoded } = responses(rows, bytes);
          const decoded = fromBinary(PullResponseSchema, toBinary(PullResponseSchema, encoded));
          expect(decoded).toEqual(
            fromBinary(PullResponseSchema, toBinary(PullResponseSchema, ordinary)),
          );
          const page = pageOf(rows, bytes);
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

  it("refuses a head that is not base64 or an empty payload, rather than misread them", () => {
    const head = headOf(row({ seq: 5 }));
    const malformed = [
      head.slice(1), // a length that is not a multiple of 4
      `!!!!${head.slice(4)}`, // not base64 digits
      `${head.slice(0, -4)}====`, // padding where digits belong
    ];
    for (const m of malformed) {
      for (const value of [m, Buffer.from(m, "latin1")]) {
        expect(() => new WirePageWriter().add(5, value, "{}")).toThrow(
          /feed row 5: change_head is not base64/,
        );
      }
    }
    expect(() => new WirePageWriter().add(5, head, "")).toThrow(/feed row 5: empty payload/);
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

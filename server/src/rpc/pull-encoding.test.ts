import { create, fromBinary, toBinary, toJsonString } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { PullResponseSchema } from "@hivekeep/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FeedRow } from "../store/feed.ts";
import { feedRowToProto } from "./mapping.ts";
import { encodedChanges, isBinaryRequest } from "./pull-encoding.ts";

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
  encoded.$unknown = encodedChanges(rows);
  return { ordinary, encoded };
};

describe("hand-written Pull encoding", () => {
  it("writes exactly the bytes of toBinary, changes first", () => {
    const rows = [
      row(),
      row({ op: 2, payloadJson: "{}" }),
      // Non-ASCII (2-, 3- and 4-byte UTF-8) and a payload longer than 16 KiB (3-byte length).
      row({ payloadJson: JSON.stringify({ note: `Bienenstöcke ✓ 🐝 ${"x".repeat(20_000)}` }) }),
      // Empty strings are left out, as proto3 does.
      row({ scopeId: "", authorId: "", payloadJson: "" }),
    ];
    const { ordinary, encoded } = responses(rows);
    // protobuf-es writes unknown fields last; `changes` (field 1) is written
    // first by toBinary, so compare field by field through a reader and the
    // whole bytes after moving the known fields behind.
    const a = toBinary(PullResponseSchema, ordinary);
    const b = toBinary(PullResponseSchema, encoded);
    expect(b.length).toBe(a.length);
    const tail = toBinary(
      PullResponseSchema,
      create(PullResponseSchema, { ...ordinary, changes: [] }),
    );
    expect(Buffer.from(b.subarray(0, tail.length))).toEqual(Buffer.from(tail));
    expect(Buffer.from(b.subarray(tail.length))).toEqual(
      Buffer.from(a.subarray(0, a.length - tail.length)),
    );
    expect(fromBinary(PullResponseSchema, b)).toEqual(fromBinary(PullResponseSchema, a));
  });

  it("decodes to the same message for any rows", () => {
    const text = fc.string({ unit: "binary", maxLength: 300 });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            seq: fc.nat(),
            entity: text,
            entityId: text,
            scopeId: text,
            op: fc.constantFrom(1 as const, 2 as const),
            payloadJson: text,
            hlc: text,
            authorId: text,
          }),
          { maxLength: 20 },
        ),
        (rows) => {
          const { ordinary, encoded } = responses(rows);
          const decoded = fromBinary(PullResponseSchema, toBinary(PullResponseSchema, encoded));
          expect(decoded).toEqual(
            fromBinary(PullResponseSchema, toBinary(PullResponseSchema, ordinary)),
          );
        },
      ),
    );
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

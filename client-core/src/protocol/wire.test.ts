import { create, fromBinary, ScalarType, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  type ChangeOp,
  ChangeSchema,
  type Change as ProtoChange,
  PullResponseSchema,
  PushRequestSchema,
} from "@hivekeep/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  changeFields,
  decodePullResponse,
  encodeChange,
  encodeChangeHead,
  encodePushRequest,
  payloadFieldHeaderSize,
  type SyncChange,
  writePayloadFieldHeader,
} from "./wire.ts";

// Strings of every kind protobuf-es must agree on: empty, ASCII, multi-byte,
// astral (surrogate pairs) and lone surrogates (encoded as U+FFFD).
const text = fc.oneof(
  fc.constant(""),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 100, maxLength: 3000 }),
  // Long enough to be measured by encodeInto (wire.ts utf8Size), lone surrogates included.
  fc.string({ unit: "binary", minLength: 64, maxLength: 400 }),
);
const change = fc.record({
  entity: text,
  entityId: text,
  scopeId: text,
  op: fc.oneof(fc.constantFrom(0, 1, 2), fc.nat()),
  payloadJson: text,
  hlc: text,
  authorId: text,
});

const plain = (c: ProtoChange): SyncChange => ({
  entity: c.entity,
  entityId: c.entityId,
  scopeId: c.scopeId,
  op: c.op,
  payloadJson: c.payloadJson,
  hlc: c.hlc,
  authorId: c.authorId,
});

describe("changeFields", () => {
  it("are exactly the fields of ChangeSchema: a field added, dropped or renumbered in sync.proto fails here", () => {
    expect(
      ChangeSchema.fields.map((f) => ({
        name: f.name,
        no: f.number,
        kind: f.fieldKind === "enum" ? "enum" : f.fieldKind === "scalar" ? f.scalar : f.fieldKind,
        key: f.localName,
      })),
    ).toEqual(
      changeFields.map((f) => ({
        ...f,
        kind: f.kind === "string" ? ScalarType.STRING : f.kind,
      })),
    );
  });
});

describe("encodeChange", () => {
  it("writes exactly the bytes of toBinary(Change)", () => {
    fc.assert(
      fc.property(change, (c) => {
        expect(encodeChange(c)).toEqual(toBinary(ChangeSchema, create(ChangeSchema, c)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("encodeChangeHead and writePayloadFieldHeader", () => {
  it("with the payload after them, make a message that reads as the whole change", () => {
    fc.assert(
      fc.property(change, (c) => {
        fc.pre(c.payloadJson !== "");
        const head = encodeChangeHead(c);
        const payload = new TextEncoder().encode(c.payloadJson);
        const out = new Uint8Array(
          head.length + payloadFieldHeaderSize(payload.length) + payload.length,
        );
        out.set(head);
        const at = writePayloadFieldHeader(out, head.length, payload.length);
        out.set(payload, at);
        expect(at + payload.length).toBe(out.length);
        expect(head).toEqual(
          toBinary(ChangeSchema, create(ChangeSchema, { ...c, payloadJson: "" })),
        );
        expect(fromBinary(ChangeSchema, out)).toEqual(create(ChangeSchema, c));
      }),
      { numRuns: 300 },
    );
  });
});

describe("encodePushRequest", () => {
  it("writes exactly the bytes of toBinary(PushRequest)", () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 20 }), (changes) => {
        const expected = toBinary(
          PushRequestSchema,
          create(PushRequestSchema, {
            changes: changes.map((c) => create(ChangeSchema, c)),
          }),
        );
        expect(encodePushRequest(changes)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses an op that is not a ChangeOp number", () => {
    const c = {
      entity: "hive",
      entityId: "h",
      scopeId: "a",
      payloadJson: "{}",
      hlc: "",
      authorId: "",
    };
    expect(() => encodePushRequest([{ ...c, op: -1 }])).toThrow(RangeError);
    expect(() => encodePushRequest([{ ...c, op: 1.5 }])).toThrow(RangeError);
  });
});

describe("decodePullResponse", () => {
  it("reads what toBinary(PullResponse) writes", () => {
    fc.assert(
      fc.property(
        fc.array(change, { maxLength: 20 }),
        text,
        fc.boolean(),
        fc.option(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 })),
        text,
        fc.option(fc.integer({ min: 0, max: 253_402_300_799_999 })),
        (changes, nextCursor, hasMore, ms, headCursor, cutoff) => {
          const message = create(PullResponseSchema, {
            changes: changes.map((c) => create(ChangeSchema, c)),
            nextCursor,
            hasMore,
            serverTime: ms === null ? undefined : timestampFromMs(ms),
            headCursor,
            readingsCutoff: cutoff === null ? undefined : timestampFromMs(cutoff),
          });
          const page = decodePullResponse(toBinary(PullResponseSchema, message));
          expect(page).toEqual({
            changes: message.changes.map(plain),
            nextCursor,
            hasMore,
            serverTimeMs: ms ?? undefined,
            headCursor,
            ...(cutoff === null ? {} : { readingsCutoffMs: cutoff }),
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads fields in any order and skips unknown ones, as protobuf-es does", () => {
    // The server writes `changes` after the other fields (pull-encoding.ts).
    const one = create(ChangeSchema, {
      entity: "hive",
      entityId: "h1",
      scopeId: "a1",
      op: 1,
      payloadJson: '{"name":"Königin"}',
      hlc: "000001700000000:00000:dev",
      authorId: "u1",
    });
    const w = new BinaryWriter();
    w.tag(2, WireType.LengthDelimited).string("42");
    w.tag(9, WireType.Varint).uint64(2n ** 60n); // unknown: varint
    w.tag(10, WireType.Bit64).fixed64(7n); // unknown: 64-bit
    w.tag(11, WireType.Bit32).fixed32(7); // unknown: 32-bit
    w.tag(12, WireType.LengthDelimited).bytes(new Uint8Array([1, 2, 3])); // unknown: bytes
    w.tag(1, WireType.LengthDelimited).bytes(
      // A change with an unknown field 9 between its known ones.
      new BinaryWriter()
        .tag(6, WireType.LengthDelimited)
        .string(one.hlc)
        .tag(9, WireType.Varint)
        .int32(-5)
        .raw(toBinary(ChangeSchema, one))
        .finish(),
    );
    w.tag(3, WireType.Varint).bool(true);
    w.tag(1, WireType.LengthDelimited).bytes(toBinary(ChangeSchema, one));
    const bytes = w.finish();

    const ours = decodePullResponse(bytes);
    const theirs = fromBinary(PullResponseSchema, bytes);
    expect(ours.changes).toEqual(theirs.changes.map(plain));
    expect(ours).toMatchObject({ nextCursor: "42", hasMore: true, serverTimeMs: undefined });
    expect(ours.changes[0]?.payloadJson).toBe('{"name":"Königin"}');
  });

  it("reads repeated and nearly repeated entity, scope and author values right", () => {
    const values = ["hive", "hivf", "hive", "", "hive", "queen", "hive", "hivé"];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            entity: fc.constantFrom(...values),
            scopeId: fc.constantFrom(...values),
            authorId: fc.constantFrom(...values),
          }),
          { maxLength: 30 },
        ),
        (rows) => {
          const message = create(PullResponseSchema, {
            changes: rows.map((r) => create(ChangeSchema, { ...r, op: 1, hlc: "h" })),
          });
          expect(decodePullResponse(toBinary(PullResponseSchema, message)).changes).toEqual(
            message.changes.map(plain),
          );
        },
      ),
    );
  });

  it("reads a negative op as protobuf-es does", () => {
    const bytes = toBinary(
      PullResponseSchema,
      create(PullResponseSchema, { changes: [create(ChangeSchema, { op: -3 as ChangeOp })] }),
    );
    expect(decodePullResponse(bytes).changes[0]?.op).toBe(-3);
  });

  it("refuses a truncated message", () => {
    // Lengths of one, two and three bytes (the last is read by the slow path).
    for (const payloadJson of [
      '{"name":"x"}',
      `{"note":"${"n".repeat(300)}"}`,
      "x".repeat(17_000),
    ]) {
      const bytes = toBinary(
        PullResponseSchema,
        create(PullResponseSchema, {
          changes: [create(ChangeSchema, { entity: "hive", op: 1, payloadJson, hlc: "h" })],
          nextCursor: "7",
        }),
      );
      const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1).filter(
        (cut) => cut < 40 || cut > bytes.length - 40 || cut % 97 === 0,
      );
      for (const cut of cuts) {
        const head = bytes.subarray(0, cut);
        let ours: unknown;
        try {
          ours = decodePullResponse(head);
        } catch {
          ours = "error";
        }
        let theirs: unknown;
        try {
          theirs = fromBinary(PullResponseSchema, head);
        } catch {
          theirs = "error";
        }
        expect(ours === "error").toBe(theirs === "error");
      }
      // Ours where a change's length overruns; BinaryReader's elsewhere.
      expect(() => decodePullResponse(bytes.subarray(0, bytes.length - 1))).toThrow(
        /truncated|premature EOF/,
      );
    }
  });
});

/**
 * Forged SyncService/Push changes: shaped like a device's (entity from the registry, a scope
 * that fits, a payload of the entity's columns, a fresh HLC), then bent: unknown entities,
 * another tenant's or another user's scope, other tenants' row ids, forbidden and unknown
 * columns, values of the wrong type or out of range, impossible timestamps, HLCs far ahead or
 * malformed, payloads that are not JSON objects or are 1 MB.
 */
import { type EntitySpec, entityNames, entitySpec, formatHlc } from "@hivekeep/client-core/core";
import fc from "fast-check";
import { timestampHostile } from "./fuzz-hostile.ts";
import {
  deepObject,
  jsonText,
  type Pools,
  protoKeys,
  Raw,
  type Tagged,
  validTimestamp,
} from "./fuzz-values.ts";

const node = "fuzz-device";
/** A stamp of now (the server refuses stamps too far ahead of its clock). */
const hlcNow = (counter: number) => formatHlc({ ms: Date.now(), counter, node });

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T;

const hostileHlcs: (readonly [string, () => string])[] = [
  ["hlc-far-ahead", () => formatHlc({ ms: Date.now() + 10 * 365 * 86_400_000, counter: 0, node })],
  ["hlc-max", () => formatHlc({ ms: 999_999_999_999_999, counter: 99_999, node })],
  ["hlc-zero", () => formatHlc({ ms: 0, counter: 0, node })],
  ["hlc-malformed", () => "not-an-hlc"],
  ["hlc-empty", () => ""],
  ["hlc-short-ms", () => `${Date.now()}:00000:${node}`],
  ["hlc-counter-overflow", () => `${String(Date.now()).padStart(15, "0")}:100000:${node}`],
  ["hlc-bad-node", () => `${String(Date.now()).padStart(15, "0")}:00000:bad node!`],
  ["hlc-long-node", () => `${String(Date.now()).padStart(15, "0")}:00000:${"n".repeat(65)}`],
  ["hlc-nul", () => `${String(Date.now()).padStart(15, "0")}:00000:${node}\u0000`],
];

/** A valid-looking value for one column, with the caller's ids for references. */
function columnValue(
  p: Pools,
  spec: EntitySpec,
  column: string,
  refs: { apiaryId: string; hiveId: string },
): fc.Arbitrary<unknown> {
  const col = spec.columns[column];
  if (!col) return fc.constant(null);
  switch (col.type) {
    case "text":
      if (col.elementPrefix) return fc.constantFrom("", ...p.ownPhotos);
      return fc.constantFrom("fuzzed", "Lindenblüte", "note 1");
    case "float":
      return fc.double({ min: 0.5, max: 80, noNaN: true });
    case "int":
      return column === "year"
        ? fc.integer({ min: 2020, max: 2026 })
        : fc.integer({ min: 1, max: 12 });
    case "bool":
      return fc.boolean();
    case "enum":
      return fc.constantFrom(0, ...(col.enumValues ?? []));
    case "timestamp":
      return validTimestamp;
    case "id":
      if (col.ref === "apiary") return fc.constant(refs.apiaryId);
      if (col.ref === "hive") return fc.constant(refs.hiveId);
      return fc.constantFrom("", ...(p.own[col.ref ?? ""] ?? []));
    case "orset":
      return fc.constant({ add: [p.ownPhotos[0] ?? "data:image/png;base64,AA"] });
  }
}

/** A hostile value for a column of that type. */
function hostileColumn(p: Pools, spec: EntitySpec, column: string): fc.Arbitrary<Tagged> {
  const col = spec.columns[column];
  const type = col?.type ?? "text";
  const otherApiary = p.other.apiary?.[0] ?? "x";
  const otherHive = p.other.hive?.[0] ?? "x";
  const byType: Record<string, (readonly [string, unknown])[]> = {
    text: [
      ["nul", "a\u0000b"],
      ["lone-surrogate", "\ud800"],
      // One over the column's own limit (10 000, or more where the registry allows more).
      ["long-10001", "x".repeat((col?.maxLength ?? 10_000) + 1)],
      ["blank", "  "],
      ["number", 5],
      ["photo-not-data-url", "http://example.org/x.png"],
    ],
    float: [
      ["raw-1e400", new Raw("1e400")],
      ["max-double", 1.7976931348623157e308],
      ["string", "1.5"],
      ["negative", -3],
      ["zero", 0],
    ],
    int: [
      ["int32-overflow", 2_147_483_648],
      ["fraction", 1.5],
      ["string", "3"],
      ["negative", -1],
    ],
    bool: [
      ["string-true", "true"],
      ["one", 1],
    ],
    enum: [
      ["unknown-number", 99_999],
      ["name", "HIVE_TYPE_ZANDER"],
      ["negative", -1],
    ],
    timestamp: timestampHostile.filter(([k]) => k !== "offset" && k !== "before-1970"),
    id: [
      ["other-tenant-apiary", otherApiary],
      ["other-tenant-hive", otherHive],
      ["unknown-id", "0190f5a0-0000-7000-8000-000000000000"],
      ["nul", "a\u0000"],
      ["id-101-chars", "a".repeat(101)],
      ["bad-chars", "a b/c"],
    ],
    orset: [
      ["not-object", ["x"]],
      ["unknown-key", { put: ["x"] }],
      ["remove-not-hlc", { remove: ["x"] }],
      ["add-not-photo", { add: ["not a photo"] }],
      ["add-huge", { add: [`data:image/png;base64,${"A".repeat(600_000)}`] }],
    ],
  };
  return fc
    .constantFrom(...(byType[type] ?? byType.text ?? []))
    .map(([k, v]) => ({ kind: `${column}=${k}`, value: v }));
}

export interface ForgedChange {
  /** The Change as proto3 JSON. */
  readonly json: Record<string, unknown>;
  readonly kind: string;
}

/** One forged change, shaped like a device's with at most a couple of things bent. */
export function forgedChange(p: Pools): fc.Arbitrary<ForgedChange> {
  const ownApiaries = p.own.apiary ?? [];
  const ownHives = Object.keys(p.hiveApiary);
  return fc
    .record({
      entity: fc.oneof(
        { weight: 10, arbitrary: fc.constantFrom(...entityNames).map((e) => ({ e, kind: "" })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(
              "widget",
              "Apiary",
              "apiary\u0000",
              "__proto__",
              "",
              "constructor",
              "users",
            )
            .map((e) => ({ e, kind: `entity=${JSON.stringify(e)}` })),
        },
      ),
      pickApiary: fc.nat(),
      pickHive: fc.nat(),
      idKind: fc.constantFrom("new", "new", "own", "own", "other-tenant", "bad"),
      newId: fc.uuid({ version: 7 }),
      scopeKind: fc.oneof(
        { weight: 8, arbitrary: fc.constant("fitting") },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "other-tenant-apiary",
            "other-user",
            "other-tenant-user",
            "own-user",
            "other-own-apiary",
            "garbage",
            "empty",
          ),
        },
      ),
      op: fc.oneof(
        { weight: 8, arbitrary: fc.constant("CHANGE_OP_UPSERT") },
        { weight: 2, arbitrary: fc.constant("CHANGE_OP_DELETE") },
        { weight: 1, arbitrary: fc.constantFrom<unknown>("CHANGE_OP_UNSPECIFIED", 99, "NOPE") },
      ),
      columnsWanted: fc.array(fc.nat(), { maxLength: 4 }),
      payloadTwist: fc.oneof(
        { weight: 10, arbitrary: fc.constant("none") },
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            "hostile-column",
            "hostile-column",
            "unknown-column",
            "forbidden-column",
            "proto-keys",
            "not-json",
            "not-object",
            "deep",
            "huge",
            "truncated",
          ),
        },
      ),
      hlc: fc.oneof(
        { weight: 10, arbitrary: fc.constant(-1) },
        { weight: 1, arbitrary: fc.nat(hostileHlcs.length - 1) },
      ),
      counter: fc.nat(99_000),
      author: fc.constantFrom("", "", "", p.otherUserId, p.peerUserId, "me\u0000"),
      hostileSeed: fc.nat(),
    })
    .chain((r) => {
      const spec = entitySpec(r.entity.e);
      const hive = ownHives.length ? pick(ownHives, r.pickHive) : "";
      const hiveApiary = p.hiveApiary[hive] ?? "";
      const apiary = ownApiaries.length ? pick(ownApiaries, r.pickApiary) : "";
      const usesHive = spec !== undefined && "hive_id" in spec.columns && spec.name !== "task";
      const refs = { apiaryId: usesHive ? hiveApiary : apiary, hiveId: hive };
      const columns = spec ? Object.keys(spec.columns) : ["name"];
      const wanted = new Set([
        ...(spec?.required ?? []),
        ...r.columnsWanted.map((i) => pick(columns, i)),
      ]);
      const payloadArb = spec
        ? fc.record(
            Object.fromEntries(
              [...wanted].map((c) => [c, columnValue(p, spec, c, refs)] as const),
            ) as Record<string, fc.Arbitrary<unknown>>,
          )
        : fc.constant({ name: "x" } as Record<string, unknown>);
      const twistColumn = pick(columns, r.hostileSeed);
      const hostileArb =
        r.payloadTwist === "hostile-column" && spec
          ? hostileColumn(p, spec, twistColumn)
          : fc.constant(undefined);
      return fc.tuple(fc.constant(r), payloadArb, hostileArb);
    })
    .map(([r, payload, hostile]) => {
      const kinds: string[] = [];
      if (r.entity.kind) kinds.push(r.entity.kind);
      const entity = r.entity.e;
      const spec = entitySpec(entity);
      // The row id.
      let entityId: string;
      switch (r.idKind) {
        case "own":
          entityId = pick(p.own[entity] ?? [r.newId], r.pickApiary);
          break;
        case "other-tenant":
          entityId = pick(p.other[entity] ?? p.other.apiary ?? [r.newId], r.pickApiary);
          kinds.push("entityId=other-tenant-id");
          break;
        case "bad":
          entityId = pick(["", "a\u0000", "a".repeat(101), "a b", "../x"], r.hostileSeed);
          kinds.push(`entityId=${JSON.stringify(entityId.slice(0, 12))}`);
          break;
        default:
          entityId = r.newId;
      }
      // The scope that fits the entity and payload, or a wrong one.
      const payloadApiary = typeof payload.apiary_id === "string" ? payload.apiary_id : "";
      let scopeId =
        spec?.scope === "self"
          ? entityId
          : spec?.name === "task" && payloadApiary === ""
            ? `user:${p.userId}`
            : payloadApiary || (p.own.apiary?.[0] ?? "");
      if (r.scopeKind !== "fitting") {
        kinds.push(`scope=${r.scopeKind}`);
        scopeId = {
          "other-tenant-apiary": p.other.apiary?.[0] ?? "",
          "other-user": `user:${p.peerUserId}`,
          "other-tenant-user": `user:${p.otherUserId}`,
          "own-user": `user:${p.userId}`,
          "other-own-apiary": (p.own.apiary ?? []).find((a) => a !== scopeId) ?? "",
          garbage: "scope\u0000!",
          empty: "",
        }[r.scopeKind] as string;
      }
      if (r.op !== "CHANGE_OP_UPSERT") kinds.push(`op=${String(r.op)}`);
      // The payload text, perhaps bent.
      const body: Record<string, unknown> = r.op === "CHANGE_OP_DELETE" ? {} : { ...payload };
      let payloadJson: string;
      switch (r.payloadTwist) {
        case "hostile-column":
          if (hostile) {
            const column = hostile.kind.split("=")[0] as string;
            body[column] = hostile.value;
            kinds.push(`payload.${hostile.kind}`);
          }
          payloadJson = jsonText(body);
          break;
        case "unknown-column":
          body.no_such_column = 1;
          kinds.push("payload=unknown-column");
          payloadJson = jsonText(body);
          break;
        case "forbidden-column":
          body[pick(["organization_id", "clock", "deleted", "scope_id"], r.hostileSeed)] =
            p.other.organization?.[0] ?? "x";
          kinds.push("payload=forbidden-column");
          payloadJson = jsonText(body);
          break;
        case "proto-keys":
          kinds.push("payload=proto-keys");
          payloadJson = jsonText({ ...body, ...protoKeys() });
          break;
        case "not-json":
          kinds.push("payload=not-json");
          payloadJson = "{name: 'x'";
          break;
        case "not-object":
          payloadJson = pick(["null", "[]", "1", '"x"', "true", ""], r.hostileSeed);
          kinds.push(`payload=${JSON.stringify(payloadJson)}`);
          break;
        case "deep":
          kinds.push("payload=deep-1000");
          payloadJson = jsonText({ ...body, note: deepObject(1000) });
          break;
        case "huge":
          kinds.push("payload=1MB-text");
          payloadJson = jsonText({ ...body, note: "z".repeat(1_000_000) });
          break;
        case "truncated": {
          const full = jsonText(body);
          payloadJson = full.slice(0, Math.max(0, full.length - 1 - (r.hostileSeed % 5)));
          kinds.push("payload=truncated");
          break;
        }
        default:
          payloadJson = jsonText(body);
      }
      let hlc: string = hlcNow(r.counter);
      if (r.hlc >= 0) {
        const [k, make] = hostileHlcs[r.hlc] as readonly [string, () => string];
        hlc = make();
        kinds.push(k);
      }
      if (r.author !== "") kinds.push("authorId=set");
      return {
        json: {
          entity,
          entityId,
          scopeId,
          op: r.op,
          payloadJson,
          hlc,
          ...(r.author === "" ? {} : { authorId: r.author }),
        },
        kind: kinds.join(" "),
      };
    });
}

/** A Push batch: usually a few changes, sometimes none or 1,200. */
export function forgedBatch(p: Pools): fc.Arbitrary<Tagged> {
  return fc.oneof(
    {
      weight: 20,
      arbitrary: fc.array(forgedChange(p), { minLength: 1, maxLength: 4 }).map((cs) => ({
        value: cs.map((c) => c.json),
        kind: cs
          .map((c, i) => (c.kind ? `[${i}] ${c.kind}` : ""))
          .filter((k) => k !== "")
          .join("; "),
      })),
    },
    { weight: 1, arbitrary: fc.constant({ value: [], kind: "empty-batch" }) },
    {
      weight: 1,
      // (Of a change with a small payload: 1,200 copies of a 1 MB one would be 1.2 GB.)
      arbitrary: forgedChange(p)
        .filter((c) => String(c.json.payloadJson).length <= 2_000)
        .map((c) => ({
          value: Array.from({ length: 1200 }, (_, i) => ({
            ...c.json,
            entityId: `${String(c.json.entityId).slice(0, 80)}-${i}`,
          })),
          kind: `1200-changes ${c.kind}`.trim(),
        })),
    },
  );
}

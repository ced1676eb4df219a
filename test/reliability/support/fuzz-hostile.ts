/**
 * Hostile values for one field, chosen by its type from the descriptor: NUL, lone surrogates,
 * 10,001 characters and 100 kB, other tenants' ids, huge and non-finite numbers as numbers and
 * as strings, unknown enum names and numbers, impossible and malformed times, wrong JSON types,
 * 1000-deep nesting and `__proto__` keys. The sweep gives every field the kinds the issue names;
 * the random cases draw from all of them.
 */
import { type DescField, ScalarType } from "@bufbuild/protobuf";
import fc from "fast-check";
import {
  allIds,
  choose,
  deepArray,
  deepObject,
  hintOf,
  idEntity,
  type Pools,
  protoKeys,
  Raw,
  type Tagged,
  tagged,
} from "./fuzz-values.ts";

const long10k = "x".repeat(10_001);
const long100k = "y".repeat(100_000);

/** Hostile strings, built around `base` (a real id for id fields). */
function hostileStrings(base: string): (readonly [string, unknown])[] {
  return [
    ["nul", `${base}\u0000`],
    ["nul-only", "\u0000"],
    ["nul-inside", `a\u0000b${base}`],
    ["lone-high-surrogate", `${base}\ud800`],
    ["lone-low-surrogate", "\udc00x"],
    ["long-10001", long10k],
    ["long-100k", long100k],
    ["blank", "   "],
    ["control-chars", "\u0001\u0007\u001b[31m\u007f"],
    ["bidi-override", `\u202e${base}`],
    ["sql", "' or 1=1; drop table hives; --"],
    ["like-wildcards", "%_%"],
    ["path", "../../etc/passwd"],
    ["emoji", "🐝".repeat(40)],
    ["id-101-chars", "a".repeat(101)],
    ["uppercase", base.toUpperCase()],
    ["padded", ` ${base} `],
    ["newlines", "a\nb\r\nc"],
    ["backslashes", "\\\\\\"],
    ["digits-huge", "99999999999999999999999"],
    ["negative-digits", "-1"],
    ["non-bmp", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢"],
  ];
}

const intHostile: (readonly [string, unknown])[] = [
  ["int32-overflow", 2_147_483_648],
  ["int32-underflow", -2_147_483_649],
  ["int32-max", 2_147_483_647],
  ["int32-min", -2_147_483_648],
  ["negative", -1],
  ["fraction", 1.5],
  ["raw-1e400", new Raw("1e400")],
  ["raw-huge-integer", new Raw("99999999999999999999999")],
  ["raw-2^53+1", new Raw("9007199254740993")],
  ["raw-negative-zero", new Raw("-0")],
  ["string-1e400", "1e400"],
  ["string-NaN", "NaN"],
  ["string-Infinity", "Infinity"],
  ["string-huge", "99999999999999999999999"],
  ["string-hex", "0x10"],
  ["string-empty", ""],
  ["string-padded", " 1 "],
  ["string-exponent", "1e3"],
];

const doubleHostile: (readonly [string, unknown])[] = [
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["-Infinity", "-Infinity"],
  ["raw-1e400", new Raw("1e400")],
  ["raw--1e400", new Raw("-1e400")],
  ["max-double", 1.7976931348623157e308],
  ["min-double", -1.7976931348623157e308],
  ["subnormal", 5e-324],
  ["string-1e400", "1e400"],
  ["string-hex", "0x1p3"],
  ["string-empty", ""],
  ["raw-negative-zero", new Raw("-0")],
  ["negative", -12.5],
  ["huge", 1e300],
];

const boolHostile: (readonly [string, unknown])[] = [
  ["string-true", "true"],
  ["one", 1],
  ["string-yes", "yes"],
];

/** Impossible or out-of-range RFC 3339 times and other shapes of time. */
export const timestampHostile: (readonly [string, unknown])[] = [
  ["feb-30", "2026-02-30T00:00:00Z"],
  ["apr-31", "2026-04-31T12:00:00Z"],
  ["feb-29-not-leap", "2025-02-29T08:00:00Z"],
  ["hour-24", "2026-01-01T24:00:00Z"],
  ["month-13", "2026-13-01T00:00:00Z"],
  ["second-60", "2026-01-01T00:00:60Z"],
  ["minute-60", "2026-01-01T00:60:00Z"],
  ["no-zone", "2026-01-01T00:00:00"],
  ["date-only", "2026-01-01"],
  ["year-0", "0000-01-01T00:00:00Z"],
  ["year-9999", "9999-12-31T23:59:59Z"],
  ["year-10000", "10000-01-01T00:00:00Z"],
  ["negative-year", "-0001-01-01T00:00:00Z"],
  ["before-1970", "1969-12-31T23:59:59.999999999Z"],
  ["ten-fraction-digits", "2026-01-01T00:00:00.1234567891Z"],
  ["offset-25h", "2026-01-01T00:00:00+25:00"],
  ["offset", "2026-06-01T12:00:00+02:00"],
  ["lowercase", "2026-01-01t00:00:00z"],
  ["space-separator", "2026-01-01 00:00:00Z"],
  ["nul", "2026-01-01T00:00:00\u0000Z"],
  ["garbage", "yesterday"],
  ["empty", ""],
  ["number", 1_767_225_600],
  ["object-seconds", { seconds: "1767225600", nanos: 5 }],
  ["epoch", "1970-01-01T00:00:00Z"],
];

const wrongTypes: (readonly [string, unknown])[] = [
  ["null", null],
  ["bool", true],
  ["number", 12],
  ["string", "str"],
  ["array", [1, "a"]],
  ["object", { a: 1 }],
];

const nested: (readonly [string, () => unknown])[] = [
  ["deep-object-1000", () => deepObject(1000)],
  ["deep-array-1000", () => deepArray(1000)],
  ["proto-keys", protoKeys],
];

/** Hostile values for a field, chosen by its type. */
export function hostileValue(
  p: Pools,
  field: DescField,
  serviceName: string,
): fc.Arbitrary<Tagged> {
  const base =
    hintOf(field) === "id"
      ? ((p.own[idEntity(field, serviceName) ?? ""] ?? allIds(p.own))[0] ?? "x")
      : "x";
  const generic = fc.oneof(
    choose(wrongTypes),
    fc.constantFrom(...nested).map(([k, make]) => tagged(k, make())),
  );
  const byType = ((): fc.Arbitrary<Tagged> => {
    switch (field.fieldKind) {
      case "scalar":
        switch (field.scalar) {
          case ScalarType.STRING:
            return choose(hostileStrings(base));
          case ScalarType.BOOL:
            return choose(boolHostile);
          case ScalarType.DOUBLE:
          case ScalarType.FLOAT:
            return choose(doubleHostile);
          case ScalarType.BYTES:
            return choose([
              ["bad-base64", "***"],
              ["huge-base64", "A".repeat(100_000)],
            ]);
          default:
            return choose(intHostile);
        }
      case "enum": {
        const names = field.enum.values.map((v) => v.name);
        return choose([
          ["unknown-name", "NOT_A_VALUE"],
          ["lowercase-name", (names[1] ?? names[0] ?? "x").toLowerCase()],
          ["unknown-number", 99_999],
          ["unknown-small-number", 7],
          ["negative-number", -1],
          ["int32-overflow", 2_147_483_648],
          ["string-number", "1"],
          ["fraction", 1.5],
          ["other-enum-name", "ROLE_OWNER"],
          ["unspecified", names[0] ?? ""],
        ]);
      }
      case "message":
        if (field.message.typeName === "google.protobuf.Timestamp") {
          return choose(timestampHostile);
        }
        return choose([
          ["array", []],
          ["string", "x"],
          ["unknown-fields", { nope: 1, alsoNope: { x: [1] } }],
        ]);
      case "list":
        return fc.oneof(
          choose([
            ["not-an-array", "x"],
            ["object", {}],
            ["nulls", [null, null]],
            ["nested-arrays", [[1], [[2]]]],
          ]),
          fc.constant(
            tagged(
              "5000-elements",
              Array.from({ length: 5000 }, () => ""),
            ),
          ),
        );
      default:
        return choose(wrongTypes);
    }
  })();
  return fc.oneof({ weight: 4, arbitrary: byType }, { weight: 1, arbitrary: generic });
}

/**
 * The hostile values every field gets in the sweep (before the random cases): the kinds the
 * issue names, one request each, so that no field goes without them whatever the seed.
 */
export function sweepValues(p: Pools, field: DescField, serviceName: string): Tagged[] {
  const from = (table: readonly (readonly [string, unknown])[], names: readonly string[]) =>
    table.filter(([k]) => names.includes(k)).map(([k, v]) => tagged(k, v));
  switch (field.fieldKind) {
    case "scalar":
      switch (field.scalar) {
        case ScalarType.STRING: {
          const isId = hintOf(field) === "id";
          const base = isId
            ? ((p.own[idEntity(field, serviceName) ?? ""] ?? allIds(p.own))[0] ?? "x")
            : "x";
          const other = isId
            ? (p.other[idEntity(field, serviceName) ?? ""] ?? allIds(p.other))[0]
            : undefined;
          return [
            ...from(hostileStrings(base), [
              "nul",
              "lone-high-surrogate",
              "long-10001",
              "long-100k",
            ]),
            ...(other ? [tagged("other-tenant-id", other)] : []),
            tagged("number", 12),
          ];
        }
        case ScalarType.BOOL:
          return from(boolHostile, ["string-yes"]);
        case ScalarType.DOUBLE:
        case ScalarType.FLOAT:
          return from(doubleHostile, ["NaN", "Infinity", "raw-1e400", "max-double"]);
        case ScalarType.BYTES:
          return [];
        default:
          return from(intHostile, ["int32-overflow", "raw-1e400", "string-NaN", "negative"]);
      }
    case "enum":
      return [tagged("unknown-name", "NOT_A_VALUE"), tagged("unknown-number", 99_999)];
    case "message":
      if (field.message.typeName === "google.protobuf.Timestamp") {
        return from(timestampHostile, ["feb-30", "apr-31", "hour-24", "year-10000", "no-zone"]);
      }
      return [tagged("deep-object-1000", deepObject(1000)), tagged("proto-keys", protoKeys())];
    case "list":
      return [tagged("not-an-array", "x"), tagged("nulls", [null, null])];
    default:
      return [];
  }
}

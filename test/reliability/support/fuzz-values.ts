/**
 * Field values for the fuzz suite, derived from the proto descriptors: for every field of a
 * request message, values a real client would send (real ids of the caller's records, names,
 * dates, enum names); the hostile ones are in fuzz-hostile.ts.
 *
 * A value is tagged with what it is (`kind`), so a failure reads "name=nul" and not a dump.
 * Raw JSON text (numbers like 1e400 that JavaScript cannot hold) is kept as `Raw`, written by
 * `jsonText`.
 */
import { type DescField, type DescMessage, ScalarType } from "@bufbuild/protobuf";
import { entityNames } from "@hivekeep/client-core/core";
import fc from "fast-check";

/** JSON text to be written as is. */
export class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify that writes `Raw` as is and keeps own `__proto__` keys. */
export function jsonText(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return `[${v.map(jsonText).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .map((k) => `${JSON.stringify(k)}:${jsonText(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** An object with own `__proto__`, `constructor` and `prototype` keys (as JSON.parse makes). */
export const protoKeys = (): Record<string, unknown> =>
  JSON.parse(
    '{"__proto__":{"polluted":true,"isAdmin":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"x":1}}',
  );

export const deepObject = (depth: number): Raw =>
  new Raw(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
export const deepArray = (depth: number): Raw =>
  new Raw(`${"[".repeat(depth)}${"]".repeat(depth)}`);

export interface Tagged {
  readonly value: unknown;
  /** "" for an ordinary value; otherwise what is unusual about it ("nul", "other-id", …). */
  readonly kind: string;
}

const plain = (value: unknown): Tagged => ({ value, kind: "" });
export const tagged = (kind: string, value: unknown): Tagged => ({ value, kind });
export const choose = (pairs: readonly (readonly [string, unknown])[]): fc.Arbitrary<Tagged> =>
  fc.constantFrom(...pairs).map(([k, v]) => tagged(k, v));

/** What the generators know of the world: ids, photos, emails of both tenants. */
export interface Pools {
  /** The caller's ids by entity (apiary, hive, …, user, organization, apiKey). */
  readonly own: Readonly<Record<string, readonly string[]>>;
  /** The other tenant's ids by entity. */
  readonly other: Readonly<Record<string, readonly string[]>>;
  readonly ownPhotos: readonly string[];
  readonly otherPhotos: readonly string[];
  readonly ownEmails: readonly string[];
  readonly otherEmails: readonly string[];
  readonly ownInvitations: readonly string[];
  readonly otherInvitations: readonly string[];
  readonly password: string;
  /** The caller's user id and the other user of the caller's organization. */
  readonly userId: string;
  readonly peerUserId: string;
  readonly otherUserId: string;
  /** The apiary each hive of the caller stands at (when the world was built). */
  readonly hiveApiary: Readonly<Record<string, string>>;
}

export const allIds = (byEntity: Readonly<Record<string, readonly string[]>>): string[] =>
  Object.values(byEntity).flat();

// ---- what a string field holds, by its name -------------------------------------------------

export type Hint =
  | "id"
  | "cursor"
  | "pageToken"
  | "email"
  | "password"
  | "token"
  | "photo"
  | "payload"
  | "hlc"
  | "entity"
  | "scope"
  | "text";

export function hintOf(field: DescField): Hint {
  const n = field.name;
  if (n === "cursor") return "cursor";
  if (n === "page_token") return "pageToken";
  if (n.endsWith("email")) return "email";
  if (n === "password") return "password";
  if (n.endsWith("token")) return "token";
  if (n.includes("photo")) return "photo";
  if (n === "payload_json") return "payload";
  if (n === "hlc" || n.endsWith("_hlc")) return "hlc";
  if (n === "entity") return "entity";
  if (n === "scope_id") return "scope";
  if (n === "id" || n.endsWith("_id")) return "id";
  return "text";
}

/** Every entity of the registry is a record an id can point at. */
const recordEntities: readonly string[] = entityNames;

/** The entity an id field points at: `hive_id` a hive; `id` the message's or service's own. */
export function idEntity(field: DescField, serviceName: string): string | undefined {
  const n = field.name;
  if (n === "id") {
    const own = field.parent.name.toLowerCase();
    if (recordEntities.includes(own)) return own;
    if (serviceName === "AuthService") return "apiKey";
    const fromService = serviceName.replace(/Service$/, "").toLowerCase();
    return recordEntities.includes(fromService) ? fromService : undefined;
  }
  const base = n.slice(0, -3).replace(/^target_/, "");
  if (base === "entity" || base === "author") return undefined;
  return base;
}

/** Values a client would send for an id field: the caller's own, sometimes the other tenant's. */
export function idValue(p: Pools, entity: string | undefined): fc.Arbitrary<Tagged> {
  const own = (entity && p.own[entity]?.length ? p.own[entity] : allIds(p.own)) as string[];
  const other = (entity && p.other[entity]?.length ? p.other[entity] : allIds(p.other)) as string[];
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...own).map(plain) },
    { weight: 3, arbitrary: fc.constantFrom(...other).map((v) => tagged("other-tenant-id", v)) },
    { weight: 1, arbitrary: fc.uuid({ version: 7 }).map((v) => tagged("unknown-id", v)) },
    { weight: 1, arbitrary: fc.constantFrom(...allIds(p.own)).map((v) => tagged("any-own-id", v)) },
    { weight: 1, arbitrary: fc.constant(tagged("empty", "")) },
  );
}

const words = fc.constantFrom("Hive 7", "Apiary north", "Bees", "Lindenblüte", "Königin", "a");
const shortText = fc.oneof(
  { weight: 3, arbitrary: words },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
);

/** An RFC 3339 time a client would send: within a few years around now. */
export const validTimestamp = fc
  .integer({ min: Date.UTC(2020, 0, 1), max: Date.now() + 365 * 86_400_000 })
  .map((ms) => new Date(ms).toISOString());

/** A time within the last minute or the next few seconds (after anything the world made). */
export const recentTimestamp = fc
  .integer({ min: -60_000, max: 5_000 })
  .map((offset) => new Date(Date.now() + offset).toISOString());

/** The range of plausible numbers for a field, by its name. */
function rangeOf(name: string): readonly [number, number] {
  const ranges: (readonly [RegExp, number, number])[] = [
    [/^lat$/, -60, 70],
    [/^lng$/, -170, 170],
    [/year/, 2020, 2026],
    [/humidity|water_content/, 10, 90],
    [/temp/, -5, 35],
    [/weight|amount/, 0.5, 60],
    [/boxes|frames/, 1, 10],
    [/calmness|queen_cells/, 0, 5],
    [/threshold_days/, 1, 60],
    [/page_size|limit/, 1, 100],
  ];
  const hit = ranges.find(([re]) => re.test(name));
  return hit ? [hit[1], hit[2]] : [0, 10];
}

/** Valid-looking strings, by what the field holds. */
export function validString(p: Pools, field: DescField, serviceName: string): fc.Arbitrary<Tagged> {
  switch (hintOf(field)) {
    case "id":
      return idValue(p, idEntity(field, serviceName));
    case "cursor":
      return fc.oneof(
        fc.constant(plain("")),
        fc.integer({ min: 0, max: 40 }).map((n) => plain(String(n))),
      );
    case "pageToken":
      return fc.oneof(
        fc.constant(plain("")),
        fc.integer({ min: 0, max: 60 }).map((n) => plain(String(n))),
      );
    case "email":
      return fc.oneof(
        fc.constantFrom(...p.ownEmails).map(plain),
        fc.constantFrom(...p.otherEmails).map((v) => tagged("other-tenant-email", v)),
        fc.uuid().map((u) => plain(`fuzz-${u.slice(0, 8)}@example.org`)),
      );
    case "password":
      return fc.oneof(
        fc.constant(plain(p.password)),
        fc.constant(tagged("wrong-password", "wrong horse battery")),
      );
    case "token":
      return fc.oneof(
        fc.constantFrom(...p.ownInvitations).map(plain),
        fc.constantFrom(...p.otherInvitations).map((v) => tagged("other-tenant-invitation", v)),
        fc.constant(plain("")),
      );
    case "photo":
      return fc.oneof(
        fc.constantFrom(...p.ownPhotos).map(plain),
        fc
          .string({ maxLength: 16 })
          .map((s) => plain(`data:image/png;base64,${Buffer.from(s).toString("base64")}`)),
        fc.constantFrom(...p.otherPhotos).map((v) => tagged("other-tenant-photo", v)),
      );
    default:
      return shortText.map(plain);
  }
}

// ---- whole messages --------------------------------------------------------------------------

/** A field of a message, or of a message it holds (for nested requests such as UpdateHive). */
export interface Leaf {
  /** JSON names from the request down to the field. */
  readonly path: readonly string[];
  readonly field: DescField;
}

/** Every field of the message and of the messages it holds, down to `depth` levels. */
export function leavesOf(msg: DescMessage, depth = 2, prefix: readonly string[] = []): Leaf[] {
  const out: Leaf[] = [];
  for (const field of msg.fields) {
    const path = [...prefix, field.jsonName];
    out.push({ path, field });
    if (
      field.fieldKind === "message" &&
      field.message.typeName !== "google.protobuf.Timestamp" &&
      depth > 1
    ) {
      out.push(...leavesOf(field.message, depth - 1, path));
    }
  }
  return out;
}

export type Special = (field: DescField) => fc.Arbitrary<Tagged> | undefined;

/** A valid-looking value for one field. */
export function validValue(
  p: Pools,
  field: DescField,
  serviceName: string,
  special: Special,
  depth = 0,
): fc.Arbitrary<Tagged> {
  const own = special(field);
  if (own) return own;
  switch (field.fieldKind) {
    case "scalar":
      switch (field.scalar) {
        case ScalarType.STRING:
          return validString(p, field, serviceName);
        case ScalarType.BOOL:
          return fc.boolean().map(plain);
        case ScalarType.DOUBLE:
        case ScalarType.FLOAT: {
          const [min, max] = rangeOf(field.name);
          return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map(plain);
        }
        case ScalarType.BYTES:
          return fc
            .uint8Array({ maxLength: 8 })
            .map((b) => plain(Buffer.from(b).toString("base64")));
        default: {
          const [min, max] = rangeOf(field.name);
          return fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).map(plain);
        }
      }
    case "enum": {
      const names = field.enum.values.map((v) => v.name);
      const specified = names.filter((n) => !n.endsWith("_UNSPECIFIED"));
      return fc
        .oneof(
          { weight: 6, arbitrary: fc.constantFrom(...(specified.length ? specified : names)) },
          { weight: 1, arbitrary: fc.constantFrom(...names) },
        )
        .map(plain);
    }
    case "message":
      if (field.message.typeName === "google.protobuf.Timestamp") {
        return fc.oneof(recentTimestamp, validTimestamp).map(plain);
      }
      if (depth > 2) return fc.constant(plain({}));
      return validObject(p, field.message, serviceName, special, depth + 1).map((o) => ({
        value: o.value,
        kind: o.labels.join(","),
      }));
    case "list": {
      const element: fc.Arbitrary<Tagged> =
        field.listKind === "message"
          ? (special(field) ??
            validObject(p, field.message, serviceName, special, depth + 1).map((o) => ({
              value: o.value,
              kind: o.labels.join(","),
            })))
          : field.listKind === "enum"
            ? fc.constantFrom(...field.enum.values.map((v) => v.name)).map(plain)
            : shortText.map(plain);
      return fc.array(element, { maxLength: 3 }).map((els) => ({
        value: els.map((e) => e.value),
        kind: [...new Set(els.map((e) => e.kind).filter((k) => k !== ""))].join(","),
      }));
    }
    default:
      return fc.constant(plain({}));
  }
}

export interface GeneratedObject {
  readonly value: Record<string, unknown>;
  /** `field=kind` of every unusual value in it. */
  readonly labels: string[];
}

/** A valid-looking message: most fields set (by JSON name), some left out. */
export function validObject(
  p: Pools,
  msg: DescMessage,
  serviceName: string,
  special: Special,
  depth = 0,
): fc.Arbitrary<GeneratedObject> {
  if (msg.fields.length === 0) return fc.constant({ value: {}, labels: [] });
  const fields = msg.fields.map((f) =>
    fc.option(validValue(p, f, serviceName, special, depth), { freq: 4, nil: undefined }),
  );
  return fc.tuple(...fields).map((values) => {
    const value: Record<string, unknown> = {};
    const labels: string[] = [];
    values.forEach((v, i) => {
      const f = msg.fields[i] as DescField;
      if (v === undefined) return;
      value[f.jsonName] = v.value;
      if (v.kind !== "") labels.push(`${f.jsonName}=${v.kind}`);
    });
    return { value, labels };
  });
}

/** Sets a value at a path of JSON names, creating the objects on the way. */
export function setPath(
  obj: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): void {
  let at = obj;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== "object" || next === null || Array.isArray(next) || next instanceof Raw) {
      at[key] = {};
    }
    at = at[key] as Record<string, unknown>;
  }
  at[path[path.length - 1] as string] = value;
}

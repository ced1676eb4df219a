/**
 * The value rules of one payload column, by its `ColumnSpec` (entities.ts). Pure and
 * stateless: what a value must look like, whatever row it goes to. Used by the Push
 * validator (validate-change.ts) on every column of every pushed change.
 *
 * | type      | accepted value                                                          |
 * |-----------|-------------------------------------------------------------------------|
 * | text      | string, storable (see utf8.ts), at most 10 000 UTF-16 code units; a     |
 * |           | column with `elementPrefix` holds a data URL instead (see below)        |
 * | float     | finite number (`1e400` parses to Infinity and is refused); -0 becomes 0 |
 * | int       | integer in the int32 range; -0 becomes 0                                |
 * | bool      | boolean                                                                 |
 * | enum      | integer, 0 or one of `enumValues`                                       |
 * | timestamp | null, or RFC 3339 with a zone, normalised to `toISOString()`            |
 * | id        | "" (none) or 1–100 of [A-Za-z0-9_-] (UUIDs included)                    |
 * | orset     | an `OrSetPatch` (or-set.ts); each added element obeys the element rules |
 *
 * Column rules: `nonEmpty` text is not blank (after trimming); `positive` numbers are > 0.
 * A required column (`EntitySpec.required`) that is present must hold a value: text not blank,
 * id not "", timestamp not null. Element rules (`elementPrefix`, `elementMaxBytes`): the
 * element starts with the prefix and its UTF-8 encoding, prefix included, is at most that many
 * bytes; the same rules apply to a text column that declares them, where "" means "none".
 * An orset column with `maxElements` takes a patch adding at most that many elements here, and
 * holds at most that many distinct elements: `elementCountError`, which needs the stored set
 * (Push's check phase and the RPC commands both call it).
 */
import type { ColumnSpec } from "./entities.ts";
import { type OrSetPatch, type OrSetState, orSetValues, parseOrSetPatch } from "./or-set.ts";
import { parseRfc3339 } from "./rfc3339.ts";
import { isStorableText, utf8ByteLength } from "./utf8.ts";

export const maxTextLength = 10_000;
export const maxIdLength = 100;
export const minInt32 = -2_147_483_648;
export const maxInt32 = 2_147_483_647;

const idPattern = new RegExp(`^[A-Za-z0-9_-]{1,${maxIdLength}}$`);

/** An entity id: 1–100 of [A-Za-z0-9_-], which covers UUIDs. */
export const isEntityId = (s: string): boolean => idPattern.test(s);

type Parsed = { value: unknown } | { error: string };

/**
 * Checks one payload value against its column. The error is a phrase to follow the column's
 * name ("must be a boolean"); the value may be normalised (timestamps, -0).
 */
export function parseColumnValue(spec: ColumnSpec, value: unknown, required: boolean): Parsed {
  switch (spec.type) {
    case "text":
      return parseText(spec, value, required);
    case "float": {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        return { error: "must be a finite number" };
      }
      return positive(spec, value);
    }
    case "int": {
      if (typeof value !== "number" || !Number.isInteger(value)) {
        return { error: "must be an integer" };
      }
      if (value < minInt32 || value > maxInt32) {
        return { error: `must be an integer between ${minInt32} and ${maxInt32}` };
      }
      return positive(spec, value);
    }
    case "bool":
      return typeof value === "boolean" ? { value } : { error: "must be a boolean" };
    case "enum": {
      const allowed = spec.enumValues ?? [];
      if (typeof value !== "number" || !(value === 0 || allowed.includes(value))) {
        return { error: `must be one of the enum numbers 0, ${allowed.join(", ")}` };
      }
      return { value: value + 0 };
    }
    case "timestamp": {
      if (value === null) {
        return required ? { error: "is required and cannot be null" } : { value: null };
      }
      if (typeof value !== "string") return { error: "must be null or an RFC 3339 string" };
      return parseRfc3339(value);
    }
    case "id": {
      if (typeof value !== "string") return { error: "must be a string id" };
      if (value === "") return required ? { error: "is required and cannot be empty" } : { value };
      return isEntityId(value)
        ? { value }
        : { error: `must be "" or 1-${maxIdLength} characters of [A-Za-z0-9_-]` };
    }
    case "orset":
      return parseOrSet(spec, value);
  }
}

/** Normalises -0 to 0 (JSON cannot tell them apart, so replicas would disagree on Object.is). */
function positive(spec: ColumnSpec, value: number): Parsed {
  if (spec.positive && !(value > 0)) return { error: "must be greater than 0" };
  return { value: value + 0 };
}

function parseText(spec: ColumnSpec, value: unknown, required: boolean): Parsed {
  if (typeof value !== "string") return { error: "must be a string" };
  if (!isStorableText(value)) {
    return { error: "must be well-formed Unicode text without U+0000" };
  }
  if (spec.elementPrefix !== undefined) {
    if (value === "" && !required) return { value };
    const error = elementError(spec, value);
    return error === undefined ? { value } : { error };
  }
  if (value.length > maxTextLength) {
    return { error: `must be at most ${maxTextLength} characters (has ${value.length})` };
  }
  if ((spec.nonEmpty || required) && value.trim() === "") {
    return { error: "is required and cannot be blank" };
  }
  return { value };
}

function parseOrSet(spec: ColumnSpec, value: unknown): Parsed {
  const parsed = parseOrSetPatch(value);
  if ("error" in parsed) return { error: `must be an OR-set patch: ${parsed.error}` };
  const adds = parsed.value.add?.length ?? 0;
  if (spec.maxElements !== undefined && adds > spec.maxElements) {
    return { error: `holds at most ${spec.maxElements} elements (the patch adds ${adds})` };
  }
  for (const [i, element] of (parsed.value.add ?? []).entries()) {
    const error = isStorableText(element)
      ? elementError(spec, element)
      : "must be well-formed Unicode text without U+0000";
    if (error !== undefined) return { error: `add[${i}] ${error}` };
  }
  return parsed;
}

/** The element rules: prefix, and size in UTF-8 bytes including the prefix. */
function elementError(spec: ColumnSpec, element: string): string | undefined {
  const prefix = spec.elementPrefix ?? "";
  if (!element.startsWith(prefix)) return `must start with ${JSON.stringify(prefix)}`;
  const max = spec.elementMaxBytes;
  if (max === undefined) {
    return element.length > maxTextLength
      ? `must be at most ${maxTextLength} characters`
      : undefined;
  }
  const bytes = utf8ByteLength(element);
  return bytes > max
    ? `must be at most ${max} bytes including the prefix (has ${bytes})`
    : undefined;
}

/**
 * The element count rule of an orset column with `maxElements`: after `patch`, the set may hold
 * at most that many distinct elements, unless the patch does not make it hold more than before
 * (a removal, or an add of an element it holds, is always accepted). `before` is the stored set
 * (undefined: none). The error is a phrase to follow the column's name.
 */
export function elementCountError(
  spec: ColumnSpec,
  before: OrSetState | undefined,
  patch: OrSetPatch,
): string | undefined {
  const max = spec.maxElements;
  if (max === undefined) return undefined;
  const removed = new Set(patch.remove ?? []);
  const held = before ? orSetValues(before) : [];
  const after = new Set(before?.adds.filter((a) => !removed.has(a.tag)).map((a) => a.value));
  for (const value of patch.add ?? []) after.add(value);
  return after.size > max && after.size > held.length
    ? `holds at most ${max} elements (would hold ${after.size})`
    : undefined;
}

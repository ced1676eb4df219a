/**
 * The value rules of one payload column, by its `ColumnSpec` (entities.ts). Pure and
 * stateless: what a value must look like, whatever row it goes to. Used by the Push
 * validator (validate-change.ts) on every column of every pushed change.
 *
 * | type      | accepted value                                                          |
 * |-----------|-------------------------------------------------------------------------|
 * | text      | string, storable (see utf8.ts), at most `maxLength` (10 000) UTF-16     |
 * |           | code units; a column with `elementPrefix` holds a data URL (see below)  |
 * | float     | finite number (`1e400` parses to Infinity and is refused); -0 becomes 0 |
 * | int       | integer in the int32 range; -0 becomes 0                                |
 * |           | (a number of either type then obeys the column's number rules, below)   |
 * | bool      | boolean                                                                 |
 * | enum      | integer, 0 or one of `enumValues`                                       |
 * | timestamp | null, or RFC 3339 with a zone, normalised to `toISOString()`            |
 * | id        | "" (none) or 1–100 of [A-Za-z0-9_-] (UUIDs included)                    |
 * | orset     | an `OrSetPatch` (or-set.ts); each added element obeys the element rules |
 *
 * Column rules: `nonEmpty` text is not blank (after trimming). Number rules (`numberRuleBreak`):
 * `positive` numbers are > 0, and every number lies within the column's `min` … `max`. These
 * are the value rules of the whole app, in one place: the commands check their inputs with
 * them (payload-check.ts), Push checks every pushed value with them (validate-change.ts), the
 * device runs the same commands, and the app's number fields take their limits and their
 * verdict from here (`numberLimits`, `numberRuleBreak`), so a value is refused everywhere with
 * the same words. Changes pulled from the server are not checked again: what is stored stays
 * readable.
 * A required column (`EntitySpec.required`) that is present must hold a value: text not blank,
 * id not "", timestamp not null. Element rules (`elementPrefix`, `elementMaxBytes`): the
 * element starts with the prefix and its UTF-8 encoding, prefix included, is at most that many
 * bytes; the same rules apply to a text column that declares them, where "" means "none".
 * An orset column with `maxElements` takes a patch adding at most that many elements and naming
 * at most that many tags to remove here. What needs the stored set is `orSetPatchError` (Push's
 * check phase and the RPC commands both call it): a removal names only tags the set received,
 * and the set holds at most `maxElements` entries, one per add (the same element added under
 * two tags is stored twice, so it counts twice).
 */
import { type ColumnSpec, maxTextLength } from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import {
  type OrSetPatch,
  type OrSetState,
  orSetAfter,
  parseOrSetPatch,
  unreceivedTags,
} from "./or-set.ts";
import { quote } from "./quote.ts";
import { parseRfc3339 } from "./rfc3339.ts";
import { isStorableText, utf8ByteLength } from "./utf8.ts";

export { maxTextLength };
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
    case "float":
    case "int": {
      if (typeof value !== "number") return { error: numberRuleText(typeBreak(spec)) };
      const broken = numberRuleBreak(spec, value);
      // -0 becomes 0 (JSON cannot tell them apart, so replicas would disagree on Object.is).
      return broken === undefined ? { value: value + 0 } : { error: numberRuleText(broken) };
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

/**
 * A number rule a value breaks, as data: Push and the commands word it in English
 * (`numberRuleText`), the app in the reader's language.
 * - finite: a float column holds no NaN or Infinity;
 * - integer: an int column holds whole numbers within the int32 range;
 * - positive: the column's `positive` (> 0);
 * - range: outside the column's `min` … `max` (either may be absent).
 */
export type NumberRuleBreak =
  | { readonly rule: "finite" }
  | { readonly rule: "integer" }
  | { readonly rule: "int32" }
  | { readonly rule: "positive" }
  | {
      readonly rule: "range";
      readonly min?: number | undefined;
      readonly max?: number | undefined;
    };

const typeBreak = (spec: ColumnSpec): NumberRuleBreak =>
  spec.type === "int" ? { rule: "integer" } : { rule: "finite" };

/**
 * The first number rule of a "float" or "int" column that `value` breaks, in this order: its
 * type (finite; whole and int32), `positive`, then `min` … `max`. Undefined when it keeps them.
 */
export function numberRuleBreak(spec: ColumnSpec, value: number): NumberRuleBreak | undefined {
  if (spec.type === "int") {
    if (!Number.isInteger(value)) return { rule: "integer" };
    if (value < minInt32 || value > maxInt32) return { rule: "int32" };
  } else if (!Number.isFinite(value)) {
    return { rule: "finite" };
  }
  if (spec.positive && !(value > 0)) return { rule: "positive" };
  const { min, max } = spec;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    return { rule: "range", min, max };
  }
  return undefined;
}

/** The English phrase of a broken number rule, to follow the field's name. */
export function numberRuleText(broken: NumberRuleBreak): string {
  switch (broken.rule) {
    case "finite":
      return "must be a finite number";
    case "integer":
      return "must be an integer";
    case "int32":
      return `must be an integer between ${minInt32} and ${maxInt32}`;
    case "positive":
      return "must be greater than 0";
    case "range": {
      const { min, max } = broken;
      if (min !== undefined && max !== undefined) return `must be between ${min} and ${max}`;
      return min !== undefined ? `must be at least ${min}` : `must be at most ${max}`;
    }
  }
}

/**
 * What a form applies to a number field of the column: the smallest and largest value it takes
 * (a `positive` column's smallest is 0, itself refused) and the step (1 for "int", else "any").
 */
export function numberLimits(spec: ColumnSpec): {
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly step: number | "any";
} {
  const min = spec.min ?? (spec.positive ? 0 : spec.type === "int" ? minInt32 : undefined);
  const max = spec.max ?? (spec.type === "int" ? maxInt32 : undefined);
  return { min, max, step: spec.type === "int" ? 1 : "any" };
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
  const maxLength = spec.maxLength ?? maxTextLength;
  if (value.length > maxLength) {
    return { error: `must be at most ${maxLength} characters (has ${value.length})` };
  }
  if ((spec.nonEmpty || required) && value.trim() === "") {
    return { error: "is required and cannot be blank" };
  }
  return { value };
}

function parseOrSet(spec: ColumnSpec, value: unknown): Parsed {
  // The counts first, so a patch naming 100 000 tags is refused before any of them is read.
  const max = spec.maxElements;
  if (max !== undefined) {
    const adds = listLength(value, "add");
    if (adds > max) return { error: `holds at most ${max} elements (the patch adds ${adds})` };
    const removes = listLength(value, "remove");
    if (removes > max) {
      return { error: `removes at most ${max} tags at once (the patch names ${removes})` };
    }
  }
  const parsed = parseOrSetPatch(value);
  if ("error" in parsed) return { error: `must be an OR-set patch: ${parsed.error}` };
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

/** The length of `value[key]` when it is an array, else 0 (the shape is checked after). */
function listLength(value: unknown, key: string): number {
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return 0;
  const list: unknown = (value as Record<string, unknown>)[key];
  return Array.isArray(list) ? list.length : 0;
}

/**
 * The rules of an orset patch that need the stored set `before` (undefined: none), for the
 * change stamped `tag`; the error is a phrase to follow the column's name.
 * - A removal names only tags the set received (an add it holds, or one it already removed):
 *   observed-remove, so a made-up tag is refused rather than kept in `removed` for good.
 * - With `maxElements`: the set holds at most that many entries after the patch, counted as it
 *   stores them (one per tag and element: `orSetAfter`, the merge's own join), unless the
 *   patch does not make it hold more than before (a removal always passes, also on a set that
 *   already holds more).
 */
export function orSetPatchError(
  spec: ColumnSpec,
  before: OrSetState | undefined,
  patch: OrSetPatch,
  tag: Hlc,
  /** Tags that count as received besides the set's own (`CheckContext.comingBack`). */
  alsoReceived?: ReadonlySet<string>,
): string | undefined {
  const remove = patch.remove ?? [];
  const unknown = unreceivedTags(before, remove).filter((i) => !alsoReceived?.has(remove[i] ?? ""));
  const [first] = unknown;
  if (first !== undefined) {
    const more = unknown.length > 1 ? ` (and ${unknown.length - 1} more)` : "";
    return (
      `remove[${first}] ${quote(remove[first] ?? "")} is not the tag of an add this set received` +
      `${more}: a removal names only adds it observed`
    );
  }
  const max = spec.maxElements;
  if (max === undefined) return undefined;
  const held = before?.adds.length ?? 0;
  const after = orSetAfter(before, patch, tag).adds.length;
  return after > max && after > held
    ? `holds at most ${max} elements, an element added twice counting twice (would hold ${after})`
    : undefined;
}

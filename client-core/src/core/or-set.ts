/**
 * Add-wins observed-remove set of strings (OR-set), used for columns of type "orset"
 * (e.g. `inspection.photo_keys`).
 *
 * Every added element is tagged with the HLC of the change that added it. A removal names
 * the tags its writer observed, so it removes exactly those adds: an add the remover had not
 * seen (a concurrent one, necessarily with another tag) survives. Removed tags are kept for
 * good, so an add that arrives after its own removal is not resurrected.
 *
 * Invariants of a state built by this module (what makes equal states deep-equal):
 * - `adds` sorted by (tag, value), no duplicate (tag, value), no tag that is in `removed`;
 * - `removed` sorted, no duplicates.
 * `joinOrSets` is then commutative, associative and idempotent.
 */
import type { Hlc } from "./hlc.ts";
import { isHlc } from "./hlc.ts";
import { quote } from "./quote.ts";

export interface OrSetState {
  adds: { tag: Hlc; value: string }[];
  removed: Hlc[];
}

/** The value of an orset column in a change payload. */
export interface OrSetPatch {
  add?: string[];
  remove?: Hlc[];
}

export const emptyOrSet = (): OrSetState => ({ adds: [], removed: [] });

export const isEmptyOrSet = (s: OrSetState): boolean =>
  s.adds.length === 0 && s.removed.length === 0;

/**
 * Checks the shape of an orset column's payload value. Element rules of the column
 * (`elementPrefix`, `elementMaxBytes`) are the validator's, not checked here.
 */
export function parseOrSetPatch(value: unknown): { value: OrSetPatch } | { error: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: "must be an object {add?: string[], remove?: hlc[]}" };
  }
  const patch: OrSetPatch = {};
  for (const [key, v] of Object.entries(value)) {
    if (key !== "add" && key !== "remove") return { error: `unknown key ${quote(key)}` };
    if (!Array.isArray(v)) return { error: `${key} must be an array` };
    if (key === "add") {
      if (!v.every((e) => typeof e === "string")) return { error: "add must hold strings" };
      patch.add = [...v];
    } else {
      if (!v.every((e) => typeof e === "string" && isHlc(e))) {
        return { error: "remove must hold HLC tags" };
      }
      patch.remove = [...v];
    }
  }
  return { value: patch };
}

type Tagged = { tag: Hlc; value: string };

const byTagThenValue = (a: Tagged, b: Tagged): number =>
  a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : a.value < b.value ? -1 : +(a.value > b.value);

const byString = (a: string, b: string): number => (a < b ? -1 : +(a > b));

/** A sorted copy without duplicates (by `compare`). */
function sortedUnique<T>(items: readonly T[], compare: (x: T, y: T) => number): T[] {
  const sorted = [...items].sort(compare);
  return sorted.filter((item, i) => i === 0 || compare(sorted[i - 1] as T, item) !== 0);
}

/** Builds the canonical state; copies every element, so no input is ever shared. */
function normalize(adds: readonly Tagged[], removed: readonly Hlc[]): OrSetState {
  const gone = new Set(removed);
  const live = adds.filter((a) => !gone.has(a.tag)).map((a) => ({ tag: a.tag, value: a.value }));
  return { adds: sortedUnique(live, byTagThenValue), removed: sortedUnique(removed, byString) };
}

/** The state a single change's patch describes: its adds tagged with the change's HLC. */
export const orSetFromPatch = (patch: OrSetPatch, tag: Hlc): OrSetState =>
  normalize(
    (patch.add ?? []).map((value) => ({ tag, value })),
    patch.remove ?? [],
  );

/** Union of adds minus every removed tag, union of removed tags. */
export const joinOrSets = (a: OrSetState, b: OrSetState): OrSetState =>
  normalize([...a.adds, ...b.adds], [...a.removed, ...b.removed]);

/**
 * The set once a change's patch has joined it: what a replica holding `before` (undefined: no
 * set yet) stores after the change stamped `tag` merges (merge.ts joins the same way).
 */
export const orSetAfter = (
  before: OrSetState | undefined,
  patch: OrSetPatch,
  tag: Hlc,
): OrSetState => joinOrSets(before ?? emptyOrSet(), orSetFromPatch(patch, tag));

/**
 * The indexes in `remove` of the tags `state` never received: neither the tag of an add it holds
 * nor one it has removed. A removal names adds its writer observed, and an add reaches a replica
 * before anything that observed it (a device pushes its outbox in order and pulls the feed in
 * order), so such a tag is made up; kept, it would grow `removed` for good.
 */
export function unreceivedTags(state: OrSetState | undefined, remove: readonly Hlc[]): number[] {
  if (remove.length === 0) return [];
  const known = new Set<string>(state?.removed);
  for (const a of state?.adds ?? []) known.add(a.tag);
  return remove.flatMap((tag, i) => (known.has(tag) ? [] : [i]));
}

/**
 * The elements, each once, in the order they were first added (smallest live tag, then value).
 * A value added twice concurrently has two tags; it is listed once and removing it needs both
 * (see `orSetTags`).
 */
export function orSetValues(state: OrSetState): string[] {
  return [...new Set(state.adds.map((a) => a.value))];
}

/** The live tags of `value`: what a removal of `value` must name to observe all of its adds. */
export const orSetTags = (state: OrSetState, value: string): Hlc[] =>
  state.adds.filter((a) => a.value === value).map((a) => a.tag);

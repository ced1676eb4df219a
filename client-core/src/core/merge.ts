/**
 * The merge rule of replicated rows, the same on the server and on every device (DESIGN.md §4).
 *
 * A row's state is a join-semilattice: `mergeRows` is commutative, associative and idempotent,
 * so replicas that have received the same changes, in any order and with any duplicates, hold
 * deep-equal states. `applyChange` is `mergeRows` with the state of one change, plus a report
 * of what the change contributed; it is built on `mergeRows`, so the two cannot drift.
 *
 * - Scalar columns: per-column last-writer-wins on the HLC in `clock[column]`. A value is taken
 *   only if its stamp is strictly greater (equal = already have it, so re-delivery is a no-op).
 *   Equal stamps with different values can only come from a misbehaving client; the greater
 *   `JSON.stringify` of the value wins so the merge still does not depend on order.
 * - OrSet columns: see or-set.ts. They have no entry in `clock`; their tags are their stamps.
 * - Delete: sets `deleted` and `clock._deleted` (the greatest delete stamp). Never undone:
 *   later writes still merge into the columns, so tombstones converge too.
 * - A change for a row never seen is kept as a row with only its columns (see `isComplete`).
 *
 * Values are JSON values; nothing here mutates its inputs or returns objects shared with them.
 */
import type { EntitySpec } from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import type { OrSetPatch, OrSetState } from "./or-set.ts";
import { emptyOrSet, isEmptyOrSet, joinOrSets, orSetFromPatch, parseOrSetPatch } from "./or-set.ts";

/**
 * snake_case column → value. An orset column holds an `OrSetState` in a row, a patch in a
 * change.
 */
export type Values = Record<string, unknown>;

export interface RowState {
  values: Values;
  /** One stamp per scalar column present in `values`, plus `_deleted` when deleted. */
  clock: Record<string, Hlc>;
  deleted: boolean;
}

export interface ChangeInput {
  op: "upsert" | "delete";
  hlc: Hlc;
  /** Only the columns the change sets; an orset column's value is an `OrSetPatch`. */
  payload: Values;
}

export interface ApplyResult {
  /** The merged state. */
  row: RowState;
  /**
   * The part of the payload that was taken: what the server records in its feed. Orset columns
   * carry only their new adds and removes in the patch shape; a column with neither is left out.
   */
  accepted: Values;
  /** The change is a delete whose stamp is newer than the row's delete stamp (if any). */
  deleteAccepted: boolean;
  /** Scalar payload columns that lost last-writer-wins (reported to the writer as conflicts). */
  lost: string[];
  /** The greatest stamp among the winners over `lost`. */
  winningHlc: Hlc | undefined;
  /** `accepted` is non-empty or `deleteAccepted`: the row must be stored and fed. */
  changed: boolean;
}

/** The clock key of the delete stamp; no column is named so. */
export const deletedKey = "_deleted";

export const emptyRow = (): RowState => ({ values: {}, clock: {}, deleted: false });

const isOrSet = (spec: EntitySpec, column: string): boolean =>
  spec.columns[column]?.type === "orset";

const jsonKey = (value: unknown): string => JSON.stringify(value) ?? "undefined";

/**
 * Whether (stampA, valueA) beats (stampB, valueB) under last-writer-wins. A strict total order
 * on distinct pairs, which is what makes the scalar merge commutative.
 */
function beats(stampA: Hlc, valueA: unknown, stampB: Hlc, valueB: unknown): boolean {
  if (stampA !== stampB) return stampA > stampB;
  return jsonKey(valueA) > jsonKey(valueB);
}

const orSetOf = (value: unknown): OrSetState => (value as OrSetState | undefined) ?? emptyOrSet();

/**
 * The patch of an orset column in a change. The change must have passed validation; a malformed
 * patch throws TypeError rather than being dropped silently.
 */
function patchOf(column: string, value: unknown): OrSetPatch {
  const parsed = parseOrSetPatch(value);
  if ("error" in parsed) throw new TypeError(`orset column ${column}: ${parsed.error}`);
  return parsed.value;
}

/** The state a change describes on its own: what `mergeRows` joins into a replica. */
export function changeToState(change: ChangeInput, spec: EntitySpec): RowState {
  const values: Values = {};
  const clock: Record<string, Hlc> = {};
  for (const [column, value] of Object.entries(change.payload)) {
    if (isOrSet(spec, column)) {
      const set = orSetFromPatch(patchOf(column, value), change.hlc);
      // An empty patch contributes nothing; leaving it out keeps replicas that only see the
      // accepted part (which omits it) deep-equal to the server.
      if (!isEmptyOrSet(set)) values[column] = set;
    } else {
      values[column] = value;
      clock[column] = change.hlc;
    }
  }
  const deleted = change.op === "delete";
  if (deleted) clock[deletedKey] = change.hlc;
  return { values, clock, deleted };
}

const orSetColumnsCache = new WeakMap<EntitySpec, readonly string[]>();

/** The orset columns of an entity (computed once per spec). */
function orSetColumns(spec: EntitySpec): readonly string[] {
  let columns = orSetColumnsCache.get(spec);
  if (columns === undefined) {
    columns = Object.keys(spec.columns).filter((column) => isOrSet(spec, column));
    orSetColumnsCache.set(spec, columns);
  }
  return columns;
}

/** The join of two row states: commutative, associative and idempotent. */
export function mergeRows(a: RowState, b: RowState, spec: EntitySpec): RowState {
  const values: Values = {};
  const clock: Record<string, Hlc> = {};
  // Every stamped column of a, then those only b has (no set of all keys: this runs for every
  // change of every Push).
  const mergeColumn = (column: string): void => {
    if (column === deletedKey) return;
    const sa = a.clock[column];
    const sb = b.clock[column];
    const winner =
      sb === undefined || (sa !== undefined && beats(sa, a.values[column], sb, b.values[column]))
        ? a
        : b;
    const stamp = winner.clock[column];
    if (stamp === undefined) return;
    clock[column] = stamp;
    values[column] = winner.values[column];
  };
  for (const column of Object.keys(a.clock)) mergeColumn(column);
  for (const column of Object.keys(b.clock)) {
    if (!Object.hasOwn(a.clock, column)) mergeColumn(column);
  }
  for (const column of orSetColumns(spec)) {
    if (!Object.hasOwn(a.values, column) && !Object.hasOwn(b.values, column)) continue;
    values[column] = joinOrSets(orSetOf(a.values[column]), orSetOf(b.values[column]));
  }
  const da = a.clock[deletedKey];
  const db = b.clock[deletedKey];
  const deleteStamp = da === undefined ? db : db === undefined || da > db ? da : db;
  if (deleteStamp !== undefined) clock[deletedKey] = deleteStamp;
  return { values, clock, deleted: a.deleted || b.deleted };
}

/**
 * Merge one change into a row (`current` undefined: never seen) and report what it
 * contributed. `row` always deep-equals `mergeRows(current, changeToState(change))`.
 */
export function applyChange(
  current: RowState | undefined,
  change: ChangeInput,
  spec: EntitySpec,
): ApplyResult {
  const incoming = changeToState(change, spec);
  if (current === undefined && orSetColumns(spec).every((c) => !Object.hasOwn(change.payload, c))) {
    // A row never seen and no orset column: the merge with the empty row is the change's own
    // state (fresh objects), and all of it is taken. (Most of a first sync is this case.)
    const deleteAccepted = change.op === "delete";
    const accepted: Values = { ...incoming.values };
    const changed = deleteAccepted || Object.keys(accepted).length > 0;
    return { row: incoming, accepted, deleteAccepted, lost: [], winningHlc: undefined, changed };
  }
  const base = current ?? emptyRow();
  const row = mergeRows(base, incoming, spec);

  const accepted: Values = {};
  const lost: string[] = [];
  let winningHlc: Hlc | undefined;
  for (const [column, value] of Object.entries(incoming.values)) {
    if (isOrSet(spec, column)) {
      const patch = newInOrSet(orSetOf(base.values[column]), orSetOf(row.values[column]));
      if (patch !== undefined) accepted[column] = patch;
      continue;
    }
    const stamp = base.clock[column];
    const baseValue = base.values[column];
    if (stamp === undefined || beats(change.hlc, value, stamp, baseValue)) {
      accepted[column] = value;
    } else if (stamp !== change.hlc || jsonKey(value) !== jsonKey(baseValue)) {
      lost.push(column);
      if (winningHlc === undefined || stamp > winningHlc) winningHlc = stamp;
    }
  }
  const baseDelete = base.clock[deletedKey];
  const deleteAccepted =
    change.op === "delete" && (baseDelete === undefined || change.hlc > baseDelete);
  const changed = deleteAccepted || Object.keys(accepted).length > 0;
  return { row, accepted, deleteAccepted, lost, winningHlc, changed };
}

/** What `after` has that `before` had not, as a patch; undefined when nothing. */
function newInOrSet(before: OrSetState, after: OrSetState): OrSetPatch | undefined {
  const hadAdd = new Set(before.adds.map((a) => `${a.tag}\n${a.value}`));
  const hadRemove = new Set(before.removed);
  const add = after.adds.filter((a) => !hadAdd.has(`${a.tag}\n${a.value}`));
  const remove = after.removed.filter((t) => !hadRemove.has(t));
  if (add.length === 0 && remove.length === 0) return undefined;
  const patch: OrSetPatch = {};
  if (add.length > 0) patch.add = add.map((a) => a.value);
  if (remove.length > 0) patch.remove = remove;
  return patch;
}

/** Every required column has been written: the row counts as created (visible in reads). */
export const isComplete = (row: RowState, spec: EntitySpec): boolean =>
  spec.required.every((column) => row.clock[column] !== undefined);

/**
 * One change merged into a stored row, as every replica does it (server, device, memory): the
 * shared merge (merge.ts), the row's scope after the change, and what the change contributed (its
 * accepted part, which the server feeds) or lost (a conflict for the writer).
 */
import type { Change } from "./change.ts";
import { type EntitySpec, entities, isUserScope } from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import { type ApplyResult, applyChange, type RowState } from "./merge.ts";

/** A row as a replica keeps it: the merge state and its scope. */
export interface ScopedRowState extends RowState {
  readonly scopeId: string;
}

export interface Conflict {
  readonly entity: Change["entity"];
  readonly entityId: string;
  readonly columns: readonly string[];
  readonly winningHlc: Hlc;
}

export interface MergedChange {
  readonly result: ApplyResult;
  /** The row after the change; undefined when the change contributed nothing. */
  readonly row: ScopedRowState | undefined;
  /** The accepted part of the change, scoped like the row: what the feed records. */
  readonly fed: Change | undefined;
  readonly conflict: Conflict | undefined;
}

/**
 * The scope of a row after a change: it follows the merged row, not the change, so a device that
 * has not yet seen a relocation (and writes under the old apiary) cannot move the row back.
 * A row whose scope is its hive's apiary (a queen: the apiary is not in the row) takes the scope
 * of the newest change it holds: last-writer-wins on the row's greatest stamp, so replicas that
 * apply concurrent changes in any order agree on it.
 * `before` is the row before the change, with its scope (undefined for a row never seen).
 */
export function rowScope(
  spec: EntitySpec,
  change: Change,
  row: RowState,
  before: ScopedRowState | undefined,
): string {
  const apiaryId = row.values.apiary_id;
  switch (spec.scope) {
    case "self":
      return change.entityId;
    case "apiary":
    case "apiaryOrUser":
      if (typeof apiaryId === "string" && apiaryId !== "") return apiaryId;
      if (spec.scope === "apiaryOrUser" && isUserScope(change.scopeId)) return change.scopeId;
      return before?.scopeId ?? change.scopeId;
    case "hive": {
      if (before === undefined) return change.scopeId;
      const newest = newestStamp(before);
      return newest === undefined || change.hlc >= newest ? change.scopeId : before.scopeId;
    }
  }
}

/** The greatest stamp a row holds (its columns', its delete's, its OR-set tags'). */
function newestStamp(row: RowState): Hlc | undefined {
  let newest: Hlc | undefined;
  for (const stamp of Object.values(row.clock))
    if (newest === undefined || stamp > newest) newest = stamp;
  for (const value of Object.values(row.values)) {
    const adds = (value as { adds?: unknown } | null)?.adds;
    if (!Array.isArray(adds)) continue;
    for (const a of adds as { tag: Hlc }[])
      if (newest === undefined || a.tag > newest) newest = a.tag;
  }
  return newest;
}

export function mergeChange(current: ScopedRowState | undefined, change: Change): MergedChange {
  const spec = entities[change.entity];
  const result = applyChange(current, change, spec);
  const conflict =
    result.lost.length > 0 && result.winningHlc !== undefined
      ? {
          entity: change.entity,
          entityId: change.entityId,
          columns: result.lost,
          winningHlc: result.winningHlc,
        }
      : undefined;
  if (!result.changed) return { result, row: undefined, fed: undefined, conflict };
  const scopeId = rowScope(spec, change, result.row, current);
  // Field by field, not `{...x, scopeId}`: in V8 a spread followed by more properties cost µs a
  // change, and a CreateReadings batch merges 2,000 (issue 29).
  const { values, clock, deleted } = result.row;
  return {
    result,
    row: { values, clock, deleted, scopeId },
    fed: {
      entity: change.entity,
      entityId: change.entityId,
      scopeId,
      op: change.op,
      payload: change.op === "delete" ? {} : result.accepted,
      hlc: change.hlc,
      authorId: change.authorId,
    },
    conflict,
  };
}

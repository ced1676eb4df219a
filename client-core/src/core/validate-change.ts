/**
 * Push validation (DESIGN.md §4): may the server accept a change a device pushed?
 *
 * Two pure phases; the server runs both for every change of a batch inside its Push
 * transaction, collects every rejection, and writes nothing when there is one:
 * 1. `parseWireChange`: decode the wire form and check what needs no state.
 * 2. `checkChange`: check the rules that need facts, which the server supplies
 *    (`CheckContext`): the caller, the stored row, which ids and scopes exist.
 *
 * | rule                                                              | phase | code              |
 * |-------------------------------------------------------------------|-------|-------------------|
 * | entity known; entityId / scopeId shape; op 1 or 2; hlc parses     | parse | invalid_argument  |
 * | payloadJson a JSON object of known columns only                   | parse | invalid_argument  |
 * | value types and column rules (column-value.ts)                    | parse | invalid_argument  |
 * | a delete carries an empty payload                                 | parse | invalid_argument  |
 * | demo session (read-only)                                          | check | permission_denied |
 * | hlc more than 60 s ahead of the server clock (device re-stamps)   | check | invalid_argument  |
 * | `user:` scope other than the caller's own                         | check | permission_denied |
 * | stored row in another user's `user:` scope                        | check | permission_denied |
 * | apiary scope not writable (not an apiary of the tenant or batch)  | check | permission_denied |
 * | `user:` scope for an entity whose ScopeRule is not apiaryOrUser   | check | invalid_argument  |
 * | apiary whose scopeId is not its own id                            | check | invalid_argument  |
 * | scopeId differs from the apiary_id the payload sets               | check | invalid_argument  |
 * | apiaryOrUser row with apiary_id "" outside a `user:` scope        | check | invalid_argument  |
 * | reference to an id that does not exist in the tenant              | check | invalid_argument  |
 * | immutable column set to another value than the stored one         | check | invalid_argument  |
 * | upsert of an append-only row that exists (not a re-delivery)      | check | invalid_argument  |
 * | orset removal naming a tag the stored set never received           | check | invalid_argument  |
 * | orset holding more than `maxElements` entries (20 photos)          | check | invalid_argument  |
 *
 * "Required columns when the row is created": a change may be partial (DESIGN.md §4: a
 * change for a row never seen is kept until its create arrives), so a missing required column
 * is never a rejection, neither for a new row nor for an incomplete one. What is checked is
 * every required column that a change carries, on any upsert, new row or not: it must hold a
 * real value (text not blank, id not "", timestamp not null, plus the column's own rules
 * such as amount_kg > 0). So whatever change completes a row completes it with valid values,
 * and no later change can blank a required column (e.g. a hive's apiary_id) of a created row.
 */
import { ChangeOp } from "@hivekeep/proto";
import { type Change, rowKey } from "./change.ts";
import { isEntityId, orSetPatchError, parseColumnValue } from "./column-value.ts";
import type { EntityName, EntitySpec } from "./entities.ts";
import {
  entities,
  entityNames,
  entitySpec,
  isUserScope,
  refColumns,
  userScope,
  userScopePrefix,
} from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import { defaultMaxAheadMs, hlcMs, isTooFarAhead, parseHlc } from "./hlc.ts";
import type { Values } from "./merge.ts";
import type { OrSetPatch, OrSetState } from "./or-set.ts";
import { quote } from "./quote.ts";

/** A change as received on the wire (the proto `Change`; its `authorId` is never trusted). */
export interface WireChange {
  readonly entity: string;
  readonly entityId: string;
  readonly scopeId: string;
  /** 1 = upsert, 2 = delete (`ChangeOp`). */
  readonly op: number;
  readonly payloadJson: string;
  readonly hlc: string;
}

export type RejectionCode = "invalid_argument" | "permission_denied";

/** Why one change of a batch was refused; `index` is its position in the batch. */
export interface Rejection {
  readonly index: number;
  readonly code: RejectionCode;
  readonly reason: string;
}

/** What the server knows of the stored row a change targets. */
export interface RowFacts {
  /** As in `RowState`: only stamped columns, timestamps as `toISOString()` strings. */
  readonly values: Values;
  readonly clock: Readonly<Record<string, Hlc>>;
  readonly deleted: boolean;
  /** Every required column has been written (`isComplete`). */
  readonly complete: boolean;
  /** The row's stored scope. */
  readonly scopeId: string;
}

export interface CheckContext {
  /** The server clock. */
  readonly nowMs: number;
  readonly caller: { readonly userId: string; readonly demo: boolean };
  /**
   * The row as it stands before this change, earlier changes of the same batch included
   * (possibly deleted or incomplete); undefined when the tenant has no such row.
   */
  readonly existing: RowFacts | undefined;
  /**
   * The id is a row of the caller's tenant, or one created earlier in this batch. An id of
   * another tenant must answer false (it then reads as unknown, as the contract requires).
   * Counting tombstoned rows keeps valid an offline write to a hive deleted meanwhile
   * (inspections of a deleted hive are legal records).
   */
  exists(entity: EntityName, id: string): boolean;
  /** The scope is an apiary of the tenant, or one created earlier in this batch. */
  apiaryScopeWritable(scopeId: string): boolean;
  /**
   * Stamps of changes to this row earlier in the batch that were refused only for their stamp
   * (`batchChecker`): an OR-set removal may name them as received tags.
   */
  readonly comingBack?: ReadonlySet<string>;
}

/** What `batchChecker` needs besides the changes: the tenant's stored rows. */
export interface BatchCheckContext {
  readonly nowMs: number;
  readonly caller: CheckContext["caller"];
  /** The id is a stored row of the caller's tenant (another tenant's id answers false). */
  exists(entity: EntityName, id: string): boolean;
}

/**
 * Checks the changes of one batch: call it for each change in batch order, with the row as it
 * stands after the accepted changes before it. A change refused only for its stamp comes back
 * re-stamped and otherwise unchanged (restamp.ts, which renames an OR-set removal naming it
 * too), so the later changes of the batch may rely on it: on the row it creates (references,
 * the scope) and on the elements it adds (a removal naming its tag). A device whose clock runs
 * ahead is told about its clock, not about what follows from it.
 */
export function batchChecker(
  base: BatchCheckContext,
): (change: Change, index: number, existing: RowFacts | undefined) => Rejection[] {
  const created = new Set<string>();
  const comingBack = new Map<string, Set<string>>();
  const exists = (entity: EntityName, id: string) =>
    created.has(rowKey(entity, id)) || base.exists(entity, id);
  return (change, index, existing) => {
    const key = rowKey(change.entity, change.entityId);
    const found = checkChange(change, index, {
      nowMs: base.nowMs,
      caller: base.caller,
      existing,
      exists,
      apiaryScopeWritable: (scopeId) => exists("apiary", scopeId),
      comingBack: comingBack.get(key),
    });
    const onlyClock = found.length === 1 && isTooFarAhead(change.hlc, base.nowMs);
    if ((found.length === 0 || onlyClock) && change.op === "upsert") created.add(key);
    if (onlyClock) {
      const tags = comingBack.get(key) ?? new Set<string>();
      comingBack.set(key, tags.add(change.hlc));
    }
    return found;
  };
}

const clockAhead = "ahead of the server clock";

/** A rejection's reason says the change's stamp ran too far ahead (the device re-stamps it). */
export const isClockAheadReason = (reason: string): boolean => reason.includes(clockAhead);

const reservedColumns = new Set(["id", "organization_id", "clock", "deleted", "scope_id"]);

const isScopeId = (s: string): boolean =>
  isUserScope(s) ? isEntityId(s.slice(userScopePrefix.length)) : isEntityId(s);

function parsePayload(json: string): { value: Record<string, unknown> } | { error: string } {
  // proto3 JSON leaves an empty string out, so an omitted payload arrives as "".
  if (json === "") return { value: {} };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { error: "payloadJson is not valid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: "payloadJson must be a JSON object keyed by column name" };
  }
  return { value: value as Record<string, unknown> };
}

/**
 * Decodes one pushed change and checks everything that needs no state. `authorId` is the
 * authenticated caller (the wire's is ignored); `index` is the change's position in the
 * batch, reported in the rejection. Timestamps come back normalised to `toISOString()`.
 */
export function parseWireChange(
  wire: WireChange,
  authorId: string,
  index: number,
): { value: Change } | { error: Rejection } {
  const fail = (reason: string): { error: Rejection } => ({
    error: { index, code: "invalid_argument", reason },
  });
  const spec = entitySpec(wire.entity);
  if (spec === undefined) {
    return fail(`entity ${quote(wire.entity)} is unknown; expected ${entityNames.join(", ")}`);
  }
  if (!isEntityId(wire.entityId)) {
    return fail(`entityId ${quote(wire.entityId)} must be 1-100 characters of [A-Za-z0-9_-]`);
  }
  if (!isScopeId(wire.scopeId)) {
    return fail(`scopeId ${quote(wire.scopeId)} must be an apiary id or user:<userId>`);
  }
  const op =
    wire.op === ChangeOp.UPSERT ? "upsert" : wire.op === ChangeOp.DELETE ? "delete" : undefined;
  if (op === undefined) return fail(`op must be 1 (upsert) or 2 (delete), got ${wire.op}`);
  const hlc = parseHlc(wire.hlc);
  if ("error" in hlc) return fail(`hlc ${quote(wire.hlc)} is malformed: ${hlc.error}`);

  const raw = parsePayload(wire.payloadJson);
  if ("error" in raw) return fail(raw.error);
  const columns = Object.keys(raw.value);
  if (op === "delete" && columns.length > 0) {
    return fail(`a delete must have an empty payload {}, got ${columns.join(", ")}`);
  }
  const payload: Values = {};
  for (const column of columns) {
    const columnSpec = Object.hasOwn(spec.columns, column) ? spec.columns[column] : undefined;
    if (columnSpec === undefined) {
      return fail(
        reservedColumns.has(column)
          ? `${column} is kept by the server and is never part of a payload`
          : `${spec.name} has no column ${quote(column)}`,
      );
    }
    const required = spec.required.includes(column);
    const parsed = parseColumnValue(columnSpec, raw.value[column], required);
    if ("error" in parsed) return fail(`${spec.name}.${column} ${parsed.error}`);
    payload[column] = parsed.value;
  }
  return {
    value: {
      entity: spec.name,
      entityId: wire.entityId,
      scopeId: wire.scopeId,
      op,
      payload,
      hlc: wire.hlc as Hlc,
      authorId,
    },
  };
}

/**
 * The rules of a parsed change that need state (see the table above). Returns every
 * rejection found, none when the change is acceptable; a demo caller gets exactly one.
 */
export function checkChange(change: Change, index: number, ctx: CheckContext): Rejection[] {
  const rejections: Rejection[] = [];
  const reject = (code: RejectionCode, reason: string): void => {
    rejections.push({ index, code, reason });
  };
  if (ctx.caller.demo) {
    return [{ index, code: "permission_denied", reason: "a demo session is read-only" }];
  }
  if (isTooFarAhead(change.hlc, ctx.nowMs)) {
    const ahead = hlcMs(change.hlc) - ctx.nowMs;
    reject(
      "invalid_argument",
      `hlc is ${ahead} ms ${clockAhead} (at most ${defaultMaxAheadMs} ms): ` +
        "re-stamp the change with the server time and push it again",
    );
  }
  const spec = entities[change.entity];
  checkScope(change, spec, ctx, reject);
  if (change.op === "upsert") {
    checkOrSets(change, spec, ctx, reject);
    checkReferences(change, spec, ctx, reject);
    checkImmutable(change, spec, ctx.existing, reject);
    if (spec.appendOnly && ctx.existing?.complete && !isRedelivery(change, ctx.existing)) {
      reject(
        "invalid_argument",
        `${spec.table} are append-only: ${change.entity} ${change.entityId} exists and ` +
          "may only be deleted",
      );
    }
  }
  return rejections;
}

type Reject = (code: RejectionCode, reason: string) => void;

function checkScope(change: Change, spec: EntitySpec, ctx: CheckContext, reject: Reject): void {
  const { scopeId } = change;
  const own = userScope(ctx.caller.userId);
  if (isUserScope(scopeId)) {
    if (scopeId !== own) {
      reject("permission_denied", `scope ${scopeId} is another user's personal scope`);
    } else if (spec.scope !== "apiaryOrUser") {
      reject("invalid_argument", `a ${spec.name} belongs to an apiary, not a personal scope`);
    }
  } else if (spec.scope === "self") {
    if (scopeId !== change.entityId) {
      reject("invalid_argument", `an apiary's scopeId must be its own id ${change.entityId}`);
    }
  } else if (!ctx.apiaryScopeWritable(scopeId)) {
    reject("permission_denied", `scope ${scopeId} is not an apiary the caller can write`);
  }

  const stored = ctx.existing?.scopeId;
  if (stored !== undefined && isUserScope(stored) && stored !== own) {
    reject(
      "permission_denied",
      `${spec.name} ${change.entityId} is another user's personal record`,
    );
  }

  const apiaryId = change.payload.apiary_id;
  if ((spec.scope === "apiary" || spec.scope === "apiaryOrUser") && typeof apiaryId === "string") {
    if (apiaryId !== "" && scopeId !== apiaryId) {
      reject("invalid_argument", `scopeId ${scopeId} must equal apiary_id ${apiaryId}`);
    } else if (apiaryId === "" && spec.scope === "apiaryOrUser" && !isUserScope(scopeId)) {
      reject("invalid_argument", `apiary_id is empty, so scopeId must be ${own}`);
    }
  }
}

function checkReferences(
  change: Change,
  spec: EntitySpec,
  ctx: CheckContext,
  reject: Reject,
): void {
  for (const [column, ref] of refColumns(spec)) {
    const value = change.payload[column];
    if (typeof value !== "string" || value === "") continue;
    // Re-sending the stored value (a re-push, an overwrite) needs no new check: the reference
    // was checked when it was first written, and its target may be deleted since.
    if (isStored(ctx.existing, column, value)) continue;
    if (!ctx.exists(ref, value)) {
      reject("invalid_argument", `${column} references unknown ${ref} ${value}`);
    }
  }
}

/**
 * The orset rules that need the stored set (column-value.ts `orSetPatchError`): removals name
 * tags it received, and it holds no more than `maxElements` entries after the change.
 */
function checkOrSets(change: Change, spec: EntitySpec, ctx: CheckContext, reject: Reject): void {
  for (const [column, value] of Object.entries(change.payload)) {
    const columnSpec = spec.columns[column];
    if (columnSpec?.type !== "orset") continue;
    const error = orSetPatchError(
      columnSpec,
      ctx.existing?.values[column] as OrSetState | undefined,
      value as OrSetPatch,
      change.hlc,
      ctx.comingBack,
    );
    if (error !== undefined) reject("invalid_argument", `${spec.name}.${column} ${error}`);
  }
}

function checkImmutable(
  change: Change,
  spec: EntitySpec,
  existing: RowFacts | undefined,
  reject: Reject,
): void {
  if (existing === undefined) return;
  for (const [column, value] of Object.entries(change.payload)) {
    if (!spec.columns[column]?.immutable || existing.clock[column] === undefined) continue;
    const stored = existing.values[column];
    if (stored === "" || stored === null || stored === undefined) continue;
    if (stored !== value) {
      reject(
        "invalid_argument",
        `${column} is immutable: ${spec.name} ${change.entityId} has ${String(stored)}, ` +
          `the change sets ${String(value)}`,
      );
    }
  }
}

const isStored = (existing: RowFacts | undefined, column: string, value: unknown): boolean =>
  existing?.clock[column] !== undefined && existing.values[column] === value;

/**
 * The change is one the row already holds (a re-push after a lost response): every column
 * carries the stamp and value stored for it. Orset columns keep no stamp, so never qualify.
 */
const isRedelivery = (change: Change, existing: RowFacts): boolean =>
  Object.entries(change.payload).every(
    ([column, value]) =>
      existing.clock[column] === change.hlc &&
      JSON.stringify(existing.values[column]) === JSON.stringify(value),
  );

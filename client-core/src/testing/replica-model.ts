/**
 * Test-only (nothing in the product imports it): a pure model of the sync protocol of
 * DESIGN.md §4, driven by the convergence property tests — replica-model.test.ts against
 * `ModelServer`, test/sync/convergence.test.ts against the real server over HTTP. What it
 * shares with the product is the product's code, called: the merge of a change into a row and
 * its fed part (core/merge-change.ts), the outbox order of what a device shows
 * (core/pending.ts), re-stamping (core/restamp.ts), the device's clock (device/device-clock.ts),
 * validation and the domain commands.
 *
 * A `ModelDevice` has a wall clock skewed by a fixed offset, the device's clock (its HLC and the
 * offset it measured from the last `serverTime` it saw, unknown until its first contact), a
 * confirmed replica (what it pulled plus its own acknowledged changes) and an outbox; what it
 * shows is the confirmed replica with the outbox merged on top (`view`). Writes go through the pure domain
 * commands and the shared validator, exactly as a device would make them.
 *
 * Clock skew (DESIGN.md §4): the server refuses stamps more than 60 s ahead of its clock. Such
 * stamps were never accepted anywhere, so the device re-stamps them (`restamp`): it rebuilds its
 * HLC from every stamp that may have been accepted (never from the refused ones: `receive`
 * cannot move a clock back) and ticks again with its corrected wall clock, in the original
 * order; an OR-set removal naming the tag of a re-stamped add is renamed with it.
 *
 * No Node, DOM or vitest; time comes from `now`.
 */
import { type Change, rowKey, toWire } from "../core/change.ts";
import { tombstone, upsert } from "../core/commands/change-builders.ts";
import type { CommandContext } from "../core/commands/context.ts";
import {
  addInspectionPhoto,
  type InspectionState,
  removeInspectionPhoto,
} from "../core/commands/inspection.ts";
import { type EntityName, entities } from "../core/entities.ts";
import { createClock, type Hlc, receive, tick } from "../core/hlc.ts";
import {
  type ApplyResult,
  deletedKey,
  isComplete,
  type RowState,
  type Values,
} from "../core/merge.ts";
import { type MergedChange, mergeChange, type ScopedRowState } from "../core/merge-change.ts";
import { emptyOrSet, type OrSetPatch, type OrSetState, orSetValues } from "../core/or-set.ts";
import { withPending } from "../core/pending.ts";
import { restamp } from "../core/restamp.ts";
import { batchChecker, parseWireChange, type Rejection } from "../core/validate-change.ts";
import { DeviceClock } from "../device/device-clock.ts";

/** The merge state of a row without its scope: what the server's tables read back as. */
const stateOf = ({ values, clock, deleted }: RowState): RowState => ({ values, clock, deleted });

/** Rows by `rowKey` with their scope, changed only through the shared merge (mergeChange). */
export class Replica {
  rows = new Map<string, ScopedRowState>();

  /** Merges a change; the row is stored only when the change contributed (as the server does). */
  apply(change: Change): MergedChange {
    const key = rowKey(change.entity, change.entityId);
    const merged = mergeChange(this.rows.get(key), change);
    if (merged.row !== undefined) this.rows.set(key, merged.row);
    return merged;
  }

  /** The row's merge state without its scope, as `rowStateFromDb` reads the server's. */
  state(key: string): RowState | undefined {
    const row = this.rows.get(key);
    return row && stateOf(row);
  }

  /** The rows' merge states (`state`) as a plain object sorted by key (for deep-equality). */
  snapshot(): Record<string, RowState> {
    return Object.fromEntries(
      [...this.rows].sort(([a], [b]) => (a < b ? -1 : +(a > b))).map(([k, r]) => [k, stateOf(r)]),
    );
  }
}

/** What a writer means to do to a row; the change is built against the writer's view of it. */
export type Intent =
  | {
      readonly kind: "set";
      readonly entity: EntityName;
      readonly id: string;
      readonly scopeId: string;
      readonly values: Values;
    }
  | {
      readonly kind: "photoAdd";
      readonly id: string;
      readonly scopeId: string;
      readonly photo: string;
    }
  /** Removes the `pick`-th stored photo (modulo their number); nothing when there is none. */
  | {
      readonly kind: "photoRemove";
      readonly id: string;
      readonly scopeId: string;
      readonly pick: number;
    }
  | {
      readonly kind: "delete";
      readonly entity: EntityName;
      readonly id: string;
      readonly scopeId: string;
    };

export const intentKey = (intent: Intent): string =>
  rowKey(
    intent.kind === "photoAdd" || intent.kind === "photoRemove" ? "inspection" : intent.entity,
    intent.id,
  );

const photoKeysOf = (row: RowState | undefined): OrSetState =>
  (row?.values.photo_keys as OrSetState | undefined) ?? emptyOrSet();

/** The changes an intent makes against `current`, through the pure domain commands. */
export function changesFor(
  intent: Intent,
  current: RowState | undefined,
  ctx: CommandContext,
): Change[] {
  switch (intent.kind) {
    case "set":
      return [upsert(ctx, intent.entity, intent.id, intent.scopeId, intent.values)];
    case "delete":
      return [tombstone(ctx, intent.entity, intent.id, intent.scopeId)];
    case "photoAdd":
    case "photoRemove": {
      // A writer may know a row only by id (a partial row, or one it has not pulled yet).
      const state: InspectionState = {
        id: intent.id,
        scopeId: intent.scopeId,
        photoKeys: photoKeysOf(current),
      };
      if (intent.kind === "photoAdd") {
        return addInspectionPhoto(ctx, state, intent.id, intent.photo);
      }
      const photos = orSetValues(state.photoKeys);
      const photo = photos[intent.pick % Math.max(photos.length, 1)];
      return photo === undefined ? [] : removeInspectionPhoto(ctx, state, intent.id, photo);
    }
  }
}

/**
 * The change as the server will read it (the shared validator normalises values, e.g. -0 to 0
 * and timestamps to `toISOString()`), so the writer's own replica holds what everyone else
 * gets. Throws when the change is invalid: the model only makes valid changes.
 */
export function normalized(change: Change): Change {
  const parsed = parseWireChange(toWire(change), change.authorId, 0);
  if ("error" in parsed) throw new Error(`invalid change: ${parsed.error.reason}`);
  return parsed.value;
}

export interface DeviceOptions {
  /** HLC node id (the device's clock stamps as `<node>-m`, as a tab of a replica does). */
  readonly node: string;
  readonly authorId: string;
  /** The device's wall clock minus true time. */
  readonly skewMs: number;
  /** The error of each offset measurement (network delay, rounding). */
  readonly errorMs: number;
  /** True time (the server's wall clock). */
  readonly now: () => number;
}

export interface OutboxEntry {
  /** Stable across re-stamps. */
  readonly id: number;
  change: Change;
}

export class ModelDevice {
  /** The device's clock: its HLC and the offset to the server's time, measured from responses. */
  readonly clock: DeviceClock;
  readonly confirmed = new Replica();
  /** Unacknowledged changes in the order they were made (which is also stamp order). */
  outbox: OutboxEntry[] = [];
  /** Every change a push response acknowledged, in acknowledgement order. */
  readonly acknowledged: Change[] = [];
  /** The greatest stamp that may have been accepted: pulled or acknowledged. */
  private maxSeen: Hlc | undefined;
  private nextEntryId = 1;

  constructor(readonly options: DeviceOptions) {
    this.clock = new DeviceClock({ node: options.node }, () => this.wallMs(), "m");
  }

  /** What the device's own clock reads. */
  wallMs(): number {
    return this.options.now() + this.options.skewMs;
  }

  /** A Pull or Push response carried `serverTime` (measured with an error of `errorMs`). */
  observeServerTime(serverMs: number): void {
    this.clock.observeServerTime(serverMs + this.options.errorMs);
  }

  /** A restart that lost the measured offset (the HLC clock is persisted and kept). */
  forgetOffset(): void {
    this.clock.offsetMs = undefined;
  }

  /** The row as the device shows it: confirmed, with the outbox merged on top in its order. */
  view(key: string): ScopedRowState | undefined {
    const pending = this.outbox
      .filter(({ change }) => rowKey(change.entity, change.entityId) === key)
      .map(({ id, change }) => ({ seq: id, change }));
    return withPending(this.confirmed.rows.get(key), pending);
  }

  /** Makes and queues the changes of an intent; answers them (none when it is a no-op). */
  write(intent: Intent): Change[] {
    const ctx: CommandContext = {
      now: new Date(this.clock.nowMs()),
      authorId: this.options.authorId,
      newId: () => {
        throw new Error("the model writes known ids only");
      },
      stamp: () => this.clock.stamp(),
    };
    const changes = changesFor(intent, this.view(intentKey(intent)), ctx).map(normalized);
    for (const change of changes) this.outbox.push({ id: this.nextEntryId++, change });
    return changes;
  }

  /**
   * Outbox entry ids chosen by `picks` (modulo the outbox size; repeats kept), each OR-set
   * removal preceded by the outbox entries that add the tags it names (unless already chosen).
   * Batches go out in any order, but never a removal without its add: a real device pushes its
   * outbox in order, so the server has every add a removal names, which Push checks
   * (column-value.ts `orSetPatchError`).
   */
  pick(picks: readonly number[]): number[] {
    const n = this.outbox.length;
    if (n === 0) return [];
    const ids: number[] = [];
    for (const p of picks) {
      const entry = this.outbox[p % n] as OutboxEntry;
      for (const add of this.addsNamedBy(entry.change)) {
        if (!ids.includes(add.id)) ids.push(add.id);
      }
      ids.push(entry.id);
    }
    return ids;
  }

  /** The outbox entries whose stamps `change`'s OR-set removals name (its row's adds). */
  private addsNamedBy(change: Change): OutboxEntry[] {
    const spec = entities[change.entity];
    const named = new Set<string>();
    for (const [column, value] of Object.entries(change.payload)) {
      if (spec.columns[column]?.type !== "orset") continue;
      for (const tag of (value as OrSetPatch).remove ?? []) named.add(tag);
    }
    if (named.size === 0) return [];
    const key = rowKey(change.entity, change.entityId);
    return this.outbox.filter(
      (e) => named.has(e.change.hlc) && rowKey(e.change.entity, e.change.entityId) === key,
    );
  }

  /** The current version of the entries still in the outbox, in the order of `ids`. */
  batch(ids: readonly number[]): Change[] {
    const byId = new Map(this.outbox.map((e) => [e.id, e.change]));
    return ids.flatMap((id) => {
      const change = byId.get(id);
      return change === undefined ? [] : [change];
    });
  }

  /** A push of these entries succeeded: they leave the outbox and join the confirmed rows. */
  acknowledge(ids: readonly number[]): void {
    for (const id of ids) {
      const index = this.outbox.findIndex((e) => e.id === id);
      if (index < 0) continue;
      const [entry] = this.outbox.splice(index, 1) as [OutboxEntry];
      this.confirmed.apply(entry.change);
      this.acknowledged.push(entry.change);
      this.see(entry.change.hlc);
    }
  }

  /** Applies a pulled page in feed order; the clock receives every stamp. */
  applyPulled(changes: readonly Change[]): ApplyResult[] {
    return changes.map((change) => {
      const { result } = this.confirmed.apply(change);
      this.clock.observe(change.hlc);
      this.see(change.hlc);
      return result;
    });
  }

  /**
   * Re-stamps the outbox entries the server refuses at `serverTimeMs` (call after measuring
   * the offset). Such a stamp was refused at every earlier push too, so it was never accepted
   * anywhere. Answers old stamp → new stamp.
   */
  restamp(serverTimeMs: number): Map<Hlc, Hlc> {
    const result = restamp({
      changes: this.outbox.map((e) => e.change),
      node: this.clock.node,
      serverTimeMs,
      stampMs: this.clock.nowMs(),
      maxSeen: this.maxSeen,
    });
    if (result.clock === undefined) return result.renamed;
    for (const [i, entry] of this.outbox.entries()) entry.change = result.changes[i] as Change;
    this.clock.reset(result.clock);
    return result.renamed;
  }

  private see(hlc: Hlc): void {
    if (this.maxSeen === undefined || hlc > this.maxSeen) this.maxSeen = hlc;
  }
}

export type PushOutcome =
  | { readonly ok: true; readonly results: readonly ApplyResult[]; readonly serverTimeMs: number }
  | { readonly ok: false; readonly rejections: readonly Rejection[] };

/**
 * The server's side of Push and Pull: validation (`checkChange`, every reference taken as
 * existing), all-or-nothing batches, the shared merge, a feed of accepted parts, and an HLC
 * that observes every accepted stamp before it stamps its own writes.
 */
export class ModelServer {
  readonly rows = new Replica();
  readonly feed: Change[] = [];
  private clock = createClock("srv");

  constructor(
    readonly now: () => number,
    private readonly authorId = "user-1",
  ) {}

  push(changes: readonly Change[]): PushOutcome {
    const nowMs = this.now();
    const staged = new Map(this.rows.rows);
    const rejections: Rejection[] = [];
    const results: ApplyResult[] = [];
    const fed: Change[] = [];
    const check = batchChecker({
      nowMs,
      caller: { userId: this.authorId, demo: false },
      exists: () => true,
    });
    for (const [index, change] of changes.entries()) {
      const spec = entities[change.entity];
      const key = rowKey(change.entity, change.entityId);
      const existing = staged.get(key);
      const found = check(
        change,
        index,
        existing && { ...existing, complete: isComplete(existing, spec), scopeId: change.scopeId },
      );
      if (found.length > 0) {
        rejections.push(...found);
        continue;
      }
      const merged = mergeChange(existing, change);
      results.push(merged.result);
      if (merged.row === undefined || merged.fed === undefined) continue;
      staged.set(key, merged.row);
      fed.push(merged.fed);
    }
    if (rejections.length > 0) return { ok: false, rejections };
    this.rows.rows = staged;
    this.feed.push(...fed);
    for (const change of changes) this.clock = receive(this.clock, change.hlc, nowMs);
    return { ok: true, results, serverTimeMs: this.now() };
  }

  pull(
    cursor: number,
    limit: number,
  ): { changes: Change[]; next: number; hasMore: boolean; serverTimeMs: number } {
    const changes = this.feed.slice(cursor, cursor + limit);
    const next = cursor + changes.length;
    return { changes, next, hasMore: next < this.feed.length, serverTimeMs: this.now() };
  }

  /** A service operation (an RPC): stamped by the server after observing the row's stamps. */
  write(intent: Intent): Change[] {
    const key = intentKey(intent);
    const current = this.rows.rows.get(key);
    for (const hlc of Object.values(current?.clock ?? {})) {
      this.clock = receive(this.clock, hlc, this.now());
    }
    const ctx: CommandContext = {
      now: new Date(this.now()),
      authorId: this.authorId,
      newId: () => {
        throw new Error("the model writes known ids only");
      },
      stamp: () => {
        const next = tick(this.clock, this.now());
        this.clock = next.clock;
        return next.hlc;
      },
    };
    const changes = changesFor(intent, current, ctx).map(normalized);
    for (const change of changes) {
      const { fed } = this.rows.apply(change);
      if (fed !== undefined) this.feed.push(fed);
    }
    return changes;
  }
}

/**
 * What of an accepted change `row` no longer holds, though nothing overwrote it: a scalar
 * column whose stamp is below the change's (or equal, with another value), an added photo
 * whose tag is neither live nor removed, a removed tag that is not removed, a delete that is
 * not. Empty when the write survives. One description per problem.
 */
export function lostParts(change: Change, row: RowState | undefined): string[] {
  const where = `${change.entity}/${change.entityId} @${change.hlc}`;
  if (row === undefined) return [`${where}: row missing`];
  const problems: string[] = [];
  if (change.op === "delete") {
    const stamp = row.clock[deletedKey];
    if (!row.deleted || stamp === undefined || stamp < change.hlc) {
      problems.push(`${where}: delete lost (deleted ${row.deleted}, stamp ${stamp})`);
    }
  }
  const spec = entities[change.entity];
  for (const [column, value] of Object.entries(change.payload)) {
    if (spec.columns[column]?.type === "orset") {
      const patch = value as OrSetPatch;
      const set = (row.values[column] as OrSetState | undefined) ?? emptyOrSet();
      const removed = new Set(set.removed);
      for (const photo of patch.add ?? []) {
        const live = set.adds.some((a) => a.tag === change.hlc && a.value === photo);
        if (!live && !removed.has(change.hlc)) problems.push(`${where}: ${column} add lost`);
      }
      for (const tag of patch.remove ?? []) {
        if (!removed.has(tag)) problems.push(`${where}: ${column} removal of ${tag} lost`);
      }
      continue;
    }
    const stamp = row.clock[column];
    if (stamp === undefined || stamp < change.hlc) {
      problems.push(`${where}: ${column} lost to an older stamp ${stamp}`);
    } else if (
      stamp === change.hlc &&
      JSON.stringify(row.values[column]) !== JSON.stringify(value)
    ) {
      problems.push(`${where}: ${column} holds another value under the same stamp`);
    }
  }
  return problems;
}

/**
 * The readings window (issue 29): a device keeps the readings (inspection-kind.ts) of the last N
 * days and lets older ones go; Pull with `reading_days` leaves them out. The rules here are the
 * one implementation the server (write path, Pull) and the device (eviction) share; why they
 * converge is in docs/sync-spec.md "Readings window".
 *
 * - The cutoff: the start of the UTC day N days before today. Readings dated before it are out.
 * - A feed entry is *held* (left out of a windowed Pull) when its row was an out-of-window
 *   reading both before and after it: `heldUntil` stamps each entry at write time with the latest
 *   date the row had as a reading across the change, and Pull leaves out the entries stamped
 *   before its cutoff. An entry that makes a reading a visit, or a visit a reading, or moves a
 *   reading into the window, is never held.
 * - An INSPECTION event (any event whose `ref_entity` is "inspection") is held like its
 *   inspection as the batch left it.
 * - A change of an inspection that began from a reading (`needsState`: only such a change can
 *   follow held ones, or a row a device let go) travels with the row's whole state
 *   (`stateChanges`), so a device that never had the row, or let it go, holds it as the server
 *   does.
 */
import type { Change } from "./change.ts";
import { type EntityName, entities } from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import { isReadingRow } from "./inspection-kind.ts";
import { deletedKey, type RowState, type Values } from "./merge.ts";
import type { OrSetState } from "./or-set.ts";
import { bucketStart, seriesDayMs } from "./reading-series.ts";

/**
 * How many days of readings a device keeps unless told otherwise: two weeks, the last two
 * visits of a weekly rhythm at full resolution. The days before come as the server's day
 * buckets (reading-series.ts). Each day of a 15-minute scale is 192 changes for a new device
 * to merge (a reading and its event): 30 days of three scales made a first sync 3 s longer
 * (docs/decisions.md, "A new device's first sync: two weeks of readings").
 */
export const defaultReadingDays = 14;

/** Most days a window may span: about 30 years (a larger request is capped). */
export const maxReadingDays = 11_000;

/** The window's cutoff (ms): the start of the UTC day `days` days before the day of `nowMs`. */
export function readingsCutoffMs(nowMs: number, days: number): number {
  // A day bucket's start (reading-series.ts): the series' days and the window's share bounds.
  const today = bucketStart(nowMs, 1);
  return today - Math.min(Math.max(Math.trunc(days), 0), maxReadingDays) * seriesDayMs;
}

/** The date (ms) of an inspection row that is a reading; undefined for a visit or no date. */
export function readingDateMs(values: Values | undefined): number | undefined {
  if (values === undefined) return undefined;
  const date = values.date;
  if (typeof date !== "string" || !isReadingRow(values)) return undefined;
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The stamp a feed entry of an inspection gets: the later of the row's dates before and after
 * the change when it was a reading both times (a row never seen counts as it is after), else
 * undefined (never held).
 */
export function heldUntilMs(
  before: RowState | undefined,
  after: RowState | undefined,
): number | undefined {
  const then = readingDateMs((before ?? after)?.values);
  const now = readingDateMs(after?.values);
  if (then === undefined || now === undefined) return undefined;
  return Math.max(then, now);
}

/**
 * Whether a windowed Pull sends an inspection's whole state after a change of it: the row was a
 * reading before the change. Only then may a device lack earlier changes: a change is held only
 * between two readings, so the first one sent after held ones begins from a reading, and so does
 * the first change after a device let a reading go.
 */
export const needsState = (before: RowState | undefined): boolean =>
  readingDateMs(before?.values) !== undefined;

/** The inspection an event row refers to, if any. */
export function eventInspectionId(values: Values | undefined): string | undefined {
  if (values?.ref_entity !== "inspection") return undefined;
  return typeof values.ref_id === "string" ? values.ref_id : undefined;
}

/** Whether a device lets an inspection row go at this cutoff: a reading dated before it. */
export function outOfWindow(values: Values | undefined, cutoffMs: number): boolean {
  const date = readingDateMs(values);
  return date !== undefined && date < cutoffMs;
}

/**
 * A row's state as changes whose merge (in any order, into any replica) gives exactly that
 * state: one upsert per distinct column stamp, an add per photo at its tag, the removed tags,
 * and the delete at its stamp. `authorId` is left empty: the changes were written before.
 */
export function stateChanges(
  entity: EntityName,
  entityId: string,
  scopeId: string,
  state: RowState,
): Change[] {
  const spec = entities[entity];
  const byStamp = new Map<Hlc, Values>();
  const at = (hlc: Hlc): Values => {
    let payload = byStamp.get(hlc);
    if (payload === undefined) {
      payload = {};
      byStamp.set(hlc, payload);
    }
    return payload;
  };
  let latest: Hlc | undefined;
  const removed: [string, Hlc[]][] = [];
  for (const [column, stamp] of Object.entries(state.clock)) {
    if (column === deletedKey) continue;
    at(stamp)[column] = state.values[column];
    if (latest === undefined || stamp > latest) latest = stamp;
  }
  for (const [column, columnSpec] of Object.entries(spec.columns)) {
    if (columnSpec.type !== "orset") continue;
    const set = state.values[column] as OrSetState | undefined;
    if (set === undefined) continue;
    for (const { tag, value } of set.adds) {
      const payload = at(tag);
      const patch = (payload[column] as { add: string[] } | undefined) ?? { add: [] };
      patch.add.push(value);
      payload[column] = patch;
      if (latest === undefined || tag > latest) latest = tag;
    }
    if (set.removed.length > 0) removed.push([column, set.removed]);
    for (const tag of set.removed) if (latest === undefined || tag > latest) latest = tag;
  }
  const changes: Change[] = [...byStamp].map(([hlc, payload]) => ({
    entity,
    entityId,
    scopeId,
    op: "upsert",
    payload,
    hlc,
    authorId: "",
  }));
  // A removal's stamp does not matter to the set (it names tags); the latest keeps it ordinary.
  for (const [column, tags] of removed) {
    changes.push({
      entity,
      entityId,
      scopeId,
      op: "upsert",
      payload: { [column]: { remove: [...tags] } },
      hlc: latest as Hlc,
      authorId: "",
    });
  }
  const deletedAt = state.clock[deletedKey];
  if (state.deleted && deletedAt !== undefined) {
    changes.push({
      entity,
      entityId,
      scopeId,
      op: "delete",
      payload: {},
      hlc: deletedAt,
      authorId: "",
    });
  }
  return changes;
}

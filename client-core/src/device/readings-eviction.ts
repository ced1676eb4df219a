/**
 * The device half of the readings window (core/readings-window.ts): the replica lets go of the
 * readings dated before the cutoff of the last windowed page, with their INSPECTION events.
 *
 * What is looked at: the inspections a page just wrote, and, when the cutoff has moved on since
 * the last time, the inspections dated between the two cutoffs (the `[live+values.date]` index,
 * live and not). Older ones were let go before, or arrived since through a page, which looked at
 * them.
 *
 * Never let go: a row with changes of this device still pending (it has a `base`), nor one whose
 * changes the server confirmed but whose echo may not have been pulled yet (`unechoedKey`). The
 * device's view of such a row is ahead of the feed: it may call a row an out-of-window reading
 * that, in the feed's order, is not one before the echo, so the echo would come without the
 * row's whole state and find nothing to merge into. Those rows are looked at once a pull that
 * began after their confirmation reached the end of the feed (`settleUnechoed`).
 * Each runs inside the caller's transaction (inspection, event and meta tables).
 */
import { Dexie } from "dexie";
import { eventInspectionId, outOfWindow } from "../core/readings-window.ts";
import {
  type DeviceRow,
  entityTable,
  type MetaEntry,
  orderedIndexName,
  type TableSource,
  tablesOf,
} from "./replica-db.ts";

/** meta: the cutoff (ms) the replica last let readings go at. */
export const evictedBelowKey = "readingsEvictedBelow";
/** meta: ids of inspections the server confirmed a change of, not yet pulled back (string[]). */
export const unechoedKey = "readingsUnechoed";

const idsOf = (entry: MetaEntry | undefined): string[] =>
  Array.isArray(entry?.value) ? (entry.value as string[]) : [];

/** Lets go of the out-of-window readings among `written` and, if the cutoff moved, older ones. */
export async function evictReadings(
  tx: TableSource,
  cutoffMs: number,
  written: Iterable<DeviceRow>,
): Promise<number> {
  const { meta } = tablesOf(tx);
  const inspections = entityTable(tx, "inspection");
  const candidates = new Map<string, DeviceRow>();
  for (const row of written) candidates.set(row.id, row);
  const stored = (await meta.get(evictedBelowKey))?.value;
  const below = typeof stored === "number" ? stored : undefined;
  if (below === undefined || cutoffMs > below) {
    const from = below === undefined ? Dexie.minKey : new Date(below).toISOString();
    const to = new Date(cutoffMs).toISOString();
    const index = orderedIndexName({ order: "date" });
    for (const live of [0, 1]) {
      const rows = await inspections
        .where(index)
        .between([live, from], [live, to], true, false)
        .toArray();
      for (const row of rows) candidates.set(row.id, row);
    }
    await meta.put({ key: evictedBelowKey, value: cutoffMs });
  }
  const unechoed = new Set(idsOf(await meta.get(unechoedKey)));
  return letGo(
    tx,
    [...candidates.values()].filter((row) => !unechoed.has(row.id)),
    cutoffMs,
  );
}

/** The server confirmed changes of these inspections: kept until their echo may have come. */
export async function noteUnechoed(tx: TableSource, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const { meta } = tablesOf(tx);
  const all = new Set([...idsOf(await meta.get(unechoedKey)), ...ids]);
  await meta.put({ key: unechoedKey, value: [...all] });
}

/** The unechoed ids now: what a pull that begins now settles when it reaches the feed's end. */
export async function unechoedNow(tx: TableSource): Promise<string[]> {
  return idsOf(await tablesOf(tx).meta.get(unechoedKey));
}

/**
 * A pull that began when `ids` were unechoed reached the feed's end: their echoes are in. They
 * are no longer kept for it, and go if they are out-of-window readings.
 */
export async function settleUnechoed(
  tx: TableSource,
  ids: readonly string[],
  cutoffMs: number | undefined,
): Promise<void> {
  if (ids.length === 0) return;
  const { meta } = tablesOf(tx);
  const settled = new Set(ids);
  const left = idsOf(await meta.get(unechoedKey)).filter((id) => !settled.has(id));
  await meta.put({ key: unechoedKey, value: left });
  if (cutoffMs === undefined) return;
  const still = new Set(left);
  const rows = await entityTable(tx, "inspection").bulkGet(ids.filter((id) => !still.has(id)));
  await letGo(
    tx,
    rows.filter((row): row is DeviceRow => row !== undefined),
    cutoffMs,
  );
}

/** Deletes the out-of-window readings among `rows` (nothing pending) and their events. */
async function letGo(tx: TableSource, rows: readonly DeviceRow[], cutoffMs: number) {
  const gone = rows
    .filter((row) => row.base === undefined && outOfWindow(row.values, cutoffMs))
    .map((row) => row.id);
  if (gone.length === 0) return 0;
  await entityTable(tx, "inspection").bulkDelete(gone);
  const events = entityTable(tx, "event");
  const ids = new Set(gone);
  const theirs = await events.where("values.ref_id").anyOf(gone).toArray();
  await events.bulkDelete(
    theirs
      .filter((e) => e.base === undefined && ids.has(eventInspectionId(e.values) ?? ""))
      .map((e) => e.id),
  );
  return gone.length;
}

/**
 * The device half of the readings window (core/readings-window.ts): the replica lets go of the
 * readings dated before the cutoff of the last windowed page, with their INSPECTION events. A
 * row with changes of this device still pending (it has a `base`) stays until they are
 * confirmed. Runs inside the caller's transaction (inspection, event and meta tables).
 *
 * What is looked at: the inspections a page or an acknowledgement just wrote, and, when the
 * cutoff has moved on since the last time, the inspections dated between the two cutoffs (the
 * `[live+values.date]` index, live and not). Older ones were let go before, or arrived since
 * through a page or an acknowledgement, which looked at them.
 */
import { Dexie } from "dexie";
import { eventInspectionId, outOfWindow } from "../core/readings-window.ts";
import {
  type DeviceRow,
  entityTable,
  orderedIndexName,
  type TableSource,
  tablesOf,
} from "./replica-db.ts";

/** meta: the cutoff (ms) the replica last let readings go at. */
export const evictedBelowKey = "readingsEvictedBelow";

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
  const gone = [...candidates.values()]
    .filter((row) => row.base === undefined && outOfWindow(row.values, cutoffMs))
    .map((row) => row.id);
  if (gone.length === 0) return 0;
  await inspections.bulkDelete(gone);
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

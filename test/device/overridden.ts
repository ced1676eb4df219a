/**
 * The oracle of issue 25's "every overridden user write is noticed on the device that wrote it",
 * computed from what the property test's driver saw (which device synced when, what each sync
 * pushed, what the server accepted during it) and the rows every replica holds at the end. It
 * knows nothing of the notice code: it says which writes sync overrode, the test checks that
 * each has a notice (by record key, whatever its kind: one notice per record, the first reason
 * kept) on the device that wrote it.
 *
 * A device's *write* is a change it pushed (its outbox just before a sync) that sets a scalar
 * column or adds a photo (an OR-set add), of a record the user writes: placements and events
 * are the records' bookkeeping and give no notices (the record itself gets one); deletes and
 * photo removals lose nothing of the user's (what they asked for is gone either way). A sync
 * pushes, then pulls to the end of the feed; "before push k" means "accepted by the server
 * during an earlier sync of any device". The write is *overridden* when, with `k` the sync
 * that pushed it and no delete of that record by the writing device itself:
 *
 * (a) deleted: the record ends deleted, and a delete of it (another device's, or the server's
 *     repair) was accepted before push k: the device worked on what was already gone;
 * (b) overwritten: a scalar column it set ends with another node's newer stamp (another
 *     device's or the server's), and that stamp was accepted before push k, so the server held
 *     a newer value when the write arrived (Push reports it in `conflicts`);
 * (c) orphaned: a record of a hive (inspection, queen, task, treatment, harvest) whose hive
 *     ends deleted, by a delete not the device's own accepted before push k.
 *
 * Conservative on purpose, as the notices are (docs/decisions.md, issue 25): a delete that
 * reached the server after the write is not counted, since the deleter could have seen it, nor
 * one the writing device had already pulled when it wrote (accepted before its previous sync:
 * it knew the record or its hive was gone, e.g. deleting the queen of a deleted hive re-freezes
 * that hive's inspections); a
 * column that lost to a write accepted later (in the same push, as the reigning-queen repair
 * does, or after) is not counted either: Push could not report it. A hive the server's repair
 * moved out of a deleted apiary (its apiary was deleted) is the `moved` notice, checked apart
 * by the property test from the repair's own events.
 */
import { type Change, type EntityName, entities } from "@hivekeep/client-core/core";
import { ChangeOp, type Change as FeedChange } from "@hivekeep/proto";
import type { ReplicaRow } from "./harness.ts";

/** What the driver saw of one sync: who synced, what it pushed, what the server accepted. */
export interface SyncRecord {
  readonly device: number;
  readonly pushed: readonly Change[];
  readonly accepted: readonly FeedChange[];
}

export interface Overridden {
  readonly device: number;
  /** `entity/id` of the record, as a notice's key. */
  readonly key: string;
  readonly reason: "deleted" | "overwritten" | "orphaned";
  /** The write: `entity/id@hlc` and the columns concerned. */
  readonly write: string;
}

const bookkeeping: ReadonlySet<string> = new Set(["placement", "event"]);
const hiveRecords: ReadonlySet<string> = new Set([
  "inspection",
  "queen",
  "task",
  "treatment",
  "harvest",
]);

/** Whether a stamp was issued by a client (tab) of the replica whose node is `node`. */
export function stampedBy(hlc: string, node: string): boolean {
  const n = hlc.slice(hlc.indexOf(":", 16) + 1);
  return node !== "" && (n === node || n.startsWith(`${node.slice(0, 57)}-`));
}

/** Every write of a device that sync overrode, by the definition above. */
export function overriddenWrites(
  syncs: readonly SyncRecord[],
  rows: Readonly<Record<string, readonly ReplicaRow[]>>,
  nodes: readonly string[],
): Overridden[] {
  const acceptedAt = new Map<string, number>();
  const firstDelete = new Map<string, number>();
  syncs.forEach((s, i) => {
    for (const c of s.accepted) {
      const key = `${c.entity}/${c.entityId}`;
      if (!acceptedAt.has(`${key}@${c.hlc}`)) acceptedAt.set(`${key}@${c.hlc}`, i);
      if (c.op === ChangeOp.DELETE && !firstDelete.has(key)) firstDelete.set(key, i);
    }
  });
  const byKey = new Map<string, ReplicaRow>();
  for (const [entity, list] of Object.entries(rows)) {
    for (const row of list) byKey.set(`${entity}/${row.id}`, row);
  }
  const deletedBy = nodes.map(() => new Set<string>());
  for (const s of syncs) {
    for (const c of s.pushed) {
      if (c.op === "delete") deletedBy[s.device]?.add(`${c.entity}/${c.entityId}`);
    }
  }
  const out: Overridden[] = [];
  /** Each device's latest sync so far: its writes pushed at sync k were made after it. */
  const lastSync = new Map<number, number>();
  syncs.forEach((s, k) => {
    const node = nodes[s.device] ?? "";
    const mine = deletedBy[s.device] ?? new Set<string>();
    const previous = lastSync.get(s.device) ?? -1;
    lastSync.set(s.device, k);
    // A delete accepted before the device's previous sync had reached the device (that sync
    // pulled to the end of the feed) before it wrote: it worked on what it knew was gone (the
    // queen of a deleted hive, deleted, re-freezes that hive's inspections), nothing overrode it.
    const goneBefore = (key: string) => {
      const at = firstDelete.get(key);
      return at !== undefined && at < k && at > previous && !mine.has(key);
    };
    for (const c of s.pushed) {
      if (bookkeeping.has(c.entity) || c.op === "delete") continue;
      const spec = entities[c.entity as EntityName];
      const key = `${c.entity}/${c.entityId}`;
      if (mine.has(key)) continue;
      const scalar = Object.keys(c.payload).filter((col) => spec.columns[col]?.type !== "orset");
      const adds = Object.keys(c.payload).filter((col) => {
        const patch = c.payload[col] as { add?: unknown[] } | null;
        return spec.columns[col]?.type === "orset" && (patch?.add?.length ?? 0) > 0;
      });
      if (scalar.length === 0 && adds.length === 0) continue;
      const write = (cols: readonly string[]) => `${key}@${c.hlc} [${cols.join(", ")}]`;
      const row = byKey.get(key);
      if (goneBefore(key)) {
        out.push({ device: s.device, key, reason: "deleted", write: write([...scalar, ...adds]) });
      }
      const lost = scalar.filter((col) => {
        const winner = row?.clock[col];
        if (winner === undefined || winner <= c.hlc || stampedBy(winner, node)) return false;
        const at = acceptedAt.get(`${key}@${winner}`);
        return at !== undefined && at < k;
      });
      if (lost.length > 0)
        out.push({ device: s.device, key, reason: "overwritten", write: write(lost) });
      if (hiveRecords.has(c.entity)) {
        const hiveId = row?.values.hive_id ?? c.payload.hive_id;
        if (typeof hiveId === "string" && hiveId !== "" && goneBefore(`hive/${hiveId}`)) {
          out.push({
            device: s.device,
            key,
            reason: "orphaned",
            write: write([...scalar, ...adds]),
          });
        }
      }
    }
  });
  return out;
}

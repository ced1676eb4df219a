/**
 * The stored record of a hive's life (inspection, treatment, harvest) and the live events that
 * point at it, as its update and delete need them (core/commands/event.ts: rewriteRecordOfHive,
 * removeRecordOfHive), read inside the write.
 */
import type { EventType, HiveRecordState } from "../core/commands/event.ts";
import type { ReplicaReader } from "./replica-store.ts";

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** undefined when the record does not exist (live) in the tenant, or `id` is empty. */
export async function hiveRecordState(
  r: ReplicaReader,
  entity: "inspection" | "treatment" | "harvest",
  id: string,
  type: EventType,
): Promise<HiveRecordState | undefined> {
  if (id === "") return undefined;
  const row = await r.get(entity, id);
  if (!row) return undefined;
  const { rows: events } = await r.list("event", {
    where: [
      { column: "ref_entity", eq: entity },
      { column: "ref_id", eq: id },
      { column: "type", eq: type },
    ],
    orderBy: [{ column: "id" }],
  });
  return {
    id,
    scopeId: row.scopeId,
    hiveId: text(row.values.hive_id),
    date: text(row.values.date),
    apiaryId: text(row.values.apiary_id),
    queenId: text(row.values.queen_id),
    events: events.map((e) => ({
      id: e.id,
      scopeId: e.scopeId,
      type: Number(e.values.type ?? 0) as EventType,
      date: text(e.values.date),
      apiaryId: text(e.values.apiary_id),
      queenId: text(e.values.queen_id),
      title: text(e.values.title),
      amountKg: Number(e.values.amount_kg ?? 0),
    })),
  };
}

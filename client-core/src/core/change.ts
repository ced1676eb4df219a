import type { EntityName } from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import type { Values } from "./merge.ts";

export type ChangeOp = "upsert" | "delete";

/**
 * One entity change: the unit of every write, whether a device pushes it or a
 * service operation produces it. `payload` holds only the columns the change
 * sets (snake_case), never organization_id, clock, deleted or scope_id.
 */
export interface Change {
  readonly entity: EntityName;
  readonly entityId: string;
  /** The apiary id, or `user:<userId>` for personal records. */
  readonly scopeId: string;
  readonly op: ChangeOp;
  readonly payload: Values;
  readonly hlc: Hlc;
  readonly authorId: string;
}

/**
 * A row's key across entities ("hive/<id>"): the one form of every replica's row maps, the
 * server's batches and the device's outbox index (stored, so the form is kept).
 */
export const rowKey = (entity: EntityName, id: string): string => `${entity}/${id}`;

/** A change in its wire form (the proto `Change` as a plain object, `op` as its number). */
export const toWire = (change: Change) => ({
  entity: change.entity,
  entityId: change.entityId,
  scopeId: change.scopeId,
  op: change.op === "delete" ? 2 : 1,
  payloadJson: JSON.stringify(change.payload),
  hlc: change.hlc,
  authorId: change.authorId,
});

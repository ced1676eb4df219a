/**
 * A record deleted on another device, as the replica last held it (issue 25): a tombstone keeps
 * its row's values (merge.ts), so the page of the person who was working on it can say it was
 * deleted, when, and keep showing what it was, instead of "Not found". Only tombstoned rows
 * answer; a live or unknown one is undefined.
 */
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { HiveSchema, InspectionSchema } from "@hivekeep/proto";
import type { EntityName } from "../core/entities.ts";
import { type Hlc, hlcMs } from "../core/hlc.ts";
import { deletedKey } from "../core/merge.ts";
import type { ReplicaStore } from "../ops/replica-store.ts";
import { toProto } from "../ops/to-proto.ts";
import { isOwnStamp } from "./notices.ts";

export interface Removed<T> {
  /** The record as the replica last held it. */
  readonly record: T;
  /** When it was deleted (RFC 3339), from its delete stamp. */
  readonly deletedAt: string;
  /** Deleted by another device (or the server), not by a client of this replica. */
  readonly elsewhere: boolean;
}

async function removedRecord<Desc extends DescMessage>(
  store: ReplicaStore,
  organizationId: string,
  node: string,
  entity: EntityName,
  schema: Desc,
  id: string,
): Promise<Removed<MessageShape<Desc>> | undefined> {
  if (id === "") return undefined;
  const row = await store.read((r) => r.get(entity, id, { evenDeleted: true }));
  if (row === undefined || !row.deleted) return undefined;
  const stamp = row.clock[deletedKey] as Hlc | undefined;
  return {
    record: toProto(schema, entity, row, organizationId),
    deletedAt: stamp === undefined ? "" : new Date(hlcMs(stamp)).toISOString(),
    elsewhere: !isOwnStamp(stamp, node),
  };
}

/** The deleted hives and inspections of a replica (the pages that show them). */
export function removedRecords(store: ReplicaStore, organizationId: string, node: string) {
  return {
    hive: (id: string) => removedRecord(store, organizationId, node, "hive", HiveSchema, id),
    inspection: (id: string) =>
      removedRecord(store, organizationId, node, "inspection", InspectionSchema, id),
  };
}

export type RemovedRecords = ReturnType<typeof removedRecords>;

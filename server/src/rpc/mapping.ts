/** The proto ⇄ domain mapping, in one module. */
import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Apiary, ApiarySchema, type Change, ChangeOp, ChangeSchema } from "@hivekeep/proto";
import type { ApiaryRow } from "../store/apiaries.ts";
import type { FeedRow } from "../store/feed.ts";

export const toTimestamp = (d: Date | null | undefined): Timestamp | undefined =>
  d ? timestampFromDate(d) : undefined;

/** A request timestamp as an RFC 3339 string (ms precision, UTC), or the fallback. */
export const isoOr = (ts: Timestamp | undefined, fallback: Date): string =>
  (ts ? timestampDate(ts) : fallback).toISOString();

export function apiaryToProto(row: ApiaryRow): Apiary {
  return create(ApiarySchema, {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    address: row.address ?? "",
    lat: row.lat ?? 0,
    lng: row.lng ?? 0,
    hiveCount: Number(row.hive_count),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  });
}

export function feedRowToProto(row: FeedRow): Change {
  return create(ChangeSchema, {
    entity: row.entity,
    entityId: row.entityId,
    scopeId: row.scopeId,
    op: row.op === 2 ? ChangeOp.DELETE : ChangeOp.UPSERT,
    payloadJson: row.payload,
    hlc: row.hlc,
    authorId: row.authorId,
  });
}

/** The proto ⇄ domain mapping, in one module. */
import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { entities } from "@hivekeep/client-core/core";
import { type Apiary, ApiarySchema, type Change, ChangeOp, ChangeSchema } from "@hivekeep/proto";
import type { ApiaryRow } from "../store/apiaries.ts";
import type { FeedRow } from "../store/feed.ts";
import { rowToProto } from "./row-to-proto.ts";

export const toTimestamp = (d: Date | null | undefined): Timestamp | undefined =>
  d ? timestampFromDate(d) : undefined;

/** A request timestamp as an RFC 3339 string (ms precision, UTC), or the fallback. */
export const isoOr = (ts: Timestamp | undefined, fallback: Date): string =>
  (ts ? timestampDate(ts) : fallback).toISOString();

export const apiaryToProto = (row: ApiaryRow): Apiary =>
  rowToProto(ApiarySchema, entities.apiary, row, { hive_count: Number(row.hive_count) });

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

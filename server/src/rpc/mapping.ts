/** Feed rows → proto `Change` (the record mapping is client-core's ops/to-proto.ts). */
import { create } from "@bufbuild/protobuf";
import { type Change, ChangeOp, ChangeSchema } from "@hivekeep/proto";
import type { FeedRow } from "../store/feed.ts";

export function feedRowToProto(row: FeedRow): Change {
  return create(ChangeSchema, {
    entity: row.entity,
    entityId: row.entityId,
    scopeId: row.scopeId,
    op: row.op === 2 ? ChangeOp.DELETE : ChangeOp.UPSERT,
    payloadJson: row.payloadJson,
    hlc: row.hlc,
    authorId: row.authorId,
  });
}

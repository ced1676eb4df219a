/** The proto ⇄ domain mapping, in one module. */
import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { invalid } from "@hivekeep/client-core/core";
import { type Change, ChangeOp, ChangeSchema } from "@hivekeep/proto";
import type { FeedRow } from "../store/feed.ts";

export const toTimestamp = (d: Date | null | undefined): Timestamp | undefined =>
  d ? timestampFromDate(d) : undefined;

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const minMs = -62_135_596_800_000;
const maxMs = 253_402_300_799_999;

/**
 * A request timestamp as an RFC 3339 string (ms precision, UTC). Binary
 * clients can send any seconds value; outside years 0001–9999 it is
 * invalid_argument naming the field, never an internal error.
 */
export function isoOf(ts: Timestamp, field: string): string {
  const d = timestampDate(ts);
  const ms = d.getTime();
  if (Number.isNaN(ms) || ms < minMs || ms > maxMs) {
    throw invalid(field, `${field} must be a date between the years 0001 and 9999`);
  }
  return d.toISOString();
}

/** isoOf, or the fallback (e.g. now) when the timestamp is left out. */
export const isoOr = (ts: Timestamp | undefined, fallback: Date, field: string): string =>
  ts ? isoOf(ts, field) : fallback.toISOString();

/** isoOf, or null (unset) when the timestamp is left out. */
export const isoOrNull = (ts: Timestamp | undefined, field: string): string | null =>
  ts ? isoOf(ts, field) : null;

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

/**
 * A write plan's rows and feed entries (write-plan.ts) as the JSON text its statements read
 * (apply-changes.ts): one JSON array of records per statement, which `json_to_recordset` turns
 * into rows. A record's names are its table's columns.
 *
 * One JSON.stringify per statement, of plain objects: measured against the hand-spliced text
 * this replaced (issue 24), a clock built as its stored object (`packClock`) and one stringify
 * of the whole array cost the same or less, and a stringify per record and joining the texts
 * cost about 7% more of a Push's merge and encoding.
 */
import {
  type EntityName,
  hasPhotoSets,
  isEntityName,
  payloadWithPhotoRefs,
  type Values,
} from "@hivekeep/client-core/core";
import { sha256Base64url } from "../rpc/photo-hash.ts";
import { changeHead } from "./feed.ts";
import { packClock } from "./stored-clock.ts";
import type { FeedEntry, RowWrite } from "./write-plan.ts";

/** The records of an entity table's insert or upsert (`entitySql`): the rows' whole state. */
export const rowRecordsJson = (rows: readonly RowWrite[]): string =>
  JSON.stringify(rows.map(rowRecord));

/** The records of the feed's insert (`feedSql` in apply-changes.ts). */
export const feedRecordsJson = (entries: readonly FeedEntry[]): string =>
  JSON.stringify(entries.map(feedRecord));

const rowRecord = (row: RowWrite) => ({
  ...row.state.values,
  id: row.id,
  scope_id: row.scopeId,
  deleted: row.state.deleted,
  complete: row.complete,
  clock: packClock(row.state.clock),
});

/**
 * A change's payload with each photo it adds as its reference (client-core photo-ref.ts, the
 * server's hash), as JSON: what a Pull with photo references sends (migration 009). Undefined
 * when the change adds no photo (the payload is sent as it is).
 */
export function payloadRefs(entity: string, payload: Values): string | undefined {
  if (!isEntityName(entity) || !hasPhotoSets(entity as EntityName)) return undefined;
  const out = payloadWithPhotoRefs(entity, payload, sha256Base64url);
  return out === payload ? undefined : JSON.stringify(out);
}

function feedRecord({ seq, change, carries, heldUntil, withState }: FeedEntry) {
  const op = change.op === "delete" ? 2 : 1;
  return {
    seq,
    entity: change.entity,
    entity_id: change.entityId,
    scope_id: change.scopeId,
    op,
    // Nested, not a string: json_to_recordset hands a json field over as its exact text, which
    // is JSON.stringify of the object (no escaping twice).
    payload: change.payload,
    payload_refs: payloadRefs(change.entity, change.payload),
    hlc: change.hlc,
    author_id: change.authorId,
    // The change as Pull will send it (with the payload), encoded once, here.
    change_head: changeHead({
      entity: change.entity,
      entity_id: change.entityId,
      scope_id: change.scopeId,
      op,
      hlc: change.hlc,
      author_id: change.authorId,
    }),
    // The readings window (readings-window.ts); absent: never left out of a windowed Pull.
    held_until: heldUntil === undefined ? undefined : new Date(heldUntil).toISOString(),
    with_state: withState,
    // Only on an entry that also writes its row (undefined members are left out).
    row_complete: carries?.complete,
    row_clock: carries === undefined ? undefined : packClock(carries.clock),
  };
}

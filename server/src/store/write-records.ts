/**
 * A write plan's rows and feed entries (write-plan.ts) as the JSON text its statements read
 * (apply-changes.ts): one JSON array of records per statement, which `json_to_recordset` turns
 * into rows. Field names are the tables' columns.
 */
import { changeHead } from "./feed.ts";
import { clockJson } from "./stored-clock.ts";
import type { FeedEntry, RowWrite } from "./write-plan.ts";

/** The records of an entity table's insert or upsert (`entitySql`): the rows' whole state. */
export const rowRecordsJson = (rows: readonly RowWrite[]): string => jsonArray(rows.map(rowRecord));

/** The records of the feed's insert (`feedSql` in apply-changes.ts). */
export const feedRecordsJson = (entries: readonly FeedEntry[]): string =>
  jsonArray(entries.map(feedRecord));

function rowRecord(row: RowWrite): string {
  const record = JSON.stringify({
    ...row.state.values,
    id: row.id,
    scope_id: row.scopeId,
    deleted: row.state.deleted,
    complete: row.complete,
  });
  return withMember(record, "clock", clockJson(row.state.clock));
}

function feedRecord({ seq, change, carries }: FeedEntry): string {
  const head = {
    entity: change.entity,
    entity_id: change.entityId,
    scope_id: change.scopeId,
    op: change.op === "delete" ? 2 : 1,
    hlc: change.hlc,
    author_id: change.authorId,
  };
  const record = JSON.stringify({
    seq,
    ...head,
    // Nested, not a string: json_to_recordset hands a json field over as its exact text, which
    // is JSON.stringify of the object (no escaping twice).
    payload: change.payload,
    // The change as Pull will send it (with the payload), encoded once, here.
    change_head: changeHead(head),
    // Only on an entry that also writes its row (undefined is left out).
    row_complete: carries?.complete,
  });
  return carries === undefined ? record : withMember(record, "row_clock", clockJson(carries.clock));
}

/** A JSON array of items already JSON text. */
const jsonArray = (items: readonly string[]): string => `[${items.join(",")}]`;

/**
 * `objectJson` (an object's JSON text, as JSON.stringify writes it) with the member
 * `"name": valueJson` added last. The one place JSON is spliced by hand, for the stored clock
 * (stored-clock.ts): it is an object keyed by HLCs, and building that object (`packClock`) and
 * having JSON.stringify walk it cost more than writing its text directly (`clockJson`): objects
 * with such keys are slow dictionaries.
 */
export function withMember(objectJson: string, name: string, valueJson: string): string {
  const separator = objectJson === "{}" ? "" : ",";
  return `${objectJson.slice(0, -1)}${separator}${JSON.stringify(name)}:${valueJson}}`;
}

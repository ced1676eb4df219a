/** Reads of the event log (contract §6). Events are written only by commands. */

import type { Queryable, Row } from "../db/db.ts";
import { stampSql } from "./stored-clock.ts";

export interface EventFilter {
  /** "" = no filter. */
  readonly apiaryId: string;
  readonly hiveId: string;
  readonly queenId: string;
}

/**
 * Live events, newest first. Events of the same instant come in reverse
 * recording order: the HLC of the event's creation (the stamp of its `type`
 * column, written once since events are append-only) breaks the tie, so a
 * QUEEN_INTRODUCED is listed before the QUEEN_REPLACED recorded just before
 * it. HLCs compare as plain strings, hence `collate "C"`.
 */
export async function listEvents(
  q: Queryable,
  organizationId: string,
  filter: EventFilter,
  limit: number,
): Promise<Row[]> {
  return q.query(
    `select * from events
     where organization_id = $1 and complete and not deleted
       and ($2 = '' or apiary_id = $2)
       and ($3 = '' or hive_id = $3)
       and ($4 = '' or queen_id = $4)
     order by date desc, ${stampSql("type")} collate "C" desc, id desc
     limit $5`,
    [organizationId, filter.apiaryId, filter.hiveId, filter.queenId, limit],
  );
}

/**
 * Reads of placements: the intervals during which a hive stands at an apiary
 * (ended_at null = open). They have no service; RelocateHive and DeleteHive
 * close the open one, and devices see them only in the change feed.
 */
import type { Hlc } from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";
import { unpackClock } from "./stored-clock.ts";

export interface OpenPlacementRow {
  readonly id: string;
  readonly apiaryId: string;
  /** RFC 3339. */
  readonly startedAt: string;
  readonly clock: Readonly<Record<string, Hlc>>;
}

/** The live placements of a hive that have not ended, oldest first. */
export async function openPlacements(
  q: Queryable,
  organizationId: string,
  hiveId: string,
): Promise<OpenPlacementRow[]> {
  const rows = await q.query<{
    id: string;
    apiary_id: string;
    started_at: Date | string;
    clock: unknown;
  }>(
    `select id, apiary_id, started_at, clock from placements
     where organization_id = $1 and hive_id = $2 and complete and not deleted
       and ended_at is null
     order by started_at, id`,
    [organizationId, hiveId],
  );
  return rows.map((r) => ({
    id: r.id,
    apiaryId: r.apiary_id,
    startedAt: new Date(r.started_at).toISOString(),
    clock: unpackClock(r.clock),
  }));
}

/**
 * Where a hive stood and which queen reigned at a given time. Inspections,
 * treatments and harvests freeze both as of their date, so a back-dated
 * record gets the apiary and queen of that date.
 */
import { entities } from "@hivekeep/client-core/core";
import type { Queryable, Row } from "../db/db.ts";
import { getLive } from "./rows.ts";

export interface HiveAt {
  readonly hive: Row;
  readonly apiaryId: string;
  /** "" when no queen reigned at that time. */
  readonly queenId: string;
}

/** undefined when the hive does not exist (live) in the tenant. */
export async function hiveAt(
  q: Queryable,
  organizationId: string,
  hiveId: string,
  at: string,
): Promise<HiveAt | undefined> {
  const hive = await getLive(q, entities.hive, organizationId, hiveId);
  if (!hive) return undefined;
  // The placement covering `at`; before the first placement, the first one.
  const [placement] = await q.query<{ apiary_id: string }>(
    `select apiary_id from placements
     where organization_id = $1 and hive_id = $2 and complete and not deleted
     order by (started_at <= $3::timestamptz and (ended_at is null or ended_at > $3::timestamptz)) desc,
       started_at asc
     limit 1`,
    [organizationId, hiveId, at],
  );
  const [queen] = await q.query<{ id: string }>(
    `select id from queens
     where organization_id = $1 and hive_id = $2 and complete and not deleted
       and coalesce(introduced_at, created_at) <= $3::timestamptz
       and (replaced_at is null or replaced_at > $3::timestamptz)
     order by coalesce(introduced_at, created_at) desc, id desc
     limit 1`,
    [organizationId, hiveId, at],
  );
  return {
    hive,
    apiaryId: placement?.apiary_id ?? String(hive.apiary_id ?? ""),
    queenId: queen?.id ?? "",
  };
}

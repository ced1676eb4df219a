/** Reads of queens beyond the generic ones of rows.ts (writes go through the one write path). */
import type { Hlc } from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";
import { unpackClock } from "./stored-clock.ts";

export interface ActiveQueen {
  readonly id: string;
  readonly year: number;
  /** The row's stamps, for the server clock to observe before it replaces the queen. */
  readonly clock: Readonly<Record<string, Hlc>>;
}

/** The live queens of a hive marked active (normally at most one), oldest first. */
export async function activeQueens(
  q: Queryable,
  organizationId: string,
  hiveId: string,
): Promise<ActiveQueen[]> {
  const rows = await q.query<{ id: string; year: number | null; clock: unknown }>(
    `select id, year, clock from queens
     where organization_id = $1 and hive_id = $2 and active and complete and not deleted
     order by coalesce(introduced_at, created_at), id`,
    [organizationId, hiveId],
  );
  return rows.map((r) => ({ id: r.id, year: Number(r.year ?? 0), clock: unpackClock(r.clock) }));
}

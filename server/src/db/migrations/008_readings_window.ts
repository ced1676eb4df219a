/**
 * The step of migration 008 that SQL cannot do: the feed rows already there of inspections that
 * are readings now (client-core `readingDateMs`, TypeScript) and of their INSPECTION events get
 * the reading's date as `held_until`. For history written before the window existed, the row's
 * present state decides for all its changes: a reading dated before a Pull's cutoff is left out
 * whole, and every later change of it carries `with_state` (set by the SQL), so it travels with
 * the row's whole state (docs/sync-spec.md "Readings window"). Run by migrate.ts after the SQL, in its
 * transaction.
 */
import { entities, readingDateMs } from "@hivekeep/client-core/core";
import { rowStateFromDb } from "../../store/row-state.ts";
import type { Queryable } from "../db.ts";

/** Inspections read per statement. */
const batch = 5000;

export async function backfillHeldUntil(tx: Queryable): Promise<void> {
  await tx.exec(
    "create temp table reading_dates (organization_id text, id text, held_until timestamptz) on commit drop",
  );
  let after: [string, string] = ["", ""];
  for (;;) {
    const rows = await tx.query<Record<string, unknown> & { organization_id: string; id: string }>(
      `select * from inspections where (organization_id, id) > ($1, $2)
       order by organization_id, id limit $3`,
      [...after, batch],
    );
    if (rows.length === 0) break;
    const dates = rows.flatMap((row) => {
      const ms = readingDateMs(rowStateFromDb(row, entities.inspection).values);
      return ms === undefined
        ? []
        : [
            {
              organization_id: row.organization_id,
              id: row.id,
              held_until: new Date(ms).toISOString(),
            },
          ];
    });
    if (dates.length > 0) {
      await tx.query(
        `insert into reading_dates select * from json_to_recordset($1::text::json)
           as d(organization_id text, id text, held_until timestamptz)`,
        [JSON.stringify(dates)],
      );
    }
    const last = rows.at(-1) as { organization_id: string; id: string };
    after = [last.organization_id, last.id];
  }
  await tx.exec(`
    update changes c set held_until = r.held_until from reading_dates r
      where c.entity = 'inspection' and c.organization_id = r.organization_id and c.entity_id = r.id;
    update changes c set held_until = r.held_until from events e, reading_dates r
      where c.entity = 'event' and c.organization_id = e.organization_id and c.entity_id = e.id
        and e.ref_entity = 'inspection' and e.organization_id = r.organization_id and e.ref_id = r.id;
  `);
}

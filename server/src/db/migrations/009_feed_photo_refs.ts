/**
 * The step of migration 009: the feed rows already there that add photos get `payload_refs`,
 * the payload with each added photo as its reference, as the write path stores it
 * (store/write-records.ts `payloadRefs`). Run by migrate.ts after the SQL, in its transaction.
 */
import { entityNames, hasPhotoSets } from "@hivekeep/client-core/core";
import { payloadRefs } from "../../store/write-records.ts";
import type { Queryable } from "../db.ts";

/** Rows read per statement (each may hold 20 photos of 512 KiB). */
const batch = 200;

export async function backfillPayloadRefs(tx: Queryable): Promise<void> {
  const withPhotos = JSON.stringify(entityNames.filter(hasPhotoSets));
  let after: [string, number] = ["", 0];
  for (;;) {
    const rows = await tx.query<{
      organization_id: string;
      seq: number | string;
      entity: string;
      payload: string;
    }>(
      `select organization_id, seq, entity, payload from changes
       where (organization_id, seq) > ($1, $2)
         and entity in (select json_array_elements_text($3::text::json))
         and payload like '%"add"%'
       order by organization_id, seq limit $4`,
      [...after, withPhotos, batch],
    );
    if (rows.length === 0) break;
    const refs = rows.flatMap((row) => {
      const text = payloadRefs(row.entity, JSON.parse(row.payload));
      return text === undefined
        ? []
        : [{ organization_id: row.organization_id, seq: Number(row.seq), payload_refs: text }];
    });
    if (refs.length > 0) {
      await tx.query(
        `update changes c set payload_refs = r.payload_refs
         from json_to_recordset($1::text::json) as r(organization_id text, seq bigint, payload_refs text)
         where c.organization_id = r.organization_id and c.seq = r.seq`,
        [JSON.stringify(refs)],
      );
    }
    const last = rows.at(-1) as { organization_id: string; seq: number | string };
    after = [last.organization_id, Number(last.seq)];
  }
}

/**
 * The step of migration 005 that SQL cannot do: each feed row already there
 * gets its Change message's bytes but the payload (`changes.change_head`),
 * encoded as the write path encodes new rows (`changeHead`), so a server
 * upgraded from an older version serves the same Pulls. Run by migrate.ts
 * after 005_feed_wire.sql, in its transaction.
 */
import { changeHead, type HeadColumns } from "../../store/feed.ts";
import type { Queryable } from "../db.ts";

/** Rows read and written per statement: the feed may be long. */
const batch = 5000;

type OldRow = HeadColumns & { organization_id: string; seq: number };

export async function backfillChangeHead(tx: Queryable): Promise<void> {
  // Walks the primary key (organization_id, seq) in order, a batch at a time.
  let after: [string, number] = ["", -1];
  for (;;) {
    const rows = await tx.query<OldRow>(
      `select organization_id, seq, entity, entity_id, scope_id, op, hlc, author_id
       from changes where (organization_id, seq) > ($1, $2)
       order by organization_id, seq limit $3`,
      [...after, batch],
    );
    if (rows.length === 0) break;
    const heads = rows.map((r) => ({
      organization_id: r.organization_id,
      seq: r.seq,
      change_head: changeHead(r),
    }));
    await tx.query(
      `update changes c set change_head = h.change_head
       from json_to_recordset($1::text::json) as h(organization_id text, seq bigint, change_head text)
       where c.organization_id = h.organization_id and c.seq = h.seq`,
      [JSON.stringify(heads)],
    );
    const last = rows.at(-1) as OldRow;
    after = [last.organization_id, Number(last.seq)];
  }
  await tx.exec("alter table changes alter column change_head set not null");
}

/** Reads of apiaries (the writes go through the one write path). */
import type { Queryable, Row } from "../db/db.ts";

/** An apiary row with the number of live hives standing there. */
export type ApiaryRow = Row & { hive_count: number };

const select = `select a.id, a.organization_id, a.name, a.address, a.lat, a.lng,
    a.created_at, a.updated_at,
    (select count(*) from hives h
      where h.organization_id = a.organization_id and h.apiary_id = a.id
        and h.complete and not h.deleted) as hive_count
  from apiaries a`;

export async function getApiary(
  q: Queryable,
  organizationId: string,
  id: string,
): Promise<ApiaryRow | undefined> {
  const [row] = await q.query<ApiaryRow>(
    `${select} where a.organization_id = $1 and a.id = $2 and a.complete and not a.deleted`,
    [organizationId, id],
  );
  return row;
}

export async function listApiaries(
  q: Queryable,
  organizationId: string,
  offset: number,
  limit: number,
): Promise<{ rows: ApiaryRow[]; total: number }> {
  const rows = await q.query<ApiaryRow>(
    `${select} where a.organization_id = $1 and a.complete and not a.deleted
     order by lower(a.name), a.id offset $2 limit $3`,
    [organizationId, offset, limit],
  );
  const [count] = await q.query<{ n: number }>(
    "select count(*) as n from apiaries where organization_id = $1 and complete and not deleted",
    [organizationId],
  );
  return { rows, total: Number(count?.n ?? 0) };
}

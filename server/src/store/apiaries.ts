/** Reads of apiaries (the writes go through the one write path). */
import type { Queryable } from "../db/db.ts";

export interface ApiaryRow {
  id: string;
  organization_id: string;
  name: string;
  address: string | null;
  lat: number | null;
  lng: number | null;
  created_at: Date | null;
  updated_at: Date | null;
  hive_count: number;
}

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
  const [row] = await q.query<ApiaryRow & Record<string, unknown>>(
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
  const rows = await q.query<ApiaryRow & Record<string, unknown>>(
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

/**
 * Generic reads of replicated entity tables, driven by the registry. Only
 * complete, live rows exist for the API (partial rows wait for their create;
 * tombstoned rows are gone).
 */
import type { EntitySpec } from "@hivekeep/client-core/core";
import type { Queryable, Row } from "../db/db.ts";

export interface ListQuery {
  /** column = value filters (value "" or undefined = no filter). */
  readonly equals?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Extra SQL conditions; their parameters are numbered after the others via {n}. */
  readonly extra?: readonly { readonly sql: string; readonly params: readonly unknown[] }[];
  /** ORDER BY clause, e.g. "date desc, id desc". */
  readonly orderBy: string;
  readonly offset: number;
  readonly limit: number;
}

export async function getLive(
  q: Queryable,
  spec: EntitySpec,
  organizationId: string,
  id: string,
): Promise<Row | undefined> {
  const [row] = await q.query(
    `select * from ${spec.table}
     where organization_id = $1 and id = $2 and complete and not deleted`,
    [organizationId, id],
  );
  return row;
}

/** A page of live rows plus the number of all matching rows. */
export async function listLive(
  q: Queryable,
  spec: EntitySpec,
  organizationId: string,
  query: ListQuery,
): Promise<{ rows: Row[]; total: number }> {
  const params: unknown[] = [organizationId];
  const conds = ["organization_id = $1", "complete", "not deleted"];
  for (const [col, value] of Object.entries(query.equals ?? {})) {
    if (value === undefined || value === "") continue;
    if (!(col in spec.columns)) throw new Error(`unknown column ${spec.table}.${col}`);
    params.push(value);
    conds.push(`${col} = $${params.length}`);
  }
  for (const extra of query.extra ?? []) {
    const base = params.length;
    params.push(...extra.params);
    conds.push(`(${extra.sql.replace(/\{(\d+)\}/g, (_, n: string) => `$${base + Number(n)}`)})`);
  }
  const where = conds.join(" and ");
  const rows = await q.query(
    `select * from ${spec.table} where ${where} order by ${query.orderBy}
     offset $${params.length + 1} limit $${params.length + 2}`,
    [...params, query.offset, query.limit],
  );
  const [count] = await q.query<{ n: number }>(
    `select count(*) as n from ${spec.table} where ${where}`,
    params,
  );
  return { rows, total: Number(count?.n ?? 0) };
}

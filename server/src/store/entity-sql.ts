/**
 * SQL for the replicated entity tables, derived once from the entity registry
 * so that the store, the migrations test and the registry cannot drift.
 */
import type { ColumnType, EntitySpec } from "@hivekeep/client-core/core";

export const sqlTypes: Readonly<Record<ColumnType, string>> = {
  text: "text",
  float: "double precision",
  int: "integer",
  bool: "boolean",
  enum: "integer",
  timestamp: "timestamptz",
  id: "text",
  orset: "jsonb",
};

export interface EntitySql {
  /** select the stored state of the rows with the ids in $2 (a JSON array). */
  readonly load: string;
  /** upsert whole rows given as a JSON array of records in $2. */
  readonly upsert: string;
  /** insert new rows given as a JSON array of records in $2. */
  readonly insert: string;
}

/**
 * SQL: the ids of the JSON array in parameter `param`, as a text[] for
 * `id = any (…)`. An array (not `id in (select …)`) lets the planner probe the
 * primary key for each id; the semi-join it chose otherwise scanned the whole
 * table, so a Push got slower as the tenant grew.
 */
export const idsSql = (param: string): string =>
  `array(select json_array_elements_text(${param}::text::json))`;

const cache = new Map<string, EntitySql>();

export function entitySql(spec: EntitySpec): EntitySql {
  const hit = cache.get(spec.name);
  if (hit) return hit;
  const cols = Object.keys(spec.columns);
  const meta = ["scope_id", "clock", "deleted", "complete"];
  const recordDef = [
    "id text",
    "scope_id text",
    "clock json",
    "deleted boolean",
    "complete boolean",
    ...cols.map((c) => `${c} ${sqlTypes[spec.columns[c]?.type ?? "text"]}`),
  ].join(", ");
  const all = [...meta, ...cols];
  const insert = `insert into ${spec.table} (organization_id, id, ${all.join(", ")})
      select $1, r.id, ${all.map((c) => `r.${c}`).join(", ")}
      from json_to_recordset($2::text::json) as r(${recordDef})`;
  const built: EntitySql = {
    insert,
    load: `select id, ${all.join(", ")} from ${spec.table}
      where organization_id = $1 and id = any (${idsSql("$2")})`,
    upsert: `${insert}
      on conflict (organization_id, id) do update set
      ${all.map((c) => `${c} = excluded.${c}`).join(", ")}`,
  };
  cache.set(spec.name, built);
  return built;
}

/**
 * A list query (client-core ops/query.ts) as SQL over an entity table, following the rules
 * pinned there: text compares with `collate "C"`, `fold: "ascii"` is `lower(x collate "C")`,
 * a filter on a column's default value also matches null, nulls placed as the term says.
 */
import { type EntityName, entities, readableScopeSql, userScope } from "@hivekeep/client-core/core";
import { defaultOf, type Filter, type ListQuery, type OrderTerm } from "@hivekeep/client-core/ops";
import { stampSql } from "./stored-clock.ts";

const textTypes = new Set(["text", "id"]);

function column(entity: EntityName, name: string): string {
  if (name !== "id" && !(name in entities[entity].columns)) {
    throw new Error(`unknown column ${entity}.${name}`);
  }
  return name;
}

const isText = (entity: EntityName, name: string): boolean =>
  name === "id" || textTypes.has(entities[entity].columns[name]?.type ?? "");

/** The conditions of `where` (after the tenant's, live ones), parameters appended to `params`. */
export function whereSql(
  entity: EntityName,
  where: readonly Filter[],
  params: unknown[],
): string[] {
  return where.map((f) => {
    if ("readableBy" in f) {
      params.push(userScope(f.readableBy));
      return readableScopeSql("scope_id", `$${params.length}`);
    }
    const col = column(entity, f.column);
    if (f.eq === null) return `${col} is null`;
    params.push(f.eq);
    const p = `$${params.length}`;
    return defaultOf(entity, f.column) === f.eq
      ? `(${col} is null or ${col} = ${p})`
      : `${col} = ${p}`;
  });
}

function termSql(entity: EntityName, t: OrderTerm, params: unknown[]): string {
  let expr: string;
  if (t.stamp) {
    expr = `${stampSql(column(entity, t.column))} collate "C"`;
  } else {
    expr = column(entity, t.column);
    if (t.orElse !== undefined) expr = `coalesce(${expr}, ${column(entity, t.orElse)})`;
    if (typeof t.ifNull === "string") {
      params.push(t.ifNull);
      expr = `coalesce(${expr}, $${params.length})`;
    } else if (t.ifNull !== undefined) {
      expr = `coalesce(${expr}, ${JSON.stringify(t.ifNull)})`;
    }
    if (isText(entity, t.column)) {
      expr = t.fold === "ascii" ? `lower(${expr} collate "C")` : `${expr} collate "C"`;
    }
  }
  const nulls = t.nulls ?? (t.desc ? "first" : "last");
  return `${expr} ${t.desc ? "desc" : "asc"} nulls ${nulls}`;
}

/** `order by …` of the query. */
export function orderSql(entity: EntityName, query: ListQuery, params: unknown[]): string {
  return query.orderBy.map((t) => termSql(entity, t, params)).join(", ");
}

/**
 * The facts Push validation needs beyond the target rows: which referenced
 * ids and which apiary scopes exist in the tenant. Read in one query (a union
 * over the referenced tables), inside the Push transaction. Tombstoned rows count as
 * existing: an offline write about a hive deleted meanwhile stays valid
 * (its inspections are legal records).
 */
import {
  type Change,
  type EntityName,
  entities,
  entityNames,
  isUserScope,
  refColumns,
} from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";
import { idsSql } from "./entity-sql.ts";

export interface PushFacts {
  exists(entity: EntityName, id: string): boolean;
}

export async function loadPushFacts(
  tx: Queryable,
  organizationId: string,
  changes: readonly Change[],
): Promise<PushFacts> {
  const wanted = new Map<EntityName, Set<string>>();
  const want = (entity: EntityName, id: string) => {
    if (id === "") return;
    const ids = wanted.get(entity) ?? new Set<string>();
    ids.add(id);
    wanted.set(entity, ids);
  };
  for (const c of changes) {
    if (!isUserScope(c.scopeId)) want("apiary", c.scopeId);
    for (const [column, ref] of refColumns(entities[c.entity])) {
      const value = c.payload[column];
      if (typeof value === "string") want(ref, value);
    }
  }
  const found = new Set<string>();
  if (wanted.size > 0) {
    // In registry order, so there are few distinct statements to prepare.
    const lists = entityNames.flatMap((e) => {
      const ids = wanted.get(e);
      return ids ? [[e, ids] as const] : [];
    });
    // $1 the tenant, then one JSON array of ids per table; entity names come
    // from the registry (never from the request).
    const rows = await tx.query<{ entity: string; id: string }>(
      lists
        .map(
          ([entity], i) =>
            `select '${entity}' as entity, id from ${entities[entity].table}
             where organization_id = $1 and id = any (${idsSql(`$${i + 2}`)})`,
        )
        .join(" union all "),
      [organizationId, ...lists.map(([, ids]) => JSON.stringify([...ids]))],
    );
    for (const r of rows) found.add(`${r.entity}/${r.id}`);
  }
  return { exists: (entity, id) => found.has(`${entity}/${id}`) };
}

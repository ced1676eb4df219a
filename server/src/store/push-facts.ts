/**
 * The facts Push validation needs beyond the target rows: which referenced
 * ids and which apiary scopes exist in the tenant. Read in one query per
 * referenced table, inside the Push transaction. Tombstoned rows count as
 * existing: an offline write about a hive deleted meanwhile stays valid
 * (its inspections are legal records).
 */
import { type Change, type EntityName, entities, isUserScope } from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";

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
    const spec = entities[c.entity];
    for (const [column, value] of Object.entries(c.payload)) {
      const ref = spec.columns[column]?.ref;
      if (ref && typeof value === "string") want(ref, value);
    }
  }
  const found = new Set<string>();
  for (const [entity, ids] of wanted) {
    const rows = await tx.query<{ id: string }>(
      `select id from ${entities[entity].table}
       where organization_id = $1 and id in (select jsonb_array_elements_text($2::text::jsonb))`,
      [organizationId, JSON.stringify([...ids])],
    );
    for (const r of rows) found.add(`${entity}/${r.id}`);
  }
  return { exists: (entity, id) => found.has(`${entity}/${id}`) };
}

/**
 * What a request can carry that no row can hold, answered before any store sees it. The record
 * services read through `requestValuesGuard` (services.ts), so on the server (SQL) and the
 * device (Dexie) alike:
 * - `get` of an id that is not an entity id (the shape Push checks: 1–100 of [A-Za-z0-9_-]) finds
 *   nothing, so the caller gets the `not_found` of an unknown id;
 * - a list filter equal to a value its column can never hold (an id column: not "" nor an entity
 *   id; any column: text with U+0000 or a lone surrogate) matches nothing, like an unknown id;
 * - `countBy` / `maxBy` skip such values (nothing is counted for them).
 * So a NUL or a 1 MB id never reaches SQL (Postgres cannot even compare text holding U+0000),
 * and the answer is the one an unknown well-formed id gets, in one place for every method.
 */
import { isEntityId } from "../core/column-value.ts";
import { type EntityName, entities } from "../core/entities.ts";
import { isStorableText } from "../core/utf8.ts";
import type { Filter, ListQuery } from "./query.ts";
import type { ReplicaReader, ReplicaStore, ReplicaWriter } from "./replica-store.ts";

/** Whether some row of `entity` could hold `value` in `column` ("id": the row's id). */
export function isHoldable(entity: EntityName, column: string, value: unknown): boolean {
  if (typeof value !== "string") return true;
  if (!isStorableText(value)) return false;
  if (column === "id") return isEntityId(value);
  return entities[entity].columns[column]?.type === "id" ? value === "" || isEntityId(value) : true;
}

const holdable = (entity: EntityName, filter: Filter): boolean =>
  "readableBy" in filter || isHoldable(entity, filter.column, filter.eq);

function guardReader<R extends ReplicaReader>(r: R): R {
  return {
    ...r,
    get: (entity, id, options) =>
      isHoldable(entity, "id", id) ? r.get(entity, id, options) : Promise.resolve(undefined),
    list: (entity, query: ListQuery) =>
      (query.where ?? []).every((f) => holdable(entity, f))
        ? r.list(entity, query)
        : Promise.resolve({ rows: [], total: 0 }),
    countBy: (entity, column, values) =>
      r.countBy(
        entity,
        column,
        values.filter((v) => isHoldable(entity, column, v)),
      ),
    scopesOf: (entity, ids) =>
      r.scopesOf(
        entity,
        ids.filter((id) => isHoldable(entity, "id", id)),
      ),
    maxBy: (entity, column, values, of) =>
      r.maxBy(
        entity,
        column,
        values.filter((v) => isHoldable(entity, column, v)),
        of,
      ),
  };
}

/** The store, reading through the guard above (writes go through unchanged). */
export function requestValuesGuard(store: ReplicaStore): ReplicaStore {
  return {
    read: (fn) => store.read((r) => fn(guardReader(r))),
    write: (fn) => store.write((w) => fn(guardReader<ReplicaWriter>(w))),
  };
}

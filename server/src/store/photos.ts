import {
  type OrSetState,
  orSetValues,
  readableScopeSql,
  userScope,
} from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";

/**
 * The photos an inspection of the tenant stores (its `photo_keys` elements), deleted inspections
 * included (a device keeps showing a record deleted elsewhere as it was); undefined when the
 * caller has no such inspection.
 */
export async function storedPhotos(
  q: Queryable,
  organizationId: string,
  userId: string,
  inspectionId: string,
): Promise<string[] | undefined> {
  const [row] = await q.query<{ photo_keys: OrSetState | string | null }>(
    `select photo_keys from inspections
      where organization_id = $1 and id = $2 and ${readableScopeSql("scope_id", "$3")}`,
    [organizationId, inspectionId, userScope(userId)],
  );
  if (row === undefined) return undefined;
  const set = typeof row.photo_keys === "string" ? JSON.parse(row.photo_keys) : row.photo_keys;
  return set ? orSetValues(set as OrSetState) : [];
}

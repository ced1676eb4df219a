/**
 * An edit records only what it changes. The "overwrite" operations (UpdateApiary, UpdateHive,
 * UpdateQueen) take every editable field, so a form sends back the fields the beekeeper did not
 * touch too; stamping those would make this edit win them over a concurrent one made elsewhere
 * (two phones offline: one renames a hive, the other adds a box — the later save would put the
 * old name back). Columns whose value the row already has are left out of the change, so the
 * merge keeps each field's latest real edit. The row ends up the same as with the whole payload.
 */
import type { Change } from "../core/change.ts";
import { entities } from "../core/entities.ts";
import type { ReplicaReader } from "./replica-store.ts";

/** The changes without the scalar columns their rows already hold (orset columns are kept). */
export async function withoutUnchanged(
  r: Pick<ReplicaReader, "get">,
  changes: readonly Change[],
): Promise<Change[]> {
  const out: Change[] = [];
  for (const change of changes) {
    if (change.op !== "upsert") {
      out.push(change);
      continue;
    }
    const row = await r.get(change.entity, change.entityId);
    if (row === undefined) {
      out.push(change);
      continue;
    }
    const columns = entities[change.entity].columns;
    const payload = Object.fromEntries(
      Object.entries(change.payload).filter(
        ([column, value]) =>
          columns[column]?.type === "orset" ||
          !Object.is(row.values[column] ?? null, value ?? null),
      ),
    );
    // An edit that changes nothing still says when it was saved (its updated_at), if it has one.
    if (Object.keys(payload).length > 0) out.push({ ...change, payload });
  }
  return out;
}

/**
 * The server's half of the invariant repair (DESIGN.md §6; the rule is client-core's
 * core/invariants.ts): after a batch is applied, the hives whose queens, placements or hive row
 * it changed in a way that can break "one reigning queen" or "one open placement" are read
 * back, and the rule answers the follow-up changes. tenant-write.ts applies them through the
 * one write path in the same transaction, so they reach the feed and every device.
 *
 * A batch that touches no queen, placement or hive (most of a Push: inspections) costs one
 * pass over its changes and no query.
 */
import {
  type ApplyResult,
  type Change,
  type CommandContext,
  type EntityName,
  entities,
  type HiveRows,
  type InvariantRow,
  repairHive,
} from "@hivekeep/client-core/core";
import { type Queryable, type Row, settled } from "../db/db.ts";
import { idsSql } from "./entity-sql.ts";
import { rowStateFromDb } from "./row-state.ts";
import type { ServerClock } from "./server-clock.ts";

/** Queen columns the rule reads: which queens count (complete, active) and their order. */
const queenColumns = ["hive_id", "year", "active", "introduced_at", "created_at"];

/**
 * The hives whose invariants the batch may have broken, each with the author of the first
 * change that touched it (the repair is recorded for that user). `results` are applyChanges'
 * per change, in the same order.
 */
export function touchedHives(
  changes: readonly Change[],
  results: readonly ApplyResult[],
): Map<string, string> {
  const touched = new Map<string, string>();
  for (const [i, change] of changes.entries()) {
    const entity = change.entity;
    if (entity !== "queen" && entity !== "placement" && entity !== "hive") continue;
    const result = results[i];
    if (result === undefined || !result.changed) continue;
    let hiveId: unknown;
    if (entity === "hive") {
      // Its apiary decides which placement stays; its delete closes them all.
      if (!result.deleteAccepted && !Object.hasOwn(result.accepted, "apiary_id")) continue;
      hiveId = change.entityId;
    } else {
      // A delete only takes a row out of the count; a note on a queen changes nothing.
      if (change.op === "delete") continue;
      if (entity === "queen" && !queenColumns.some((c) => Object.hasOwn(result.accepted, c))) {
        continue;
      }
      // A partial row without hive_id yet: the change that completes it comes back here.
      hiveId = result.row.values.hive_id;
    }
    if (typeof hiveId === "string" && hiveId !== "" && !touched.has(hiveId)) {
      touched.set(hiveId, change.authorId);
    }
  }
  return touched;
}

const invariantRow = (entity: EntityName, row: Row): InvariantRow => ({
  ...rowStateFromDb(row, entities[entity]),
  id: String(row.id),
  scopeId: String(row.scope_id),
});

/**
 * What the rule needs of each hive, read inside the write transaction: the hive row (deleted
 * or not), its live, complete active queens, and its live, complete placements (all of them:
 * a replaced queen's event is placed where the hive stood then). One round trip.
 */
export async function loadHiveRows(
  q: Queryable,
  organizationId: string,
  hiveIds: readonly string[],
): Promise<HiveRows[]> {
  const params = [organizationId, JSON.stringify(hiveIds)];
  const [hives, queens, placements] = await settled([
    q.query(
      `select * from hives where organization_id = $1 and id = any (${idsSql("$2")})`,
      params,
    ),
    q.query(
      `select * from queens where organization_id = $1 and hive_id = any (${idsSql("$2")})
         and active and complete and not deleted`,
      params,
    ),
    q.query(
      `select * from placements where organization_id = $1 and hive_id = any (${idsSql("$2")})
         and complete and not deleted`,
      params,
    ),
  ]);
  const byHive = new Map<
    string,
    { hive?: InvariantRow; queens: InvariantRow[]; placements: InvariantRow[] }
  >(hiveIds.map((id) => [id, { queens: [], placements: [] }]));
  for (const r of hives) {
    const entry = byHive.get(String(r.id));
    if (entry) entry.hive = invariantRow("hive", r);
  }
  for (const r of queens) byHive.get(String(r.hive_id))?.queens.push(invariantRow("queen", r));
  for (const r of placements) {
    byHive.get(String(r.hive_id))?.placements.push(invariantRow("placement", r));
  }
  return [...byHive].map(([hiveId, { hive, queens: q, placements: p }]) => ({
    hiveId,
    hive,
    queens: q,
    placements: p,
  }));
}

/**
 * The follow-up changes that restore the invariants of the hives `changes` touched, stamped
 * by `clock` after it has observed every stamp of the rows read, so they win last-writer-wins
 * over what the batch wrote. Empty when the invariants hold.
 */
export async function invariantRepairs(
  q: Queryable,
  organizationId: string,
  changes: readonly Change[],
  results: readonly ApplyResult[],
  clock: ServerClock,
  newId: () => string,
): Promise<Change[]> {
  const touched = touchedHives(changes, results);
  if (touched.size === 0) return [];
  const repairs: Change[] = [];
  for (const rows of await loadHiveRows(q, organizationId, [...touched.keys()])) {
    for (const r of [rows.hive, ...rows.queens, ...rows.placements]) {
      for (const hlc of Object.values(r?.clock ?? {})) clock.observe(hlc);
    }
    const ctx: CommandContext = {
      now: new Date(clock.nowMs()),
      authorId: touched.get(rows.hiveId) ?? "",
      newId,
      stamp: () => clock.stamp(),
    };
    repairs.push(...repairHive(ctx, rows));
  }
  return repairs;
}

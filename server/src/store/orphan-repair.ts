/**
 * The server's half of the orphan repair (issue 25; the rule is client-core's core/orphans.ts):
 * after a batch and its invariant repair are applied, the tasks and hives it touched in a way
 * that can leave an open task of a deleted hive, or a live hive in a deleted apiary, are read
 * back, and the rule answers the follow-up changes. tenant-write.ts applies them through the
 * one write path in the same transaction, so they reach the feed and every device.
 *
 * A batch that touches no task, hive or apiary costs one pass over its changes and no query.
 */
import {
  type ApplyResult,
  type Change,
  type CommandContext,
  type EntityName,
  entities,
  holdingApiaryId,
  type InvariantRow,
  isOpenTask,
  repairHiveApiary,
  repairTask,
} from "@hivekeep/client-core/core";
import type { Queryable, Row } from "../db/db.ts";
import { idsSql } from "./entity-sql.ts";
import { rowStateFromDb } from "./row-state.ts";
import type { ServerClock } from "./server-clock.ts";

/** What a batch touched that the orphan rules read, each id with its first change's author. */
export interface Touched {
  /** Tasks whose hive or done the batch set: the task may be open on a deleted hive. */
  readonly tasks: Map<string, string>;
  /** Hives deleted by the batch: their open tasks go. */
  readonly deletedHives: Map<string, string>;
  /** Hives whose apiary the batch set: it may be deleted. */
  readonly hives: Map<string, string>;
  /** Apiaries deleted by the batch: their live hives move. */
  readonly deletedApiaries: Map<string, string>;
}

const put = (m: Map<string, string>, id: string, author: string): void => {
  if (id !== "" && !m.has(id)) m.set(id, author);
};

export function touchedOrphans(
  changes: readonly Change[],
  results: readonly ApplyResult[],
): Touched {
  const touched: Touched = {
    tasks: new Map(),
    deletedHives: new Map(),
    hives: new Map(),
    deletedApiaries: new Map(),
  };
  for (const [i, change] of changes.entries()) {
    const result = results[i];
    if (result === undefined || !result.changed) continue;
    const { entity, entityId, authorId } = change;
    if (entity === "apiary") {
      if (result.deleteAccepted) put(touched.deletedApiaries, entityId, authorId);
    } else if (entity === "hive") {
      if (result.deleteAccepted) put(touched.deletedHives, entityId, authorId);
      else if (Object.hasOwn(result.accepted, "apiary_id")) put(touched.hives, entityId, authorId);
    } else if (entity === "task" && change.op !== "delete") {
      if (Object.hasOwn(result.accepted, "hive_id") || Object.hasOwn(result.accepted, "done")) {
        put(touched.tasks, entityId, authorId);
      }
    }
  }
  return touched;
}

const invariantRow = (entity: EntityName, row: Row): InvariantRow => ({
  ...rowStateFromDb(row, entities[entity]),
  id: String(row.id),
  scopeId: String(row.scope_id),
});

async function rowsByColumn(
  q: Queryable,
  organizationId: string,
  entity: EntityName,
  column: string,
  ids: readonly string[],
  condition = "",
): Promise<InvariantRow[]> {
  if (ids.length === 0) return [];
  const rows = await q.query(
    `select * from ${entities[entity].table} where organization_id = $1
       and ${column} = any (${idsSql("$2")}) ${condition}`,
    [organizationId, JSON.stringify(ids)],
  );
  return rows.map((r) => invariantRow(entity, r));
}

/**
 * The follow-up changes that restore "no open task of a deleted hive" and "no live hive in a
 * deleted apiary" for what `changes` touched, stamped by `clock` after it has observed every
 * stamp of the rows read. Empty when both hold.
 */
export async function orphanRepairs(
  q: Queryable,
  organizationId: string,
  changes: readonly Change[],
  results: readonly ApplyResult[],
  clock: ServerClock,
  newId: () => string,
): Promise<Change[]> {
  const touched = touchedOrphans(changes, results);
  const observe = (rows: readonly InvariantRow[]) => {
    for (const r of rows) for (const hlc of Object.values(r.clock)) clock.observe(hlc);
  };
  const context = (authorId: string): CommandContext => ({
    now: new Date(clock.nowMs()),
    authorId,
    newId,
    stamp: () => clock.stamp(),
  });
  const repairs: Change[] = [];

  // Tasks: those the batch wrote, and the open ones of the hives it deleted.
  const live = "and complete and not deleted";
  const tasks = new Map<string, { row: InvariantRow; author: string }>();
  for (const row of await rowsByColumn(q, organizationId, "task", "id", [
    ...touched.tasks.keys(),
  ])) {
    tasks.set(row.id, { row, author: touched.tasks.get(row.id) ?? "" });
  }
  const ofDeleted = await rowsByColumn(
    q,
    organizationId,
    "task",
    "hive_id",
    [...touched.deletedHives.keys()],
    live,
  );
  for (const row of ofDeleted) {
    if (!tasks.has(row.id)) {
      tasks.set(row.id, { row, author: touched.deletedHives.get(text(row.values.hive_id)) ?? "" });
    }
  }
  const open = [...tasks.values()].filter(({ row }) => isOpenTask(row));
  if (open.length > 0) {
    const hiveIds = [...new Set(open.map(({ row }) => text(row.values.hive_id)))];
    const hives = await rowsByColumn(q, organizationId, "hive", "id", hiveIds.filter(Boolean));
    observe([...hives, ...open.map(({ row }) => row)]);
    const byId = new Map(hives.map((h) => [h.id, h]));
    for (const { row, author } of open) {
      repairs.push(...repairTask(context(author), row, byId.get(text(row.values.hive_id))));
    }
  }

  // Hives: those whose apiary the batch set, and the live ones of the apiaries it deleted.
  const hiveAuthors = new Map(touched.hives);
  const inDeleted = await rowsByColumn(
    q,
    organizationId,
    "hive",
    "apiary_id",
    [...touched.deletedApiaries.keys()],
    live,
  );
  for (const h of inDeleted) {
    put(hiveAuthors, h.id, touched.deletedApiaries.get(text(h.values.apiary_id)) ?? "");
  }
  if (hiveAuthors.size === 0) return repairs;
  const hives = (
    await rowsByColumn(q, organizationId, "hive", "id", [...hiveAuthors.keys()])
  ).filter((h) => !h.deleted);
  // The hives' apiaries and, for each deleted one, its chain of holding apiaries.
  const apiaries = new Map<string, InvariantRow>();
  let wanted = [...new Set(hives.map((h) => text(h.values.apiary_id)).filter(Boolean))];
  while (wanted.length > 0) {
    const found = await rowsByColumn(q, organizationId, "apiary", "id", wanted);
    for (const a of found) apiaries.set(a.id, a);
    wanted = found
      .filter((a) => a.deleted)
      .map((a) => holdingApiaryId(a.id))
      .filter((id) => !apiaries.has(id) && !wanted.includes(id));
  }
  const orphans = hives.filter((h) => apiaries.get(text(h.values.apiary_id))?.deleted === true);
  if (orphans.length === 0) return repairs;
  const ids = orphans.map((h) => h.id);
  const placements = (
    await rowsByColumn(q, organizationId, "placement", "hive_id", ids, live)
  ).filter((p) => p.values.ended_at === null || p.values.ended_at === undefined);
  const queens = await rowsByColumn(q, organizationId, "queen", "hive_id", ids, "and not deleted");
  observe([...orphans, ...apiaries.values(), ...placements, ...queens]);
  for (const hive of orphans) {
    const changesOf = repairHiveApiary(
      context(hiveAuthors.get(hive.id) ?? ""),
      {
        hive,
        placements: placements.filter((p) => p.values.hive_id === hive.id),
        queenIds: queens.filter((x) => x.values.hive_id === hive.id).map((x) => x.id),
      },
      apiaries,
    );
    repairs.push(...changesOf);
    // The next hive of the same apiary finds the holding apiary created.
    for (const c of changesOf) {
      if (c.entity === "apiary" && !apiaries.has(c.entityId)) {
        apiaries.set(c.entityId, {
          id: c.entityId,
          scopeId: c.entityId,
          values: c.payload,
          clock: {},
          deleted: false,
        });
      }
    }
  }
  return repairs;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * The invariants a per-column merge cannot keep (DESIGN.md §6), and the one deterministic rule
 * that repairs them. Two devices that write offline each keep them on their own, but their
 * merged rows may not:
 *
 * - One reigning queen per hive. Two concurrent CreateQueen leave two live queens with
 *   active = true.
 * - One open placement per hive. Two concurrent RelocateHive leave two placements with
 *   ended_at null (while hive.apiary_id holds one last-writer-wins winner); a relocation
 *   concurrent with DeleteHive leaves an open placement of a deleted hive.
 *
 * The server runs `repairHive` after every batch that touches a hive's queens, placements or
 * hive row, in the same transaction, and writes what it answers through the one write path:
 * the repair reaches every device through the feed. The rule reads only the merged rows, so
 * it answers the same whatever order the rows come in, and nothing for rows it has repaired.
 *
 * Queens: of the hive's live, complete queens with active = true, ordered by
 * coalesce(introduced_at, created_at) then id, the last reigns. Every other one is replaced
 * when the next one in that order was introduced (for two queens: when the reigning one was),
 * so the reigns introduced_at … replaced_at follow one another without overlap, as
 * CreateQueen leaves them, and each replacement is recorded as a QUEEN_REPLACED event.
 * Introduction order rather than the latest write decides because a queen replaced by one
 * introduced before her would have a reign that ends before it starts.
 *
 * Placements: of the hive's live, complete open placements, the one kept is the latest-started
 * of those at the hive's apiary_id (the latest-started of all when none is there), so the
 * placement agrees with where the hive stands; every other one ends at max(its started_at,
 * the kept one's started_at). A deleted hive keeps none: each ends at max(its started_at, the
 * time of the delete, the millisecond of the hive's delete stamp), as DeleteHive would have
 * closed it then.
 *
 * Pure like the rest of the core: time, ids and stamps come from the CommandContext.
 *
 * Rows left pointing at a deleted hive or apiary (an open task of a deleted hive, a live hive in
 * a deleted apiary) have their own rule beside this one: orphans.ts (issue 25).
 */
import type { Change } from "./change.ts";
import { upsert } from "./commands/change-builders.ts";
import type { CommandContext } from "./commands/context.ts";
import { EventType, recordEvent } from "./commands/event.ts";
import { type EntitySpec, entities } from "./entities.ts";
import { type Hlc, hlcMs } from "./hlc.ts";
import { deletedKey, isComplete, type RowState } from "./merge.ts";
import { placementAt } from "./placement-at.ts";

/** A row as a replica holds it (merged values, stamps, tombstone) with its id and scope. */
export interface InvariantRow extends RowState {
  readonly id: string;
  readonly scopeId: string;
}

/** What the rule reads of one hive. Rows that do not count (deleted, partial) may be included. */
export interface HiveRows {
  readonly hiveId: string;
  /** The hive row; undefined when the replica has never seen it. */
  readonly hive: InvariantRow | undefined;
  /** The hive's queens: at least those live, complete and active. */
  readonly queens: readonly InvariantRow[];
  /**
   * The hive's placements: at least the live, complete open ones; all of them to find where
   * the hive stood when a replaced queen's reign ended (its event's apiary).
   */
  readonly placements: readonly InvariantRow[];
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");
/**
 * A timestamp column: a canonical RFC 3339 string (`toISOString`, rfc3339.ts), so string order
 * is time order; "" when unset.
 */
const time = (v: unknown): string => text(v);

const later = (a: string, b: string): string => (a >= b ? a : b);

const counts = (row: InvariantRow, spec: EntitySpec): boolean =>
  !row.deleted && isComplete(row, spec);

/** Ascending by key then id: the last one wins (ties go to the greater id). */
function byKeyThenId<T extends { readonly id: string }>(rows: T[], key: (row: T) => string): T[] {
  return rows.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return ka < kb ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

/** The live, complete queens of the hive with active = true, reigning one last. */
export function activeQueensInOrder(rows: HiveRows): InvariantRow[] {
  const active = rows.queens.filter(
    (q) =>
      counts(q, entities.queen) && q.values.active === true && q.values.hive_id === rows.hiveId,
  );
  return byKeyThenId(active, queenStart);
}

/**
 * The queen who reigns among a hive's active queens: the last by the start of her reign, ties
 * to the greater id (the order the server's repair keeps). Screens with proto queens pass how to
 * read a queen's start (a canonical RFC 3339 string, "" when unset).
 */
export function reigningOf<T extends { readonly id: string }>(
  active: readonly T[],
  start: (queen: T) => string,
): T | undefined {
  return byKeyThenId([...active], start).at(-1);
}

/** When a queen's reign began: introduced_at, else created_at ("" when neither is set). */
export const queenStart = (q: InvariantRow): string =>
  time(q.values.introduced_at) || time(q.values.created_at);

/** The live, complete placements of the hive that have not ended. */
function openPlacements(rows: HiveRows): InvariantRow[] {
  return rows.placements.filter(
    (p) =>
      counts(p, entities.placement) &&
      p.values.hive_id === rows.hiveId &&
      (p.values.ended_at === undefined || p.values.ended_at === null),
  );
}

/**
 * The open placement the rule keeps for a hive that is not deleted: the latest-started at the
 * hive's apiary_id, else the latest-started of all; undefined when none is open.
 */
export function keptPlacement(rows: HiveRows): InvariantRow | undefined {
  const open = openPlacements(rows);
  const apiaryId = text(rows.hive?.values.apiary_id);
  const there = open.filter((p) => apiaryId !== "" && p.values.apiary_id === apiaryId);
  return byKeyThenId(there.length > 0 ? there : open, (p) => time(p.values.started_at)).at(-1);
}

/** The changes that restore both invariants for one hive; none when they hold. */
export function repairHive(ctx: CommandContext, rows: HiveRows): Change[] {
  const placementChanges = repairPlacements(ctx, rows);
  // The queens' events are placed where the hive stood, after the placements' repair.
  const ended = new Map(placementChanges.map((c) => [c.entityId, c.payload.ended_at]));
  const placements = rows.placements.map((p) =>
    ended.has(p.id) ? { ...p, values: { ...p.values, ended_at: ended.get(p.id) } } : p,
  );
  return [...placementChanges, ...repairQueens(ctx, { ...rows, placements })];
}

/** Closes every open placement of the hive but the kept one (all of them when it is deleted). */
export function repairPlacements(ctx: CommandContext, rows: HiveRows): Change[] {
  const open = byKeyThenId(openPlacements(rows), (p) => time(p.values.started_at));
  const deleted = rows.hive?.deleted === true;
  if (open.length === 0 || (open.length === 1 && !deleted)) return [];
  let floor: string;
  let kept: InvariantRow | undefined;
  if (deleted) {
    const stamp = rows.hive?.clock[deletedKey] as Hlc | undefined;
    floor = stamp === undefined ? ctx.now.toISOString() : new Date(hlcMs(stamp)).toISOString();
  } else {
    kept = keptPlacement(rows);
    floor = time(kept?.values.started_at);
  }
  return open
    .filter((p) => p !== kept)
    .map((p) =>
      upsert(ctx, "placement", p.id, text(p.values.apiary_id) || p.scopeId, {
        ended_at: later(time(p.values.started_at), floor),
      }),
    );
}

/**
 * Replaces every active queen of the hive but the reigning one, each when the next one was
 * introduced, with a QUEEN_REPLACED event as CreateQueen records it.
 */
export function repairQueens(ctx: CommandContext, rows: HiveRows): Change[] {
  const active = activeQueensInOrder(rows);
  if (active.length < 2) return [];
  const reigning = active[active.length - 1] as InvariantRow;
  // The queens' scope is the apiary the hive stands at now (as CreateQueen writes them).
  const hiveApiary = text(rows.hive?.values.apiary_id);
  const now = ctx.now.toISOString();
  const changes: Change[] = [];
  for (const [i, queen] of active.slice(0, -1).entries()) {
    const next = active[i + 1] as InvariantRow;
    const replacedAt = queenStart(next) || queenStart(reigning) || now;
    const apiaryThen = apiaryAt(rows.placements, rows.hiveId, replacedAt) || hiveApiary;
    changes.push(
      upsert(ctx, "queen", queen.id, hiveApiary || queen.scopeId, {
        active: false,
        replaced_at: replacedAt,
        updated_at: now,
      }),
      recordEvent(ctx, {
        type: EventType.QUEEN_REPLACED,
        date: replacedAt,
        apiaryId: apiaryThen || queen.scopeId,
        hiveId: rows.hiveId,
        queenId: queen.id,
        refEntity: "queen",
        refId: queen.id,
        title: `Queen ${Number(queen.values.year ?? 0)} replaced`,
        detail: { replacedBy: next.id },
      }),
    );
  }
  return changes;
}

/** The apiary the hive stood at, at `at` ("" when it has no placement). */
export function apiaryAt(placements: readonly InvariantRow[], hiveId: string, at: string): string {
  const live = placements.filter(
    (p) => counts(p, entities.placement) && p.values.hive_id === hiveId,
  );
  return text(placementAt(live, at)?.values.apiary_id);
}

/**
 * Two more invariants a per-column merge cannot keep (issue 25), repaired by the server like
 * the reigning queen and the open placement (invariants.ts): a delete is sticky, so a row
 * written offline may refer to a hive or an apiary deleted meanwhile.
 *
 * - No open task of a deleted hive. DeleteHive tombstones the hive's open tasks (done ones stay
 *   as history); a task created, or set open again, for a hive deleted meanwhile is tombstoned
 *   the same way by `repairTask`.
 * - No live hive in a deleted apiary. A hive created in, or moved to, an apiary deleted
 *   meanwhile (DeleteApiary refuses an apiary with live hives, but only against the rows its
 *   device has) moves to the deleted apiary's holding apiary (`repairHiveApiary`): an apiary
 *   whose id is derived from the deleted one's (`holdingApiaryId`, so every repair of any hive
 *   of that apiary, in any order, makes the same one), named "<name> (restored)", at the same
 *   address. The move is what RelocateHive writes: the hive's apiary_id, its queens' scope, its
 *   open placements closed and one opened at the holding apiary, and a MOVED event. It is dated
 *   when the apiary was deleted (the millisecond of its delete stamp), or when the hive arrived
 *   if later. A holding apiary deleted in turn has its own holding apiary.
 *
 * The rules read only merged rows, so they answer the same whatever order the rows come in,
 * and nothing once repaired. Pure: time, ids and stamps come from the CommandContext.
 */
import type { Change } from "./change.ts";
import { tombstone, upsert } from "./commands/change-builders.ts";
import type { CommandContext } from "./commands/context.ts";
import { EventType, recordEvent } from "./commands/event.ts";
import { entities, maxTextLength } from "./entities.ts";
import { type Hlc, hlcMs } from "./hlc.ts";
import type { InvariantRow } from "./invariants.ts";
import { deletedKey, isComplete } from "./merge.ts";

const text = (v: unknown): string => (typeof v === "string" ? v : "");
const later = (a: string, b: string): string => (a >= b ? a : b);

/** When a deleted row was deleted (RFC 3339), from its delete stamp; "" when it is live. */
export function deletedAt(row: InvariantRow | undefined): string {
  const stamp = row?.clock[deletedKey] as Hlc | undefined;
  return row?.deleted === true && stamp !== undefined ? new Date(hlcMs(stamp)).toISOString() : "";
}

/** A task that counts as open: live, complete and not done. */
export const isOpenTask = (task: InvariantRow): boolean =>
  !task.deleted && isComplete(task, entities.task) && task.values.done !== true;

/**
 * The changes that keep "no open task of a deleted hive" for one task: its tombstone when it is
 * open and its hive is deleted; none otherwise (a task of no hive, a done one, a live hive).
 */
export function repairTask(
  ctx: CommandContext,
  task: InvariantRow,
  hive: InvariantRow | undefined,
): Change[] {
  if (!isOpenTask(task) || hive?.deleted !== true) return [];
  if (task.values.hive_id !== hive.id) return [];
  return [tombstone(ctx, "task", task.id, task.scopeId)];
}

/** 128 bits of a string (four 32-bit lanes of a murmur-style mix), as 32 hex digits. */
function hash128(s: string): string {
  let h1 = 0x9e3779b1;
  let h2 = 0x85ebca77;
  let h3 = 0xc2b2ae3d;
  let h4 = 0x27d4eb2f;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h3 = Math.imul(h3 ^ c, 0xcc9e2d51);
    h4 = Math.imul(h4 ^ c, 0x1b873593);
    h1 ^= h4 >>> 15;
    h2 ^= h1 >>> 13;
    h3 ^= h2 >>> 16;
    h4 ^= h3 >>> 11;
  }
  const fmix = (h: number): number => {
    let x = h ^ (h >>> 16);
    x = Math.imul(x, 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    return (x ^ (x >>> 16)) >>> 0;
  };
  const a = fmix(h1 ^ h3);
  const b = fmix(h2 ^ h4 ^ a);
  const c = fmix(h3 ^ b);
  const d = fmix(h4 ^ c ^ h1);
  return [a, b, c, d].map((x) => x.toString(16).padStart(8, "0")).join("");
}

/**
 * The id of the apiary that takes in the live hives of the deleted apiary `apiaryId`: a UUID
 * (version 8, "custom") derived from it, the same on every server and device.
 */
export function holdingApiaryId(apiaryId: string): string {
  const h = hash128(`hivekeep:holding-apiary:${apiaryId}`);
  const variant = ((Number.parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const restoredSuffix = " (restored)";

/** The name of a deleted apiary's holding apiary: "<name> (restored)" (once, however deep). */
export function restoredName(name: string): string {
  if (name.endsWith(restoredSuffix)) return name;
  return `${name.slice(0, maxTextLength - restoredSuffix.length)}${restoredSuffix}`;
}

/** What `repairHiveApiary` reads of one live hive. */
export interface HiveInApiary {
  readonly hive: InvariantRow;
  /** The hive's live, complete placements (at least the open ones). */
  readonly placements: readonly InvariantRow[];
  /** The ids of the hive's live queens: their scope follows the hive. */
  readonly queenIds: readonly string[];
}

/**
 * The apiary a live hive standing at a deleted apiary moves to: the first apiary of the chain
 * apiary → its holding apiary → … that is not deleted, with the deleted apiary whose holding it
 * is. Undefined when the hive's apiary is not deleted (or unknown). `apiaries` holds the rows of
 * the chain the reader has (absent = never created).
 */
export function holdingOf(
  apiaryId: string,
  apiaries: ReadonlyMap<string, InvariantRow>,
): { readonly from: InvariantRow; readonly id: string; readonly deletedAt: string } | undefined {
  let from = apiaries.get(apiaryId);
  if (from?.deleted !== true) return undefined;
  let at = deletedAt(from);
  const seen = new Set<string>([apiaryId]);
  for (;;) {
    const id = holdingApiaryId(from.id);
    const next = apiaries.get(id);
    if (next?.deleted !== true || seen.has(id)) return { from, id, deletedAt: at };
    seen.add(id);
    at = later(at, deletedAt(next));
    from = next;
  }
}

/**
 * The changes that keep "no live hive in a deleted apiary" for one hive; none when its apiary
 * is live (or unknown to the reader). See the file's comment for what they write.
 */
export function repairHiveApiary(
  ctx: CommandContext,
  rows: HiveInApiary,
  apiaries: ReadonlyMap<string, InvariantRow>,
): Change[] {
  const { hive } = rows;
  if (hive.deleted || !isComplete(hive, entities.hive)) return [];
  const from = text(hive.values.apiary_id);
  const holding = holdingOf(from, apiaries);
  if (holding === undefined) return [];
  const now = ctx.now.toISOString();
  const open = rows.placements.filter(
    (p) =>
      !p.deleted &&
      p.values.hive_id === hive.id &&
      (p.values.ended_at === null || p.values.ended_at === undefined),
  );
  const arrived = open.reduce((max, p) => later(max, text(p.values.started_at)), "");
  const date = later(holding.deletedAt, arrived) || now;
  const changes: Change[] = [];
  if (!apiaries.has(holding.id)) {
    const { values } = holding.from;
    changes.push(
      upsert(ctx, "apiary", holding.id, holding.id, {
        name: restoredName(text(values.name) || "Apiary"),
        address: text(values.address),
        lat: typeof values.lat === "number" ? values.lat : 0,
        lng: typeof values.lng === "number" ? values.lng : 0,
        created_at: date,
        updated_at: now,
      }),
    );
  }
  const name = text(hive.values.name);
  const targetName =
    text(apiaries.get(holding.id)?.values.name) ||
    restoredName(text(holding.from.values.name) || "Apiary");
  changes.push(
    upsert(ctx, "hive", hive.id, holding.id, { apiary_id: holding.id, updated_at: now }),
    ...rows.queenIds.map((id) => upsert(ctx, "queen", id, holding.id, { updated_at: now })),
    ...open.map((p) =>
      upsert(ctx, "placement", p.id, text(p.values.apiary_id) || p.scopeId, {
        ended_at: later(text(p.values.started_at), date),
      }),
    ),
    upsert(ctx, "placement", ctx.newId(), holding.id, {
      hive_id: hive.id,
      apiary_id: holding.id,
      started_at: date,
      ended_at: null,
    }),
    recordEvent(ctx, {
      type: EventType.MOVED,
      date,
      apiaryId: holding.id,
      hiveId: hive.id,
      refEntity: "hive",
      refId: hive.id,
      title: `Hive ${name} moved to ${targetName}`,
      detail: { from, to: holding.id, restored: true },
    }),
  );
  return changes;
}

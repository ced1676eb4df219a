/**
 * Notices (issue 25): when sync overrides or sets aside the user's own work, the device keeps a
 * notice in its replica (so per account, offline, across restarts) until the user dismisses it.
 *
 * | kind          | when                                                                           |
 * | ------------- | ------------------------------------------------------------------------------ |
 * | `overwritten` | Push answered `conflicts`: columns the device wrote lost to a newer write       |
 * | `deleted`     | a pulled delete (another device's, or the server's repair) meets a row the      |
 * |               | device wrote since it last caught up, or with changes still pending             |
 * | `orphaned`    | a pulled delete of a hive or an apiary meets a record the device wrote since it |
 * |               | last caught up that refers to it (an inspection of the hive, a hive there)      |
 * | `moved`       | the server's repair moved a hive the device ever wrote to out of a deleted      |
 * |               | apiary (core/orphans.ts): a pulled MOVED event with `restored`                  |
 *
 * "The device wrote" is read from the rows' stamps: the node of every stamp of this replica
 * starts with the replica's node (device-clock.ts), so no list of written rows is kept. "Since it
 * last caught up" is `caughtUpMs`, the device's server-corrected time when its last pull reached
 * the end of the feed: a write older than that was on the server when the device last synced,
 * so whoever deleted the row could have seen it.
 *
 * One notice per record (`key` = `entity/id`): the first reason is kept until dismissed.
 */
import type { Change } from "../core/change.ts";
import { rowKey } from "../core/change.ts";
import { EventType } from "../core/commands/event.ts";
import type { EntityName } from "../core/entities.ts";
import { type Hlc, hlcMs } from "../core/hlc.ts";
import { deletedKey, type Values } from "../core/merge.ts";
import type { OrSetState } from "../core/or-set.ts";
import type { DeviceRow, ReplicaDb, TableSource } from "./replica-db.ts";
import { entityTable } from "./replica-db.ts";

export type NoticeKind = "overwritten" | "deleted" | "orphaned" | "moved";

/** A record a notice names: what a user recognises it by. */
export interface NoticeRecord {
  readonly entity: EntityName;
  readonly id: string;
  /** Its name, title, product, queen year or amount ("" when it has none). */
  readonly label: string;
  /** Its date, when it has one (RFC 3339): an inspection, treatment, harvest, task due. */
  readonly date?: string;
  /** The hive it belongs to, for records of a hive. */
  readonly hiveId?: string;
}

export interface SyncNotice {
  /** `entity/id` of the record. */
  readonly key: string;
  readonly kind: NoticeKind;
  readonly record: NoticeRecord;
  /** What the user wrote: the columns of theirs that were overridden (or of the set-aside row). */
  readonly mine: Values;
  /** What won, column by column (`overwritten`, filled in as the winning values arrive). */
  readonly won: Values;
  /** The winning stamp (`overwritten`). */
  readonly winningHlc?: string;
  /** When the winning write (the delete, the newer value, the move) was made (RFC 3339). */
  readonly wonAt: string;
  /** The deleted hive or apiary (`orphaned`), the deleted apiary a hive left (`moved`). */
  readonly cause?: NoticeRecord;
  /** Where a moved hive went (`moved`): the holding apiary. */
  readonly movedTo?: string;
  /** When the device noticed (RFC 3339). */
  readonly noticedAt: string;
}

export const noticesTable = "notices";

const text = (v: unknown): string => (typeof v === "string" ? v : "");
const iso = (hlc: string): string => new Date(hlcMs(hlc as Hlc)).toISOString();
const stampNode = (hlc: string): string => hlc.slice(hlc.indexOf(":", 16) + 1);

/** Whether a stamp was issued by a client of the replica whose node is `node`. */
export function isOwnStamp(hlc: string | undefined, node: string): boolean {
  if (hlc === undefined || node === "") return false;
  const n = stampNode(hlc);
  return n === node || n.startsWith(`${node.slice(0, 57)}-`);
}

/** The record a notice names, from its values. */
export function noticeRecord(entity: EntityName, id: string, values: Values): NoticeRecord {
  const label =
    entity === "task"
      ? text(values.title)
      : entity === "treatment"
        ? text(values.product)
        : entity === "queen"
          ? String(values.year ?? "")
          : entity === "harvest"
            ? `${Number(values.amount_kg ?? 0)} kg`
            : text(values.name);
  const date = text(entity === "task" ? values.due_at : values.date);
  const hiveId = entity === "hive" ? "" : text(values.hive_id);
  return {
    entity,
    id,
    label,
    ...(date !== "" ? { date } : {}),
    ...(hiveId !== "" ? { hiveId } : {}),
  };
}

/**
 * The columns of a row the device wrote (stamped by its node), with their values. An OR-set
 * column (an inspection's photos) has no stamp of its own: its adds carry theirs, so the photos
 * the device added count, as the list of them.
 */
function ownValues(row: DeviceRow, node: string, sinceMs = 0): Values {
  const mine: Values = {};
  for (const [column, hlc] of Object.entries(row.clock)) {
    if (column === deletedKey || !isOwnStamp(hlc, node) || hlcMs(hlc) <= sinceMs) continue;
    mine[column] = row.values[column] ?? null;
  }
  for (const [column, value] of Object.entries(row.values)) {
    const adds = (value as Partial<OrSetState> | null)?.adds;
    if (row.clock[column] !== undefined || !Array.isArray(adds)) continue;
    const added = adds
      .filter((a) => isOwnStamp(a.tag, node) && hlcMs(a.tag) > sinceMs)
      .map((a) => a.value);
    if (added.length > 0) mine[column] = added;
  }
  return mine;
}

/** What applyPulled knows when it looks for notices: the replica's node and caught-up time. */
export interface NoticeContext {
  readonly node: string;
  readonly caughtUpMs: number;
  readonly nowIso: string;
}

/** Records of a hive that the user writes (the ones a notice names when the hive goes). */
const hiveRecords = ["inspection", "queen", "task", "treatment", "harvest"] as const;

/**
 * The notices a page of pulled changes gives rise to. `before` holds every row of the page as it
 * was before the page was merged, `after` as it is after it.
 */
export async function pulledNotices(
  tx: TableSource,
  changes: readonly Change[],
  before: ReadonlyMap<string, DeviceRow | undefined>,
  after: ReadonlyMap<string, DeviceRow | undefined>,
  ctx: NoticeContext,
): Promise<SyncNotice[]> {
  const out = new Map<string, SyncNotice>();
  const add = (n: SyncNotice) => {
    if (!out.has(n.key)) out.set(n.key, n);
  };
  const recent = (row: DeviceRow) => ownValues(row, ctx.node, ctx.caughtUpMs);
  for (const change of changes) {
    if (isOwnStamp(change.hlc, ctx.node)) continue;
    const key = rowKey(change.entity, change.entityId);
    if (change.op === "delete") {
      const row = before.get(key);
      if (row === undefined || row.deleted || row.complete !== 1) continue;
      // Placements and events are the records' bookkeeping: their records get the notice.
      if (change.entity === "event" || change.entity === "placement") continue;
      const mine = recent(row);
      if (row.base !== undefined || Object.keys(mine).length > 0) {
        add({
          key,
          kind: "deleted",
          record: noticeRecord(change.entity, change.entityId, row.values),
          mine,
          won: {},
          wonAt: iso(change.hlc),
          noticedAt: ctx.nowIso,
        });
      }
      if (change.entity === "hive" || change.entity === "apiary") {
        const cause = noticeRecord(change.entity, change.entityId, row.values);
        for (const ref of await referring(tx, change.entity, change.entityId)) {
          const refMine = recent(ref.row);
          if (ref.row.base === undefined && Object.keys(refMine).length === 0) continue;
          add({
            key: rowKey(ref.entity, ref.row.id),
            kind: "orphaned",
            record: noticeRecord(ref.entity, ref.row.id, ref.row.values),
            mine: refMine,
            won: {},
            wonAt: iso(change.hlc),
            cause,
            noticedAt: ctx.nowIso,
          });
        }
      }
    } else if (change.entity === "event" && change.payload.type === EventType.MOVED) {
      const detail = parseDetail(change.payload.detail_json);
      const hiveId = text(change.payload.hive_id);
      if (detail.restored !== true || hiveId === "") continue;
      const hive = after.get(rowKey("hive", hiveId)) ?? (await entityTable(tx, "hive").get(hiveId));
      if (hive === undefined || Object.keys(ownValues(hive, ctx.node)).length === 0) continue;
      const from = text(detail.from);
      const apiary = from === "" ? undefined : await entityTable(tx, "apiary").get(from);
      add({
        key: rowKey("hive", hiveId),
        kind: "moved",
        record: noticeRecord("hive", hiveId, hive.values),
        mine: { apiary_id: from },
        won: { apiary_id: text(detail.to) },
        wonAt: text(change.payload.date) || iso(change.hlc),
        cause: noticeRecord("apiary", from, apiary?.values ?? {}),
        movedTo: text(detail.to),
        noticedAt: ctx.nowIso,
      });
    }
  }
  return [...out.values()];
}

function parseDetail(json: unknown): Record<string, unknown> {
  try {
    const v = JSON.parse(text(json) || "{}") as unknown;
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The live rows that refer to a hive (its records) or an apiary (its hives). */
async function referring(
  tx: TableSource,
  entity: "hive" | "apiary",
  id: string,
): Promise<{ entity: EntityName; row: DeviceRow }[]> {
  const live = (row: DeviceRow) => !row.deleted && row.complete === 1;
  if (entity === "apiary") {
    const hives = await entityTable(tx, "hive").where("values.apiary_id").equals(id).toArray();
    return hives.filter(live).map((row) => ({ entity: "hive", row }));
  }
  const found = await Promise.all(
    hiveRecords.map(async (e) => {
      const table = entityTable(tx, e);
      const rows =
        e === "inspection"
          ? await table
              .where("[live+values.hive_id+values.date]")
              .between([1, id, ""], [1, id, "\uffff"], true, true)
              .toArray()
          : await table.where("values.hive_id").equals(id).toArray();
      return rows.filter(live).map((row) => ({ entity: e as EntityName, row }));
    }),
  );
  return found.flat();
}

/**
 * Fills in what won for `overwritten` notices of the rows `after` holds: a column whose stamp
 * now is at least the winning one shows the winner.
 */
export function withWinners(notice: SyncNotice, row: DeviceRow | undefined): SyncNotice {
  if (notice.kind !== "overwritten" || row === undefined || notice.winningHlc === undefined) {
    return notice;
  }
  let won: Values | undefined;
  for (const column of Object.keys(notice.mine)) {
    if (Object.hasOwn(notice.won, column)) continue;
    const stamp = row.clock[column];
    if (stamp !== undefined && stamp >= notice.winningHlc) {
      won = { ...(won ?? notice.won), [column]: row.values[column] ?? null };
    }
  }
  return won === undefined ? notice : { ...notice, won };
}

/** A Push's conflict: columns of a pushed change that lost to `winningHlc`. */
export interface PushConflict {
  readonly entity: string;
  readonly entityId: string;
  readonly columns: readonly string[];
  readonly winningHlc: string;
}

/**
 * The `overwritten` notices of a Push's conflicts: the user's values from the pushed batch (the
 * last change of the batch that set each column), the winners from the row where it already
 * holds them.
 */
export async function conflictNotices(
  db: ReplicaDb,
  batch: readonly Change[],
  conflicts: readonly PushConflict[],
  nowIso: string,
): Promise<SyncNotice[]> {
  const out: SyncNotice[] = [];
  for (const c of conflicts) {
    const entity = c.entity as EntityName;
    // Placements and events are bookkeeping (a move's closing time): not the user's words.
    if (entity === "placement" || entity === "event") continue;
    const key = rowKey(entity, c.entityId);
    const mine: Values = {};
    for (const change of batch) {
      if (change.entity !== entity || change.entityId !== c.entityId) continue;
      for (const column of c.columns) {
        if (Object.hasOwn(change.payload, column)) mine[column] = change.payload[column] ?? null;
      }
    }
    if (Object.keys(mine).length === 0) continue;
    const row = await entityTable(db, entity).get(c.entityId);
    out.push(
      withWinners(
        {
          key,
          kind: "overwritten",
          record: noticeRecord(entity, c.entityId, row?.values ?? {}),
          mine,
          won: {},
          winningHlc: c.winningHlc,
          wonAt: iso(c.winningHlc),
          noticedAt: nowIso,
        },
        row,
      ),
    );
  }
  return out;
}

/** Stores notices, keeping one already there for the same record (merging `overwritten` ones). */
export async function putNotices(tx: TableSource, notices: readonly SyncNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const table = tx.table<SyncNotice, string>(noticesTable);
  const existing = await table.bulkGet(notices.map((n) => n.key));
  const put: SyncNotice[] = [];
  for (const [i, n] of notices.entries()) {
    const old = existing[i];
    if (old === undefined) put.push(n);
    else if (old.kind === "overwritten" && n.kind === "overwritten") {
      put.push({ ...old, mine: { ...old.mine, ...n.mine }, won: { ...old.won, ...n.won } });
    }
  }
  if (put.length > 0) await table.bulkPut(put);
}

/** The notices of a replica, newest first. */
export async function listNotices(db: ReplicaDb): Promise<SyncNotice[]> {
  const all = await db.notices.toArray();
  return all.sort((a, b) =>
    a.noticedAt !== b.noticedAt ? (a.noticedAt < b.noticedAt ? 1 : -1) : a.key < b.key ? -1 : 1,
  );
}

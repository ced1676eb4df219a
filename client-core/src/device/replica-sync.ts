/**
 * What the sync engine does to the replica, each in one Dexie transaction:
 *
 * - applyPulled: a page of the feed merged into the rows (and into the confirmed `base` of rows
 *   with pending changes), the cursor stored with it. A row shows base ⊕ pending at all times,
 *   because the merge is a join: pulled values never clobber newer local ones, and older pulled
 *   values lose to them.
 * - acknowledge: pushed entries leave the outbox and join the confirmed base; a row with nothing
 *   pending left drops its base (it then equals what it shows).
 * - quarantine / retry / discard: refused changes move aside, back, or away; discarding rebuilds
 *   the rows they touched from base and the changes still pending.
 * - replaceStamps: re-stamped changes (core/restamp.ts) replace their entries; their rows are
 *   rebuilt likewise, so no refused stamp stays in a row.
 *
 * Inside each transaction only the transaction's own tables are used (replica-db.ts says why).
 */
import { type Change, rowKey } from "../core/change.ts";
import type { EntityName } from "../core/entities.ts";
import type { Hlc } from "../core/hlc.ts";
import { mergeChange } from "../core/merge-change.ts";
import { withPending } from "../core/pending.ts";
import { withoutHeldPhotos } from "../core/photo-ref.ts";
import { deviceRow, readRows, stateOf } from "./dexie-store.ts";
import { exclusive } from "./exclusive.ts";
import {
  noticesTable,
  pulledNotices,
  putNotices,
  type SyncNotice,
  withWinners,
} from "./notices.ts";
import { devicePhotoHash } from "./photo-hash.ts";
import { evictReadings, noteUnechoed, settleUnechoed, unechoedNow } from "./readings-eviction.ts";
import {
  type DeviceRow,
  entityTable,
  entityTables,
  type OutboxEntry,
  type QuarantineEntry,
  type ReplicaDb,
  type TableSource,
  tablesOf,
} from "./replica-db.ts";

export const metaKeys = {
  cursor: "cursor",
  clock: "clock",
  node: "node",
  offsetMs: "offsetMs",
  maxSeen: "maxSeen",
  organizationId: "organizationId",
  userId: "userId",
  lastSyncedAt: "lastSyncedAt",
  /** The device's server-corrected time when its last pull reached the end of the feed. */
  caughtUpMs: "caughtUpMs",
} as const;

const splitKey = (key: string): [EntityName, string] => {
  const slash = key.indexOf("/");
  return [key.slice(0, slash) as EntityName, key.slice(slash + 1)];
};

/**
 * Merges pulled changes (feed order) and stores `cursor` with them. Rows are read and written in
 * bulk per entity. Answers the greatest stamp of the page.
 */
export async function applyPulled(
  db: ReplicaDb,
  changes: readonly Change[],
  cursor: string,
  /** The page's readings-window cutoff (ms): out-of-window readings are let go after it. */
  readingsCutoffMs?: number,
): Promise<Hlc | undefined> {
  let maxSeen: Hlc | undefined;
  await exclusive(db, () =>
    db.transaction("rw", [...entityTables(db), db.meta, db.notices], async (tx) => {
      const { meta } = tablesOf(tx);
      const rows = await readRows(tx, changes);
      const before = new Map(rows);
      const dirty = new Map<EntityName, Map<string, DeviceRow>>();
      for (const pulled of changes) {
        if (maxSeen === undefined || pulled.hlc > maxSeen) maxSeen = pulled.hlc;
        const key = rowKey(pulled.entity, pulled.entityId);
        const current = rows.get(key);
        // Photos come by reference; one this device added itself it holds in full (photo-ref.ts).
        const change = withoutHeldPhotos(pulled, current?.values, devicePhotoHash);
        const merged = mergeChange(current && stateOf(current), change);
        // The confirmed base takes every pulled change, even one the row's newer pending values
        // hide: it is what the row falls back to when those are discarded.
        const base = current?.base;
        const newBase = base === undefined ? undefined : mergeChange(base ?? undefined, change).row;
        if (merged.row === undefined && newBase === undefined) continue;
        const state = merged.row ?? stateOf(current as DeviceRow);
        const next = deviceRow(change.entity, change.entityId, state, newBase ?? base);
        rows.set(key, next);
        const byId = dirty.get(change.entity) ?? new Map<string, DeviceRow>();
        byId.set(change.entityId, next);
        dirty.set(change.entity, byId);
      }
      // Notices first: they read the records that refer to a deleted hive as they were.
      await noticePulled(tx, changes, before, rows);
      await Promise.all(
        [...dirty].map(([entity, byId]) => entityTable(tx, entity).bulkPut([...byId.values()])),
      );
      if (readingsCutoffMs !== undefined) {
        const inspections = dirty.get("inspection")?.values() ?? [];
        await evictReadings(tx, readingsCutoffMs, inspections);
      }
      await meta.put({ key: metaKeys.cursor, value: cursor });
      await raiseMaxSeen(meta, maxSeen);
    }),
  );
  return maxSeen;
}

/** The inspections confirmed but not yet pulled back, when a pull begins (readings-eviction.ts). */
export const unechoedAtStart = (db: ReplicaDb): Promise<string[]> =>
  exclusive(db, () => db.transaction("r", [db.meta], (tx) => unechoedNow(tx)));

/** A pull that began with `ids` unechoed reached the feed's end (readings-eviction.ts). */
export async function pulledToEnd(
  db: ReplicaDb,
  ids: readonly string[],
  readingsCutoffMs: number | undefined,
): Promise<void> {
  if (ids.length === 0) return;
  await exclusive(db, () =>
    db.transaction("rw", [...entityTables(db), db.meta], (tx) =>
      settleUnechoed(tx, ids, readingsCutoffMs),
    ),
  );
}

/**
 * The notices a pulled page gives rise to (notices.ts), stored in the page's transaction; and
 * what won, for the notices of overwritten columns of the page's rows.
 */
async function noticePulled(
  tx: TableSource,
  changes: readonly Change[],
  before: ReadonlyMap<string, DeviceRow | undefined>,
  after: ReadonlyMap<string, DeviceRow | undefined>,
): Promise<void> {
  const { meta } = tablesOf(tx);
  const [node, caughtUp] = await Promise.all([
    meta.get(metaKeys.node),
    meta.get(metaKeys.caughtUpMs),
  ]);
  const notices = tx.table<SyncNotice, string>(noticesTable);
  const ctx = {
    node: typeof node?.value === "string" ? node.value : "",
    caughtUpMs: typeof caughtUp?.value === "number" ? caughtUp.value : 0,
    nowIso: new Date().toISOString(),
  };
  await putNotices(tx, await pulledNotices(tx, changes, before, after, ctx));
  if ((await notices.count()) === 0) return;
  const keys = [...after.keys()];
  const open = await notices.bulkGet(keys);
  const filled = open.flatMap((n, i) => {
    if (n === undefined) return [];
    const next = withWinners(n, after.get(keys[i] as string));
    return next === n ? [] : [next];
  });
  if (filled.length > 0) await notices.bulkPut(filled);
}

/**
 * Keeps in meta the greatest stamp that may have been accepted (pulled or acknowledged): what a
 * re-stamped clock is rebuilt from (core/restamp.ts).
 */
async function raiseMaxSeen(meta: ReplicaDb["meta"], hlc: Hlc | undefined): Promise<void> {
  if (hlc === undefined) return;
  const seen = (await meta.get(metaKeys.maxSeen))?.value as Hlc | undefined;
  if (seen === undefined || hlc > seen) await meta.put({ key: metaKeys.maxSeen, value: hlc });
}

/** The first `limit` outbox entries in order. */
export const outboxBatch = (db: ReplicaDb, limit: number): Promise<OutboxEntry[]> =>
  db.outbox.orderBy("seq").limit(limit).toArray();

/** Rebuilds rows from their confirmed base and the changes still pending (outbox, quarantine). */
async function rebuild(tx: TableSource, keys: Iterable<string>): Promise<void> {
  const { outbox, quarantine } = tablesOf(tx);
  for (const key of new Set(keys)) {
    const [entity, id] = splitKey(key);
    const table = entityTable(tx, entity);
    const row = await table.get(id);
    if (row === undefined || row.base === undefined) continue;
    const pending = [
      ...(await outbox.where("rowKey").equals(key).toArray()),
      ...(await quarantine.where("rowKey").equals(key).toArray()),
    ];
    const state = withPending(row.base ?? undefined, pending);
    if (state === undefined) await table.delete(id);
    else await table.put(deviceRow(entity, id, state, pending.length > 0 ? row.base : undefined));
  }
}

/** Whether any change to the row is still pending. */
async function hasPending(tx: TableSource, key: string): Promise<boolean> {
  const { outbox, quarantine } = tablesOf(tx);
  return (
    (await outbox.where("rowKey").equals(key).count()) > 0 ||
    (await quarantine.where("rowKey").equals(key).count()) > 0
  );
}

const syncTables = (db: ReplicaDb) => [...entityTables(db), db.outbox, db.quarantine, db.meta];

/** The server applied these entries: they leave the outbox and join the confirmed rows. */
export async function acknowledge(db: ReplicaDb, entries: readonly OutboxEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await exclusive(db, () =>
    db.transaction("rw", syncTables(db), async (tx) => {
      const { outbox, meta } = tablesOf(tx);
      await outbox.bulkDelete(entries.map((e) => e.seq as number));
      let maxSeen: Hlc | undefined;
      const touched = new Map<string, DeviceRow>();
      for (const { rowKey: key, change } of entries) {
        if (maxSeen === undefined || change.hlc > maxSeen) maxSeen = change.hlc;
        const [entity, id] = splitKey(key);
        const row = touched.get(key) ?? (await entityTable(tx, entity).get(id));
        if (row === undefined || row.base === undefined) continue;
        const base = mergeChange(row.base ?? undefined, change).row ?? row.base;
        touched.set(key, { ...row, base });
      }
      const confirmed: DeviceRow[] = [];
      for (const [key, row] of touched) {
        const [entity, id] = splitKey(key);
        const pending = await hasPending(tx, key);
        const next = deviceRow(entity, id, stateOf(row), pending ? row.base : undefined);
        await entityTable(tx, entity).put(next);
        if (entity === "inspection") confirmed.push(next);
      }
      // Kept until a pull brings their echo back (readings-eviction.ts says why).
      await noteUnechoed(
        tx,
        confirmed.map((row) => row.id),
      );
      await raiseMaxSeen(meta, maxSeen);
    }),
  );
}

/** Moves refused entries to quarantine with their reasons; they stay applied on the device. */
export async function quarantine(
  db: ReplicaDb,
  refused: readonly { entry: OutboxEntry; code: string; reason: string }[],
): Promise<void> {
  if (refused.length === 0) return;
  await exclusive(db, () =>
    db.transaction("rw", [db.outbox, db.quarantine], async (tx) => {
      const { outbox, quarantine } = tablesOf(tx);
      await outbox.bulkDelete(refused.map((r) => r.entry.seq as number));
      await quarantine.bulkPut(
        refused.map(({ entry, code, reason }) => ({
          ...entry,
          seq: entry.seq as number,
          code,
          reason,
        })),
      );
    }),
  );
}

/** A quarantined entry goes back to the outbox (after the user fixed what it depends on). */
export async function retry(db: ReplicaDb, seq: number): Promise<boolean> {
  return exclusive(db, () =>
    db.transaction("rw", [db.outbox, db.quarantine], async (tx) => {
      const { outbox, quarantine } = tablesOf(tx);
      const entry = await quarantine.get(seq);
      if (entry === undefined) return false;
      await quarantine.delete(seq);
      await outbox.put({ seq: entry.seq, rowKey: entry.rowKey, change: entry.change });
      return true;
    }),
  );
}

/** Drops a quarantined entry; its row goes back to the server's version plus what is pending. */
export async function discard(db: ReplicaDb, seq: number): Promise<boolean> {
  return exclusive(db, () =>
    db.transaction("rw", syncTables(db), async (tx) => {
      const { quarantine } = tablesOf(tx);
      const entry = await quarantine.get(seq);
      if (entry === undefined) return false;
      await quarantine.delete(seq);
      await rebuild(tx, [entry.rowKey]);
      return true;
    }),
  );
}

/** Replaces outbox entries by their re-stamped changes and rebuilds the rows they touch. */
export async function replaceStamps(
  db: ReplicaDb,
  entries: readonly { entry: OutboxEntry; change: Change }[],
): Promise<void> {
  if (entries.length === 0) return;
  await exclusive(db, () =>
    db.transaction("rw", syncTables(db), async (tx) => {
      await tablesOf(tx).outbox.bulkPut(entries.map(({ entry, change }) => ({ ...entry, change })));
      await rebuild(
        tx,
        entries.map(({ entry }) => entry.rowKey),
      );
    }),
  );
}

export const quarantined = (db: ReplicaDb): Promise<QuarantineEntry[]> =>
  db.quarantine.orderBy("seq").toArray();

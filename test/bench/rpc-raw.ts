/**
 * The raw database doing the work of the RPCs that rpc.ts and fan-out.ts measure, run in the
 * server process beside the database (server-process.ts) and timed there: SQL written by hand,
 * no HTTP, no Connect, no session, no proto mapping.
 *
 * - CreateInspection, one transaction per request, the statements the server's write path runs
 *   (tenant-write.ts, apply-changes.ts, ops/hive-at.ts): lock the tenant's feed head row
 *   (select … for update); read the hive, its placements and its queens (pipelined) and pick
 *   the apiary and queen as of the date; insert the inspection row (returning it: the answer),
 *   its INSPECTION event row and their two feed rows (pipelined); bump the feed head and
 *   pg_notify in one statement; commit. The rows go to tables shaped like ours (`like … including
 *   all`), the feed's without the `change_head` column our writes encode (as workload.ts's raw
 *   feed), and the head is a row of its own table, so the raw side leaves our data alone.
 *   What ours does beyond this: the row counts its list reads answer, the load of the new rows'
 *   ids (a create is an upsert), the merge, the invariant repair's pass, and reading the row back.
 * - ListInspections of a hive: the same select of one page (newest first) and the count of all,
 *   rows serialized to JSON.
 * - GetDashboard: the queries the dashboard runs (server/src/store/stats.ts, called as they are)
 *   in one read-only repeatable-read snapshot, serialized to JSON.
 * - A LISTEN/NOTIFY round trip through the Db's own listen and notify.
 */
import { formatHlc } from "@hivekeep/client-core/core";
import type { Db } from "@hivekeep/server";
import {
  dashboardCounts,
  dueInspections,
  honeyHistory,
  nextTasks,
  recentInspections,
} from "../../server/src/store/stats.ts";

/** The body of every CreateInspection of the bench (a full stock card with scale figures). */
export const inspectionRequest = {
  note: "Strong flight, added a super",
  weightKg: 34.5,
  tempHive: 34.1,
  tempOutside: 18.2,
  humidityHive: 61,
  humidityOutside: 72,
  weather: "sunny",
  queenSeen: true,
  eggsSeen: true,
  coveredLarva: true,
  frames: 20,
  broodFrames: 7,
  stores: 1,
  temperament: 2,
  calmness: 3,
  queenCells: 0,
  varroa: "2 mites/day",
  superAdded: false,
} as const;

/**
 * Runs `call` `n` times with at most `concurrency` calls in flight; answers the wall time and
 * each call's latency in ms.
 */
export async function inFlight(
  n: number,
  concurrency: number,
  call: () => Promise<unknown>,
): Promise<{ seconds: number; latenciesMs: number[] }> {
  const latenciesMs: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < n) {
      started++;
      const t = performance.now();
      await call();
      latenciesMs.push(performance.now() - t);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, worker));
  return { seconds: (performance.now() - start) / 1000, latenciesMs };
}

/** The raw side's tables (kept if there: another run on the same database made them). */
export async function createRpcRawTables(db: Db, organizationId: string): Promise<void> {
  await db.exec(`create table if not exists rpc_raw_inspections (like inspections including all);
    create table if not exists rpc_raw_events (like events including all);
    create table if not exists rpc_raw_changes (like changes including all);
    alter table rpc_raw_changes drop column if exists wire_head, drop column if exists change_head;
    create table if not exists rpc_raw_heads (organization_id text primary key, feed_seq bigint not null)`);
  await db.query(
    "insert into rpc_raw_heads values ($1, 0) on conflict (organization_id) do nothing",
    [organizationId],
  );
}

const inspectionColumns = `hive_id, apiary_id, queen_id, date, note, created_at, weight_kg,
  temp_hive, temp_outside, humidity_hive, humidity_outside, weather, queen_seen, eggs_seen,
  covered_larva, frames, brood_frames, stores, temperament, calmness, queen_cells, varroa,
  super_added`;
const eventColumns = `type, date, apiary_id, hive_id, queen_id, ref_entity, ref_id, amount_kg,
  detail_json, author_id, title, created_at`;
const placeholders = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `$${from + i}`).join(", ");
const names = (columns: string) => columns.split(",").map((c) => c.trim());
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v ?? ""));

let counter = 0;

/**
 * What both raw writers read first, in their transaction: the tenant's feed head, locked (the
 * write path's order), and the hive with its placements and queens, read once; `placeAt` picks
 * the apiary and the reigning queen at an instant (RFC 3339) as the write path freezes them.
 */
async function lockHeadAndReadHive(
  tx: Parameters<Parameters<Db["transaction"]>[0]>[0],
  organizationId: string,
  hiveId: string,
) {
  const [head] = await tx.query<{ feed_seq: number }>(
    "select feed_seq from rpc_raw_heads where organization_id = $1 for update",
    [organizationId],
  );
  const live = "organization_id = $1 and complete and not deleted";
  const [[hive], placements, queens] = await Promise.all([
    tx.query(`select * from hives where ${live} and id = $2`, [organizationId, hiveId]),
    tx.query(`select * from placements where ${live} and hive_id = $2 order by started_at, id`, [
      organizationId,
      hiveId,
    ]),
    tx.query(
      `select * from queens where ${live} and hive_id = $2
       order by coalesce(introduced_at, created_at) desc, id desc`,
      [organizationId, hiveId],
    ),
  ]);
  if (!hive) throw new Error(`hive ${hiveId} not found`);
  const placeAt = (date: string) => {
    const placement =
      placements.find(
        (p) => iso(p.started_at) <= date && (p.ended_at == null || iso(p.ended_at) > date),
      ) ?? placements[0];
    const queen = queens.find(
      (q) =>
        iso(q.introduced_at ?? q.created_at) <= date &&
        (q.replaced_at == null || iso(q.replaced_at) > date),
    );
    return {
      apiaryId: String(placement?.apiary_id ?? hive.apiary_id),
      queenId: String(queen?.id ?? ""),
    };
  };
  return { head, placeAt };
}

/** One CreateInspection, raw (see the top comment); answers the new row as JSON. */
export function rawCreateInspection(
  db: Db,
  organizationId: string,
  userId: string,
  hiveId: string,
): Promise<string> {
  const now = new Date();
  const date = now.toISOString();
  const hlc = formatHlc({ ms: now.getTime(), counter: ++counter % 100_000, node: "raw" });
  return db.transaction(async (tx) => {
    const { head, placeAt } = await lockHeadAndReadHive(tx, organizationId, hiveId);
    const { apiaryId, queenId } = placeAt(date);
    const r = inspectionRequest;
    // In the order of inspectionColumns and eventColumns.
    const inspection: unknown[] = [hiveId, apiaryId, queenId, date, r.note, date, r.weightKg];
    inspection.push(r.tempHive, r.tempOutside, r.humidityHive, r.humidityOutside, r.weather);
    inspection.push(r.queenSeen, r.eggsSeen, r.coveredLarva, r.frames, r.broodFrames, r.stores);
    inspection.push(r.temperament, r.calmness, r.queenCells, r.varroa, r.superAdded);
    const inspectionId = crypto.randomUUID();
    const eventId = crypto.randomUUID();
    const event: unknown[] = [5, date, apiaryId, hiveId, queenId, "inspection", inspectionId, 0];
    event.push("", userId, "Inspection", date);
    const payload = (columns: string, values: unknown[]) =>
      JSON.stringify(Object.fromEntries(names(columns).map((c, i) => [c, values[i]])));
    const clock = (columns: string) => JSON.stringify({ [hlc]: names(columns) });
    const seq = Number(head?.feed_seq ?? 0);
    const insert = (table: string, id: string, columns: string, values: unknown[], ret = "") =>
      tx.query(
        `insert into ${table} (organization_id, id, scope_id, clock, deleted, complete, ${columns})
         values ($1, $2, $3, $4::text::json, false, true, ${placeholders(5, values.length)})
         ${ret}`,
        [organizationId, id, apiaryId, clock(columns), ...values],
      );
    const [[row]] = await Promise.all([
      insert("rpc_raw_inspections", inspectionId, inspectionColumns, inspection, "returning *"),
      insert("rpc_raw_events", eventId, eventColumns, event),
      tx.query(
        `insert into rpc_raw_changes
           (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id)
         values ($1, $2, 'inspection', $3, $4, 1, $5, $6, $7),
           ($1, $8, 'event', $9, $4, 1, $10, $6, $7)`,
        [
          organizationId,
          seq + 1,
          inspectionId,
          apiaryId,
          payload(inspectionColumns, inspection),
          hlc,
          userId,
          seq + 2,
          eventId,
          payload(eventColumns, event),
        ],
      ),
    ]);
    await tx.query(
      `with bump as (update rpc_raw_heads set feed_seq = $2 where organization_id = $1)
       select pg_notify('rpc_raw_feed', $3)`,
      [organizationId, seq + 2, `${organizationId}:${seq + 2}`],
    );
    return JSON.stringify(row);
  });
}

/** One page of a hive's inspections (newest first) and the count of all of them, as JSON. */
export async function rawListInspections(
  db: Db,
  organizationId: string,
  hiveId: string,
  limit: number,
): Promise<string> {
  const where = "organization_id = $1 and complete and not deleted and hive_id = $2";
  const [rows, [count]] = await Promise.all([
    db.query(
      `select * from inspections where ${where}
       order by date desc nulls first, id collate "C" desc nulls first limit $3`,
      [organizationId, hiveId, limit],
    ),
    db.query<{ n: number }>(`select count(*) as n from inspections where ${where}`, [
      organizationId,
      hiveId,
    ]),
  ]);
  return JSON.stringify({ rows, total: Number(count?.n ?? 0) });
}

/** The dashboard's queries in one read-only snapshot, as JSON (defaults as GetDashboard's). */
export function rawDashboard(db: Db, organizationId: string, userId: string): Promise<string> {
  const now = new Date().toISOString();
  return db.transaction(async (tx) => {
    await tx.query("set transaction isolation level repeatable read, read only");
    const counts = await dashboardCounts(tx, organizationId, userId, now);
    const due = await dueInspections(tx, organizationId, now, 21);
    const tasks = await nextTasks(tx, organizationId, userId, 5);
    const recent = await recentInspections(tx, organizationId, 10);
    const history = await honeyHistory(tx, organizationId);
    return JSON.stringify({ counts, due, tasks, recent, history });
  });
}

/** `n` LISTEN/NOTIFY round trips, one after another: each one's ms from NOTIFY to delivery. */
export async function notifyRoundTrips(db: Db, n: number): Promise<number[]> {
  const channel = "bench_round_trip";
  let delivered: (() => void) | undefined;
  const unlisten = await db.listen(channel, () => delivered?.());
  try {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const arrived = new Promise<void>((resolve) => {
        delivered = resolve;
      });
      const start = performance.now();
      await db.notify(channel, String(i));
      await arrived;
      ms.push(performance.now() - start);
    }
    return ms;
  } finally {
    await unlisten();
  }
}

/** The values of a reading's inspection columns a scale leaves out. */
const readingColumns: Record<string, unknown> = {
  note: "",
  weather: "",
  queen_seen: false,
  eggs_seen: false,
  covered_larva: false,
  frames: 0,
  brood_frames: 0,
  stores: 0,
  temperament: 0,
  calmness: 0,
  queen_cells: 0,
  varroa: "",
  super_added: false,
};
const inspectionTypes = `hive_id text, apiary_id text, queen_id text, date timestamptz,
  note text, created_at timestamptz, weight_kg float8, temp_hive float8, temp_outside float8,
  humidity_hive float8, humidity_outside float8, weather text, queen_seen boolean,
  eggs_seen boolean, covered_larva boolean, frames integer, brood_frames integer,
  stores integer, temperament integer, calmness integer, queen_cells integer, varroa text,
  super_added boolean`;
const eventTypes = `type integer, date timestamptz, apiary_id text, hive_id text,
  queen_id text, ref_entity text, ref_id text, amount_kg float8, detail_json text,
  author_id text, title text, created_at timestamptz`;

/** One scale reading as the readings bench sends it (CreateReadings' JSON). */
export interface BenchReading {
  readonly hiveId: string;
  readonly date: string;
  readonly idempotencyKey: string;
  readonly weightKg: number;
  readonly tempHive: number;
  readonly tempOutside: number;
  readonly humidityHive: number;
  readonly humidityOutside: number;
}

/**
 * `n` readings of one hive, 15 minutes apart, ending `endMs` (in the past), each with its own
 * key (`<scale>:<date>`): what a scale's backlog sends.
 */
export function scaleReadings(hiveId: string, scale: string, endMs: number, n: number) {
  return Array.from({ length: n }, (_, i): BenchReading => {
    const date = new Date(endMs - (n - 1 - i) * 15 * 60_000).toISOString();
    return {
      hiveId,
      date,
      idempotencyKey: `${scale}:${date}`,
      weightKg: 40 + (i % 50) / 10,
      tempHive: 34.2,
      tempOutside: 11.5,
      humidityHive: 60,
      humidityOutside: 78,
    };
  });
}

/**
 * A CreateReadings batch, raw: the same rows our write path writes for it, by hand, set-based,
 * in one transaction: lock the feed head row; read the hive, its placements and queens once and
 * pick the apiary and queen per reading; one multi-row insert each of the inspections, their
 * INSPECTION events and their feed rows (two per reading); bump the head and pg_notify. The
 * tables are createRpcRawTables' (`like` ours). What ours does beyond this: parse and validate
 * the JSON, each reading's command and checks, the keys' lookup, the merge, the feed's encoded
 * head, the invariant repair's pass, and the answer.
 */
export function rawCreateReadings(
  db: Db,
  organizationId: string,
  userId: string,
  readings: readonly BenchReading[],
): Promise<void> {
  const now = new Date();
  const createdAt = now.toISOString();
  const hlc = formatHlc({ ms: now.getTime(), counter: ++counter % 100_000, node: "raw" });
  const hiveId = readings[0]?.hiveId ?? "";
  return db.transaction(async (tx) => {
    const { head, placeAt } = await lockHeadAndReadHive(tx, organizationId, hiveId);
    let seq = Number(head?.feed_seq ?? 0);
    const inspections: Record<string, unknown>[] = [];
    const events: Record<string, unknown>[] = [];
    const feed: Record<string, unknown>[] = [];
    for (const r of readings) {
      const { apiaryId, queenId } = placeAt(r.date);
      const id = crypto.randomUUID();
      // Every column, as CreateInspection's command writes a reading (left-out fields as 0,
      // false or ""), in the order of inspectionColumns and eventColumns.
      const inspection = Object.fromEntries(
        names(inspectionColumns).map((c) => [c, readingColumns[c] ?? ""]),
      );
      Object.assign(inspection, {
        hive_id: r.hiveId,
        apiary_id: apiaryId,
        queen_id: queenId,
        date: r.date,
        created_at: createdAt,
        weight_kg: r.weightKg,
        temp_hive: r.tempHive,
        temp_outside: r.tempOutside,
        humidity_hive: r.humidityHive,
        humidity_outside: r.humidityOutside,
      });
      const event = {
        type: 5,
        date: r.date,
        apiary_id: apiaryId,
        hive_id: r.hiveId,
        queen_id: queenId,
        ref_entity: "inspection",
        ref_id: id,
        amount_kg: 0,
        detail_json: "",
        author_id: userId,
        title: "Inspection",
        created_at: createdAt,
      };
      const eventId = crypto.randomUUID();
      const clock = (row: object) => JSON.stringify({ [hlc]: Object.keys(row) });
      inspections.push({ id, scope_id: apiaryId, clock: clock(inspection), ...inspection });
      events.push({ id: eventId, scope_id: apiaryId, clock: clock(event), ...event });
      const scope_id = apiaryId;
      feed.push(
        // Both held by the readings window until the reading's date, neither with its state
        // (a first change; readings-window.ts).
        {
          seq: ++seq,
          entity: "inspection",
          entity_id: id,
          scope_id,
          payload: JSON.stringify(inspection),
          held_until: r.date,
        },
        {
          seq: ++seq,
          entity: "event",
          entity_id: eventId,
          scope_id,
          payload: JSON.stringify(event),
          held_until: r.date,
        },
      );
    }
    await Promise.all([
      tx.query(
        `insert into rpc_raw_inspections (organization_id, id, scope_id, clock, deleted, complete,
           ${inspectionColumns})
         select $1, id, scope_id, clock::jsonb, false, true, ${inspectionColumns}
         from jsonb_to_recordset($2::text::jsonb) as r(id text, scope_id text, clock text,
           ${inspectionTypes})`,
        [organizationId, JSON.stringify(inspections)],
      ),
      tx.query(
        `insert into rpc_raw_events (organization_id, id, scope_id, clock, deleted, complete,
           ${eventColumns})
         select $1, id, scope_id, clock::jsonb, false, true, ${eventColumns}
         from jsonb_to_recordset($2::text::jsonb) as r(id text, scope_id text, clock text,
           ${eventTypes})`,
        [organizationId, JSON.stringify(events)],
      ),
      tx.query(
        `insert into rpc_raw_changes
           (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id,
            held_until, with_state)
         select $1, seq, entity, entity_id, scope_id, 1, payload, $3, $4, held_until, false
         from jsonb_to_recordset($2::text::jsonb) as r(seq bigint, entity text, entity_id text,
           scope_id text, payload text, held_until timestamptz)`,
        [organizationId, JSON.stringify(feed), hlc, userId],
      ),
    ]);
    await tx.query(
      `with bump as (update rpc_raw_heads set feed_seq = $2 where organization_id = $1)
       select pg_notify('rpc_raw_feed', $3)`,
      [organizationId, seq, `${organizationId}:${seq}`],
    );
  });
}

/**
 * What `pnpm bench` pushes and pulls, and the raw database doing the same
 * work: shared by the device side (push-pull.ts) and the server process
 * (server-process.ts), which generates and times the raw side's batches
 * itself.
 */
import { randomUUID } from "node:crypto";
import { formatHlc, maxPullLimit } from "@hivekeep/client-core/core";
import type { SyncChange } from "@hivekeep/client-core/sync";
import { ChangeOp } from "@hivekeep/proto";
import type { Db } from "@hivekeep/server";

export const batch = 500;
/** A device's Pull page (it asks for the most the server serves). */
export const page = maxPullLimit;

let counter = 0;

/** `n` new inspections of one hive, as a device pushes them (stock-card and scale columns). */
export function inspections(apiaryId: string, hiveId: string, n: number): SyncChange[] {
  const ms = Date.now();
  return Array.from({ length: n }, (_, i) => {
    const payload = {
      hive_id: hiveId,
      apiary_id: apiaryId,
      queen_id: "",
      date: new Date(ms - i * 60_000).toISOString(),
      note: "Strong flight, added a super",
      created_at: new Date(ms).toISOString(),
      weight_kg: 31.5 + (i % 10),
      temp_hive: 34.1,
      temp_outside: 18.2,
      humidity_hive: 61,
      humidity_outside: 72,
      weather: "sunny",
      queen_seen: true,
      eggs_seen: true,
      covered_larva: true,
      frames: 20,
      brood_frames: 7,
      stores: 1,
      temperament: 2,
      calmness: 3,
      queen_cells: 0,
      varroa: "2 mites/day",
      super_added: i % 7 === 0,
    };
    return {
      entity: "inspection",
      entityId: randomUUID(),
      scopeId: apiaryId,
      op: ChangeOp.UPSERT,
      payloadJson: JSON.stringify(payload),
      hlc: formatHlc({ ms, counter: ++counter % 100_000, node: "bench-device" }),
      authorId: "",
    };
  });
}

const rawColumns = `id text, hive_id text, apiary_id text, queen_id text, date timestamptz,
  note text, created_at timestamptz, weight_kg double precision, temp_hive double precision,
  temp_outside double precision, humidity_hive double precision, humidity_outside double precision,
  weather text, queen_seen boolean, eggs_seen boolean, covered_larva boolean, frames integer,
  brood_frames integer, stores integer, temperament integer, calmness integer,
  queen_cells integer, varroa text, super_added boolean`;
const rawNames = rawColumns
  .split(",")
  .map((c) => c.trim().split(" ")[0])
  .join(", ");

/**
 * Tables shaped like ours, the raw side's target: the feed without the
 * `change_head` our writes encode (migration 005), so the raw database writes
 * and reads just the change's columns.
 */
export async function createRawTables(db: Db): Promise<void> {
  await db.exec(`create table raw_inspections (like inspections including all);
    create table raw_changes (like changes including all);
    alter table raw_changes drop column change_head`);
}

/**
 * The raw database doing a Push's work: one multi-row insert of the rows and
 * one of their feed rows, in one transaction.
 */
export async function rawPush(
  db: Db,
  organizationId: string,
  changes: SyncChange[],
  seq: { n: number },
): Promise<void> {
  const rows = changes.map((c) => ({ id: c.entityId, ...JSON.parse(c.payloadJson) }));
  const feed = changes.map((c) => ({
    seq: ++seq.n,
    entity_id: c.entityId,
    scope_id: c.scopeId,
    payload: c.payloadJson,
    hlc: c.hlc,
  }));
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into raw_inspections (organization_id, ${rawNames}, scope_id, complete)
       select $1, ${rawNames}, r.apiary_id, true
       from jsonb_to_recordset($2::text::jsonb) as r(${rawColumns})`,
      [organizationId, JSON.stringify(rows)],
    );
    await tx.query(
      `insert into raw_changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id)
       select $1, r.seq, 'inspection', r.entity_id, r.scope_id, 1, r.payload, r.hlc, 'bench'
       from jsonb_to_recordset($2::text::jsonb) as r(seq bigint, entity_id text, scope_id text,
         payload text, hlc text)`,
      [organizationId, JSON.stringify(feed)],
    );
  });
}

/**
 * The raw database doing a Pull pass's work: the same select of the raw feed,
 * page after page, every value parsed by the driver. Returns the rows read.
 */
export async function rawPull(db: Db, organizationId: string): Promise<number> {
  let rows = 0;
  let after = 0;
  for (;;) {
    const found = await db.query<{ seq: number }>(
      `select seq, entity, entity_id, scope_id, op, payload, hlc, author_id from raw_changes
       where organization_id = $1 and seq > $2 order by seq limit $3`,
      [organizationId, after, page],
    );
    rows += found.length;
    if (found.length < page) return rows;
    after = Number(found.at(-1)?.seq ?? after);
  }
}

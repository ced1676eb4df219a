/**
 * `pnpm bench`: Push and Pull through the real server (HTTP/1.1, binary
 * protobuf, from a device's client-core sync client) against the raw database
 * doing the same work in the same run, printed as ratios (ours / raw
 * throughput; 1.0 = as fast as raw) and written to bench-results/*.json.
 *
 * - push: batches of 500 new inspections (stock-card and scale columns) that
 *   a device pushes; raw: one multi-row insert of the same rows and one of
 *   their feed rows, in one transaction.
 * - pull: the whole feed in pages of 5000 changes (the device's client asks
 *   for the next page before it decodes one); raw: the same select of the
 *   raw feed, page after page.
 * Runs on PGlite, and on Postgres too when DATABASE_URL is set.
 * BENCH_BATCHES (default 20) sets the number of push batches; BENCH_PULL_PASSES
 * (default 5) how often the pages are pulled (after one pass of warm-up).
 * Ours and raw alternate, batch by batch and pass by pass, after 3 full-size
 * push batches each to warm up (not counted).
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatHlc } from "@hivekeep/client-core/core";
import { createSyncClient, type SyncChange } from "@hivekeep/client-core/sync";
import { ChangeOp } from "@hivekeep/proto";
import { type Db, loadConfig, localOrganizationId as org, startServer } from "@hivekeep/server";
import pino from "pino";
import { createScratchDatabase } from "../support/databases.ts";

const batch = 500;
const batches = Number(process.env.BENCH_BATCHES ?? 20);
const page = 5000;
const pullPasses = Number(process.env.BENCH_PULL_PASSES ?? 5);
const warmupBatches = 3;

interface Result {
  database: string;
  case: string;
  unit: string;
  ours: number;
  raw: number;
  ratio: number;
}

let counter = 0;
function inspections(apiaryId: string, hiveId: string, n: number): SyncChange[] {
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

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
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

async function rawPush(db: Db, changes: SyncChange[], seq: { n: number }): Promise<void> {
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
      [org, JSON.stringify(rows)],
    );
    await tx.query(
      `insert into raw_changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id)
       select $1, r.seq, 'inspection', r.entity_id, r.scope_id, 1, r.payload, r.hlc, 'bench'
       from jsonb_to_recordset($2::text::jsonb) as r(seq bigint, entity_id text, scope_id text,
         payload text, hlc text)`,
      [org, JSON.stringify(feed)],
    );
  });
}

async function bench(name: string, databaseUrl: string | undefined): Promise<Result[]> {
  const server = await startServer(
    loadConfig({
      HIVEKEEP_PORT: "0",
      HIVEKEEP_DATA_DIR: ":memory:",
      HIVEKEEP_PWA_DIR: "/nonexistent",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
    { log: pino({ level: "silent" }) },
  );
  try {
    const { db } = server;
    const sync = createSyncClient({ baseUrl: server.url });
    const call = async (path: string, body: unknown) =>
      (await fetch(`${server.url}/hivekeep.v1.${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as Record<string, { id: string }>;
    const apiaryId = (await call("ApiaryService/CreateApiary", { name: "Bench" })).apiary?.id ?? "";
    const hiveId = (await call("HiveService/CreateHive", { apiaryId, name: "B1" })).hive?.id ?? "";
    await db.exec(`create table raw_inspections (like inspections including all);
      create table raw_changes (like changes including all)`);

    const ours = Array.from({ length: batches }, () => inspections(apiaryId, hiveId, batch));
    const raw = Array.from({ length: batches }, () => inspections(apiaryId, hiveId, batch));
    // Warm up both paths (connections, query plans, and the JIT on full-size
    // batches), alternating like the measured batches; not counted.
    const seq = { n: 0 };
    for (let i = 0; i < warmupBatches; i++) {
      await sync.push(inspections(apiaryId, hiveId, batch));
      await rawPush(db, inspections(apiaryId, hiveId, batch), seq);
    }

    // Ours and raw alternate batch by batch (and pass by pass below), so load
    // from other processes on the machine falls on both sides alike.
    let oursPush = 0;
    let rawPushS = 0;
    for (const [i, changes] of ours.entries()) {
      oursPush += await timed(async () => {
        await sync.push(changes);
      });
      const rawChanges = raw[i] ?? [];
      rawPushS += await timed(() => rawPush(db, rawChanges, seq));
    }

    const total = batch * batches;
    // A pass reads the whole feed (ours: what the device pulls; raw: the same
    // rows of the raw feed), page by page.
    const oursPass = async (): Promise<number> => {
      let rows = 0;
      for await (const p of sync.pages("", page)) rows += p.changes.length;
      return rows;
    };
    const rawPass = async (): Promise<number> => {
      let rows = 0;
      let after = 0;
      for (;;) {
        const found = await db.query<{ seq: number }>(
          `select seq, entity, entity_id, scope_id, op, payload, hlc, author_id from raw_changes
           where organization_id = $1 and seq > $2 order by seq limit $3`,
          [org, after, page],
        );
        rows += found.length;
        if (found.length < page) return rows;
        after = Number(found.at(-1)?.seq ?? after);
      }
    };
    // One pass each to warm up (code paths, query plans), then `pullPasses`
    // measured passes over the same pages.
    await oursPass();
    await rawPass();
    let oursRows = 0;
    let rawRows = 0;
    let oursPull = 0;
    let rawPull = 0;
    for (let pass = 0; pass < pullPasses; pass++) {
      oursPull += await timed(async () => {
        oursRows += await oursPass();
      });
      rawPull += await timed(async () => {
        rawRows += await rawPass();
      });
    }

    const result = (c: string, oursRate: number, rawRate: number): Result => ({
      database: name,
      case: c,
      unit: "changes/s",
      ours: Math.round(oursRate),
      raw: Math.round(rawRate),
      ratio: Math.round((oursRate / rawRate) * 100) / 100,
    });
    return [
      result(`push, batches of ${batch}`, total / oursPush, total / rawPushS),
      result(`pull, pages of ${page}`, oursRows / oursPull, rawRows / rawPull),
    ];
  } finally {
    await server.close();
  }
}

const results: Result[] = [];
results.push(...(await bench("pglite", undefined)));
if (process.env.DATABASE_URL) {
  const scratch = await createScratchDatabase();
  try {
    results.push(...(await bench("postgres", scratch.url)));
  } finally {
    await scratch.drop();
  }
}

console.table(results);
const dir = join(import.meta.dirname, "..", "..", "bench-results");
mkdirSync(dir, { recursive: true });
const file = join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify({ batch, batches, page, results }, null, 2)}\n`);
console.log(`written to ${file}`);

/**
 * `pnpm bench`: the write path and the feed read against the raw database
 * doing the same work in the same run, printed as ratios (ours / raw
 * throughput; 1.0 = as fast as raw) and written to bench-results/*.json.
 *
 * - write: batches of 500 apiary creates through applyChanges (lock, load,
 *   merge, upsert, feed append) vs one raw multi-row insert of the same rows
 *   and feed rows.
 * - read: pages of 5000 feed rows through readFeed vs a raw select of the
 *   same rows.
 * Runs on PGlite, and on Postgres too when DATABASE_URL is set.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApiary, type Hlc } from "@hivekeep/client-core/core";
import { type Db, migrate, openPglite, openPostgres } from "@hivekeep/server";
import { readFeed } from "../../server/src/store/feed.ts";
import { ServerClock } from "../../server/src/store/server-clock.ts";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import {
  ensureLocalTenant,
  localOrganizationId as org,
  localUserId as user,
} from "../../server/src/store/tenants.ts";
import { createScratchDatabase } from "../support/databases.ts";

const batch = 500;
const batches = Number(process.env.BENCH_BATCHES ?? 20);
const page = 5000;

interface Result {
  database: string;
  case: string;
  unit: string;
  ours: number;
  raw: number;
  ratio: number;
}

function makeBatch(clock: ServerClock, n: number) {
  let i = 0;
  const ctx = {
    now: new Date(),
    authorId: user,
    newId: () => crypto.randomUUID(),
    stamp: (): Hlc => clock.stamp(),
  };
  return Array.from({ length: n }, () => {
    i += 1;
    return createApiary(ctx, { name: `Apiary ${i}`, address: "Bench lane", lat: 48, lng: 11 })
      .changes[0];
  }).filter((c) => c !== undefined);
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

async function benchDb(name: string, db: Db): Promise<Result[]> {
  await migrate(db);
  await ensureLocalTenant(db);
  await db.exec(`create table raw_apiaries (like apiaries including all);
    create table raw_changes (like changes including all)`);
  const clock = new ServerClock("bench");
  const work = Array.from({ length: batches }, () => makeBatch(clock, batch));
  const rawWork = Array.from({ length: batches }, () => makeBatch(clock, batch));

  // Warm up both paths once (query plans, JIT).
  await writeTenant(db, org, (w) => w.apply(makeBatch(clock, 50)));

  const oursWrite = await timed(async () => {
    for (const changes of work) await writeTenant(db, org, (w) => w.apply(changes));
  });
  let rawSeq = 0;
  const rawWrite = await timed(async () => {
    for (const changes of rawWork) {
      const rows = changes.map((c) => ({ id: c.entityId, ...c.payload }));
      const feed = changes.map((c) => ({
        seq: ++rawSeq,
        entity: c.entity,
        entity_id: c.entityId,
        scope_id: c.scopeId,
        payload: JSON.stringify(c.payload),
        hlc: c.hlc,
      }));
      await db.transaction(async (tx) => {
        await tx.query(
          `insert into raw_apiaries (organization_id, id, name, address, lat, lng, created_at, updated_at, scope_id, complete)
           select $1, r.id, r.name, r.address, r.lat, r.lng, r.created_at, r.updated_at, r.id, true
           from jsonb_to_recordset($2::text::jsonb) as r(id text, name text, address text,
             lat double precision, lng double precision, created_at timestamptz, updated_at timestamptz)`,
          [org, JSON.stringify(rows)],
        );
        await tx.query(
          `insert into raw_changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id)
           select $1, r.seq, r.entity, r.entity_id, r.scope_id, 1, r.payload, r.hlc, $3
           from jsonb_to_recordset($2::text::jsonb) as r(seq bigint, entity text, entity_id text,
             scope_id text, payload text, hlc text)`,
          [org, JSON.stringify(feed), user],
        );
      });
    }
  });

  const total = batch * batches;
  const pages = Math.floor(total / page);
  let oursRows = 0;
  const oursRead = await timed(async () => {
    let after = 0;
    for (let p = 0; p < pages; p++) {
      const rows = await readFeed(db, org, user, after, page);
      oursRows += rows.length;
      after = rows.at(-1)?.seq ?? after;
    }
  });
  let rawRows = 0;
  const rawRead = await timed(async () => {
    let after = 0;
    for (let p = 0; p < pages; p++) {
      const rows = await db.query<{ seq: number }>(
        `select seq, entity, entity_id, scope_id, op, payload, hlc, author_id from raw_changes
         where organization_id = $1 and seq > $2 order by seq limit $3`,
        [org, after, page],
      );
      rawRows += rows.length;
      after = Number(rows.at(-1)?.seq ?? after);
    }
  });

  const result = (c: string, unit: string, ours: number, raw: number): Result => ({
    database: name,
    case: c,
    unit,
    ours: Math.round(ours),
    raw: Math.round(raw),
    ratio: Math.round((ours / raw) * 100) / 100,
  });
  return [
    result(`write path, batches of ${batch}`, "changes/s", total / oursWrite, total / rawWrite),
    result(`feed read, pages of ${page}`, "changes/s", oursRows / oursRead, rawRows / rawRead),
  ];
}

const results: Result[] = [];
const pglite = await openPglite(undefined);
try {
  results.push(...(await benchDb("pglite", pglite)));
} finally {
  await pglite.close();
}
if (process.env.DATABASE_URL) {
  const scratch = await createScratchDatabase();
  const pg = await openPostgres(scratch.url);
  try {
    results.push(...(await benchDb("postgres", pg)));
  } finally {
    await pg.close();
    await scratch.drop();
  }
}

console.table(results);
const dir = join(import.meta.dirname, "..", "..", "bench-results");
mkdirSync(dir, { recursive: true });
const file = join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify({ batch, batches, page, results }, null, 2)}\n`);
console.log(`written to ${file}`);

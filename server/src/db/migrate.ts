/**
 * Forward-only numbered SQL migrations (migrations/NNN_name.sql). Each runs in
 * its own transaction together with its row in schema_migrations, under an
 * advisory lock so that several processes starting at once apply it once. A
 * migration that must compute what SQL cannot (encode rows in TypeScript) has
 * a step beside its SQL (`migrations/NNN_name.ts`, listed in `steps`), run
 * after the SQL in the same transaction.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Db, Queryable } from "./db.ts";
import { backfillChangeHead } from "./migrations/005_feed_wire.ts";
import { backfillHeldUntil } from "./migrations/008_readings_window.ts";
import { backfillPayloadRefs } from "./migrations/009_feed_photo_refs.ts";

const migrationsDir = join(import.meta.dirname, "migrations");
/** Arbitrary constant: the advisory lock key of the migration runner. */
const migrationLock = 7_114_011;

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /** Run after `sql`, in the same transaction. */
  readonly step?: (tx: Queryable) => Promise<void>;
}

/** The TypeScript steps of migrations, by version. */
const steps: ReadonlyMap<number, (tx: Queryable) => Promise<void>> = new Map([
  [5, backfillChangeHead],
  [8, backfillHeldUntil],
  [9, backfillPayloadRefs],
]);

export function loadMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 3)),
      name: f.slice(4, -4),
      sql: readFileSync(join(dir, f), "utf8"),
      step: steps.get(Number(f.slice(0, 3))),
    }));
}

/** Applies every migration not yet recorded; returns the versions applied now. */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<number[]> {
  await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [migrationLock]);
    await tx.exec(`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
  });
  const applied: number[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query("select pg_advisory_xact_lock($1)", [migrationLock]);
      const rows = await tx.query("select 1 from schema_migrations where version = $1", [
        m.version,
      ]);
      if (rows.length > 0) return false;
      await tx.exec(m.sql);
      await m.step?.(tx);
      await tx.query("insert into schema_migrations (version, name) values ($1, $2)", [
        m.version,
        m.name,
      ]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}

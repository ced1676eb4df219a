/**
 * The databases every database test runs on: PGlite always, and the Postgres
 * server too when DATABASE_URL is set. Each test file gets a fresh database.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, openPostgres } from "@hivekeep/server";
import postgres from "postgres";
import { migrationsDigest, templateDataDir } from "./pglite-template.ts";

export type DbKind = "pglite" | "postgres";

/**
 * TEST_DATABASES=postgres narrows a run to the server (CI's second run, after a
 * full run on PGlite); by default every database available is used.
 */
export const databaseKinds: DbKind[] = (
  process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]
).filter(
  (k): k is DbKind =>
    !process.env.TEST_DATABASES || process.env.TEST_DATABASES.split(",").includes(k),
);

export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

const databaseUrl = (base: string, name: string): string => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

let template: Promise<string> | undefined;

/**
 * A migrated, empty database on the Postgres server for scratch databases to be copied from
 * (CREATE DATABASE … TEMPLATE: no migrations per test server), named by the migrations' digest.
 * Made once per server and set of migrations: under a name of its own first, renamed into place
 * when migrated (a worker that finds it made meanwhile drops its own).
 */
function migratedTemplate(base: string): Promise<string> {
  template ??= (async () => {
    const name = `hk_template_${migrationsDigest()}`;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    try {
      const found = await admin`select 1 from pg_database where datname = ${name}`;
      if (found.length > 0) return name;
      const own = `hk_template_new_${randomBytes(6).toString("hex")}`;
      await admin.unsafe(`create database ${own}`);
      const db = await openPostgres(databaseUrl(base, own));
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
      try {
        await admin.unsafe(`alter database ${own} rename to ${name}`);
      } catch {
        await admin.unsafe(`drop database if exists ${own} with (force)`);
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return template;
}

/**
 * A new database on the Postgres server of DATABASE_URL: empty, or with `migrated` a copy of the
 * migrated template (a server started on it finds nothing to migrate).
 */
export async function createScratchDatabase(
  options: { readonly migrated?: boolean } = {},
): Promise<ScratchDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set");
  const name = `hk_test_${randomBytes(6).toString("hex")}`;
  const from = options.migrated ? ` template ${await migratedTemplate(base)}` : "";
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}${from}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(base, name),
    async drop() {
      const a = postgres(base, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

export interface LastingDatabase {
  /** Server settings that open it: DATABASE_URL, or HIVEKEEP_DATA_DIR for PGlite. */
  readonly env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A database that outlives one server, so a test can restart the server on it
 * with other settings: a scratch database on the Postgres server, or a PGlite
 * directory. Start servers on it with startTestServer("pglite", {...env}):
 * the env chooses the database, and "pglite" keeps startTestServer from making
 * a scratch database of its own.
 */
export async function lastingDatabase(kind: DbKind): Promise<LastingDatabase> {
  if (kind === "postgres") {
    const scratch = await createScratchDatabase({ migrated: true });
    return { env: { DATABASE_URL: scratch.url }, drop: scratch.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), "hivekeep-test-"));
  await templateDataDir(dir);
  return {
    env: { HIVEKEEP_DATA_DIR: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

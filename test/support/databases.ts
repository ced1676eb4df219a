/**
 * The databases every database test runs on: PGlite always, and the Postgres
 * server too when DATABASE_URL is set. Each test file gets a fresh database.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { templateDataDir } from "./pglite-template.ts";

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

/** A new empty database on the Postgres server of DATABASE_URL. */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set");
  const name = `hk_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
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
    const scratch = await createScratchDatabase();
    return { env: { DATABASE_URL: scratch.url }, drop: scratch.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), "hivekeep-test-"));
  await templateDataDir(dir);
  return {
    env: { HIVEKEEP_DATA_DIR: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

import type { Db } from "./db.ts";
import { migrate } from "./migrate.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";

/** Opens the configured database and brings its schema up to date. */
export async function openDb(opts: {
  databaseUrl: string | undefined;
  dataDir: string | undefined;
}): Promise<Db> {
  const db =
    opts.databaseUrl !== undefined
      ? await openPostgres(opts.databaseUrl)
      : await openPglite(opts.dataDir);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

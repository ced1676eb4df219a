/**
 * A migrated, empty PGlite database for the tests to start from. An embedded database's first
 * start runs initdb: 3 to 5 s of one core on a quiet machine and 7 to 19 s under CI's load, for
 * each of the hundreds of servers the suite starts. Loading the data directory of one made
 * earlier takes about a second (docs/decisions.md, "The test suite's PGlite template").
 *
 * The template is made once per machine and kept in the system's temporary directory, named by
 * a hash of what makes it (PGlite's version and the migrations' code): a changed migration makes
 * a new one. Workers that make it at the same time each write their own file and rename it into
 * place, so none reads half a file.
 */

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { type Db, migrate, openPglite, pgliteTemplate } from "@hivekeep/server";

const migrationsDir = join(import.meta.dirname, "..", "..", "server", "src", "db");

/** Whether the template is migrated, or a new database as initdb leaves it (migration tests). */
type Kind = "migrated" | "new";

/** A digest of the migrations' code (a changed migration changes it). */
export function migrationsDigest(): string {
  const hash = createHash("sha256");
  for (const file of migrationFiles()) hash.update(file).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

function migrationFiles(): string[] {
  const migrations = join(migrationsDir, "migrations");
  return [
    join(migrationsDir, "migrate.ts"),
    ...readdirSync(migrations)
      .filter((f) => !f.endsWith(".test.ts"))
      .sort()
      .map((f) => join(migrations, f)),
  ];
}

function templateName(kind: Kind): string {
  const hash = createHash("sha256");
  const serverRequire = createRequire(join(migrationsDir, "pglite.ts"));
  // The package's own package.json (its exports do not name it): its version.
  const entry = serverRequire.resolve("@electric-sql/pglite");
  const name = `${sep}@electric-sql${sep}pglite${sep}`;
  hash.update(readFileSync(`${entry.slice(0, entry.lastIndexOf(name) + name.length)}package.json`));
  if (kind === "migrated") hash.update(migrationsDigest());
  return join(tmpdir(), `hivekeep-pglite-${kind}-${hash.digest("hex").slice(0, 16)}.tar`);
}

const files = new Map<Kind, Promise<string>>();

/** The template's file (made if this machine has none yet). */
function templateFile(kind: Kind = "migrated"): Promise<string> {
  let file = files.get(kind);
  if (file !== undefined) return file;
  file = (async () => {
    const path = templateName(kind);
    if (existsSync(path)) return path;
    const made = await pgliteTemplate(async (db) => {
      if (kind === "migrated") await migrate(db);
    });
    const own = `${path}.${process.pid}.${Date.now()}`;
    writeFileSync(own, Buffer.from(await made.arrayBuffer()));
    renameSync(own, path);
    return path;
  })();
  files.set(kind, file);
  return file;
}

/**
 * A new PGlite database in memory from the template: migrated, or (`"new"`) as initdb leaves
 * it, for the tests of the migrations themselves.
 */
export async function templatePglite(kind: Kind = "migrated"): Promise<Db> {
  return openPglite(undefined, { template: new Blob([readFileSync(await templateFile(kind))]) });
}

/**
 * The template unpacked into the data directory `dir` (made if missing): a server or command
 * opens it as a migrated, empty database, without initdb.
 */
export async function templateDataDir(dir: string): Promise<void> {
  const path = await templateFile();
  mkdirSync(dir, { recursive: true });
  // The tarball's names begin with "/" (PGlite's data directory root); tar strips it.
  execFileSync("tar", ["-xf", path, "-C", dir], { stdio: ["ignore", "ignore", "pipe"] });
}

import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite, types } from "@electric-sql/pglite";
import { UnavailableError } from "@hivekeep/client-core/ops";
import type { Db, Queryable, RawValue, Row } from "./db.ts";
import { parseTimestamptz } from "./timestamptz.ts";

/** The embedded database failed for good: only a new process (the supervisor's restart) helps. */
export class PgliteFailedError extends Error {
  override name = "PgliteFailedError";
}

export interface PgliteOptions {
  /**
   * Called once when the embedded database has failed for good (its WebAssembly instance
   * aborted, or it closed without being asked to). PGlite lives in this process, so unlike a
   * Postgres server it cannot come back by itself: by default the failure is thrown where
   * nothing catches it, and main.ts logs one fatal line and exits non-zero for the supervisor
   * to start a fresh process (the data directory recovers from its WAL like a crashed Postgres).
   */
  readonly onFailed?: (err: PgliteFailedError) => void;
  /**
   * A data directory to start from, as PGlite's `dumpDataDir` tarball (`pgliteTemplate`); in
   * memory only. Loading one skips initdb, the seconds of an embedded database's first start:
   * the test servers start from a migrated template.
   */
  readonly template?: Blob | undefined;
}

const endProcess = (err: PgliteFailedError) => {
  setImmediate(() => {
    throw err;
  });
};

/**
 * Postgres's shared buffers for the embedded database: 16 MB, not the default 128 MB, which a
 * small self-hosted server holds for as long as it runs (WebAssembly memory is never given
 * back). PGlite serves one connection, so there are no other backends to share a larger pool
 * with, and a page it evicts is read again from the operating system's page cache (or, in
 * memory, from its own file system) at the cost of a copy, not of a disk read.
 */
export const pgliteSharedBuffers = "16MB";

/**
 * Embedded Postgres (PGlite, WASM) in dataDir, or in memory when dataDir is
 * undefined. PGlite runs one statement at a time; a transaction holds it
 * exclusively, which also serialises writers exactly like the feed lock does.
 * A new data directory is first initialized in a process of its own (initializeDataDir).
 */
export async function openPglite(
  dataDir: string | undefined,
  options: PgliteOptions = {},
): Promise<Db> {
  if (dataDir !== undefined) {
    if (options.template !== undefined) throw new Error("a template starts a database in memory");
    mkdirSync(dataDir, { recursive: true });
    if (!existsSync(join(dataDir, "PG_VERSION"))) await initializeDataDir(dataDir);
  }
  return wrapPglite(await createPglite(dataDir, options.template), options);
}

const createPglite = (dataDir: string | undefined, template: Blob | undefined) =>
  PGlite.create(dataDir ?? "memory://", {
    parsers: { [types.INT8]: (v: string) => Number(v), [types.TIMESTAMPTZ]: parseTimestamptz },
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${pgliteSharedBuffers}`],
    ...(template === undefined ? {} : { loadDataDir: template }),
  });

/**
 * A new database in memory, `prepare`d (migrated, say), as a data-directory tarball for
 * `openPglite`'s `template`.
 */
export async function pgliteTemplate(prepare: (db: Db) => Promise<void>): Promise<Blob> {
  const pg = await createPglite(undefined, undefined);
  try {
    await prepare(wrapPglite(pg));
    return await pg.dumpDataDir("none");
  } finally {
    await pg.close();
  }
}

/** A Node program (plain ESM) that creates the data directory argv[1] with PGlite and closes it. */
const initializer = `
import { PGlite } from ${JSON.stringify(import.meta.resolve("@electric-sql/pglite"))};
const pg = await PGlite.create(process.argv[1]);
await pg.close();
`;

/**
 * Creates a new data directory (initdb) in a short-lived child process. In this process it
 * would leave about 500 MB behind: initdb runs in a second and a third WebAssembly instance,
 * whose memory V8 collects only when it next needs to, and compiled code and allocator arenas
 * it never gives back. The server then opens the directory as on any later start.
 */
export async function initializeDataDir(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", initializer, dataDir], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`initializing the data directory ${dataDir} failed (${code ?? signal})`),
          ),
    );
  });
}

/** The Db port over an open PGlite (openPglite; tests hand in their own instance). */
export function wrapPglite(pg: PGlite, options: PgliteOptions = {}): Db {
  const onFailed = options.onFailed ?? endProcess;
  let closing = false;
  let failed = false;
  /**
   * A statement's own error passes unchanged. An instance that aborted or closed under us is
   * a failure for good: the caller gets `unavailable`, and onFailed hears of it once.
   */
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      // WebAssembly.RuntimeError: what an aborted instance throws (the type is not in this lib).
      const aborted = err instanceof Error && err.name === "RuntimeError";
      if (closing || !(aborted || pg.closed)) throw err;
      if (!failed) {
        failed = true;
        onFailed(
          new PgliteFailedError(
            "the embedded database (PGlite) failed and cannot recover in this process",
            { cause: err },
          ),
        );
      }
      throw new UnavailableError("the database is unavailable; try again shortly", { cause: err });
    }
  };
  const wrap = (q: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<R extends Row>(text: string, params?: readonly unknown[]) {
      const res = await guarded(() => q.query<R>(text, params ? [...params] : undefined));
      return res.rows;
    },
    async queryRaw(text, params, each) {
      const res = await guarded(() => q.query<RawValue[]>(text, [...params], { rowMode: "array" }));
      for (const row of res.rows) each(row);
    },
    async exec(text: string) {
      await guarded(() => q.exec(text));
    },
  });
  return {
    kind: "pglite",
    ...wrap(pg),
    transaction: (fn) => guarded(() => pg.transaction((tx) => fn(wrap(tx)))),
    async listen(channel, onPayload) {
      const unlisten = await guarded(() => pg.listen(channel, onPayload));
      return async () => {
        if (!pg.closed) await unlisten();
      };
    },
    async notify(channel, payload) {
      await guarded(() => pg.query("select pg_notify($1, $2)", [channel, payload]));
    },
    async close() {
      closing = true;
      if (!pg.closed) await pg.close();
    },
  };
}

import { mkdirSync } from "node:fs";
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
}

const endProcess = (err: PgliteFailedError) => {
  setImmediate(() => {
    throw err;
  });
};

/**
 * Embedded Postgres (PGlite, WASM) in dataDir, or in memory when dataDir is
 * undefined. PGlite runs one statement at a time; a transaction holds it
 * exclusively, which also serialises writers exactly like the feed lock does.
 */
export async function openPglite(
  dataDir: string | undefined,
  options: PgliteOptions = {},
): Promise<Db> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir ?? "memory://", {
    parsers: { [types.INT8]: (v: string) => Number(v), [types.TIMESTAMPTZ]: parseTimestamptz },
  });
  return wrapPglite(pg, options);
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

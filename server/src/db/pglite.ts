import { mkdirSync } from "node:fs";
import { PGlite, types } from "@electric-sql/pglite";
import type { Db, Queryable, RawValue, Row } from "./db.ts";
import { parseTimestamptz } from "./timestamptz.ts";

/**
 * Embedded Postgres (PGlite, WASM) in dataDir, or in memory when dataDir is
 * undefined. PGlite runs one statement at a time; a transaction holds it
 * exclusively, which also serialises writers exactly like the feed lock does.
 */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir ?? "memory://", {
    parsers: { [types.INT8]: (v: string) => Number(v), [types.TIMESTAMPTZ]: parseTimestamptz },
  });
  const wrap = (q: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<R extends Row>(text: string, params?: readonly unknown[]) {
      const res = await q.query<R>(text, params ? [...params] : undefined);
      return res.rows;
    },
    async queryRaw(text, params, each) {
      const res = await q.query<RawValue[]>(text, [...params], { rowMode: "array" });
      for (const row of res.rows) each(row);
    },
    async exec(text: string) {
      await q.exec(text);
    },
  });
  return {
    kind: "pglite",
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async listen(channel, onPayload) {
      const unlisten = await pg.listen(channel, onPayload);
      return async () => {
        if (!pg.closed) await unlisten();
      };
    },
    async notify(channel, payload) {
      await pg.query("select pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}

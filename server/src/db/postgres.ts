import postgres from "postgres";
import type { Db, Queryable, RawValue, Row } from "./db.ts";
import { parseTimestamptz } from "./timestamptz.ts";

type Types = { bigint: number; date: Date };
type Sql = postgres.Sql<Types>;
type TxSql = postgres.TransactionSql<Types>;

/** A Postgres server through postgres.js (a small pool per process). */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Db> {
  const sql: Sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // int8 (counts, feed sequence numbers) as number, as PGlite returns them;
    // timestamptz parsed correctly for years below 100 too.
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (v: number) => String(v),
        parse: (v: string) => Number(v),
      },
      date: {
        to: 1184,
        from: [1184],
        serialize: (v: Date | string) => (v instanceof Date ? v.toISOString() : v),
        parse: parseTimestamptz,
      },
    },
  });
  const wrap = (q: Sql | TxSql): Queryable => ({
    async query<R extends Row>(text: string, params?: readonly unknown[]) {
      const rows = await q.unsafe(text, (params ?? []) as postgres.ParameterOrJSON<never>[], {
        prepare: true,
      });
      return rows as unknown as R[];
    },
    async queryRaw(text: string, params?: readonly unknown[]) {
      const rows = await q
        .unsafe(text, (params ?? []) as postgres.ParameterOrJSON<never>[], { prepare: true })
        .raw();
      return rows as unknown as RawValue[][];
    },
    async exec(text: string) {
      await q.unsafe(text);
    },
  });
  // Fail fast with a clear error when the server is unreachable.
  await sql`select 1`;
  return {
    kind: "postgres",
    ...wrap(sql),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      sql.begin((tx) => fn(wrap(tx))) as Promise<T>,
    async listen(channel, onPayload) {
      const { unlisten } = await sql.listen(channel, onPayload);
      return unlisten;
    },
    async notify(channel, payload) {
      await sql.notify(channel, payload);
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

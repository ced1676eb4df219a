import { connect, type Socket } from "node:net";
import postgres from "postgres";
import type { Db, Queryable, RawValue, Row } from "./db.ts";
import { parseTimestamptz } from "./timestamptz.ts";

type Types = { bigint: number; date: Date };
type Sql = postgres.Sql<Types>;
type TxSql = postgres.TransactionSql<Types>;

/** What postgres.js hands a custom `socket` function (its parsed options). */
interface SocketOptions {
  readonly host: readonly string[];
  readonly port: readonly number[];
  /** The full unix socket path, when connecting through one. */
  readonly path?: string | false;
  /** Seconds. */
  readonly connect_timeout?: number;
}

/**
 * The connections' sockets, opened with TCP_NODELAY (postgres.js's documented
 * `socket` option; it leaves Nagle's algorithm on). A transaction that sends
 * several statements before awaiting them (a Push sends each chunk's writes
 * while it merges the next) otherwise stalls on delayed ACKs, up to 40 ms at a
 * time. Hosts are tried in order, as postgres.js does.
 */
async function openSocket(o: SocketOptions): Promise<Socket> {
  const timeoutMs = (o.connect_timeout ?? 30) * 1000;
  const targets = o.path
    ? [{ path: o.path }]
    : o.host.map((host, i) => ({ host, port: o.port[i] ?? o.port[0] ?? 5432 }));
  let failure: unknown = new Error("no database host to connect to");
  for (const target of targets) {
    try {
      return await new Promise<Socket>((resolve, reject) => {
        const socket = connect({ ...target, noDelay: true, timeout: timeoutMs });
        socket.once("connect", () => {
          socket.setTimeout(0);
          socket.off("error", reject);
          resolve(socket);
        });
        socket.once("timeout", () => {
          socket.destroy();
          reject(new Error(`connecting to the database timed out after ${timeoutMs} ms`));
        });
        socket.once("error", reject);
      });
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

/** A Postgres server through postgres.js (a small pool per process). */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Db> {
  const sql: Sql = postgres(url, {
    // Documented (README, "Custom socket") but missing from postgres.js's types.
    ...({ socket: openSocket } as object),
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
    async queryRaw(text, params, each) {
      await q
        .unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true })
        .raw()
        .forEach((row) => {
          each(row as unknown as RawValue[]);
        });
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

import { connect, type Socket } from "node:net";
import { UnavailableError } from "@hivekeep/client-core/ops";
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
}

/**
 * Seconds postgres.js waits for a new connection to be ready (TCP connect, startup,
 * authentication) before it fails the waiting statements with CONNECT_TIMEOUT. Its default, 30,
 * would hold every request for half a minute while the database is away; a healthy server on a
 * network the service can rely on answers in milliseconds, so a few seconds is ample and a request
 * during an outage fails fast with `unavailable` (a refused connection fails at once anyway).
 */
export const connectTimeoutSeconds = 5;

/**
 * Seconds a connection waits before it tries again after a failure: 25-50 ms doubling to at most
 * 0.5-1 s. postgres.js's default grows to 10-20 s and is shared by the pool and its LISTEN
 * connection, so after an outage of a few seconds, requests queued behind those attempts and
 * the pokes of Subscribe stayed away that much longer than the database did. A refused connection
 * costs the database nothing, and a failed attempt fails every statement waiting for a connection
 * (server/patches/postgres@3.4.9.patch), so a request during an outage is answered `unavailable`
 * within about a second (connect_timeout where the network drops packets instead).
 */
export const reconnectBackoff = (retries: number): number =>
  Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2);

/**
 * Seconds an unused connection stays open. Load balancers, NAT and firewalls drop idle TCP
 * connections silently after a few minutes (AWS NLB 350 s, Azure 4 min), and a statement sent on
 * such a connection waits for TCP to give up; closing our idle ones first avoids that.
 */
export const idleTimeoutSeconds = 120;

/**
 * Milliseconds the database lets one of our sessions sit idle inside a transaction before it
 * ends the session (Postgres's idle_in_transaction_session_timeout). Our transactions never wait
 * on anything but their own statements (a Push's longest gap is merging a chunk, milliseconds),
 * so a session idle that long lost its way: ending it fails that request with `unavailable` and
 * frees the connection and its row locks, instead of a request that waits forever. Defence in
 * depth only: the one such case seen (a statement pipelined onto a connection between its
 * socket's error and its close, issue 27) is fixed at its cause in the driver patch
 * (server/patches/postgres@3.4.9.patch, settleUnanswerable), and this bound did not even cover
 * it (the backend waited "active" for the rest of an extended-protocol message, not idle).
 */
export const idleInTransactionMs = 60_000;

/**
 * The connections' sockets, opened with TCP_NODELAY (postgres.js's documented
 * `socket` option; it leaves Nagle's algorithm on). A transaction that sends
 * several statements before awaiting them (a Push sends each chunk's writes
 * while it merges the next) otherwise stalls on delayed ACKs, up to 40 ms at a
 * time. The socket is handed over while it still connects: a refused or failed
 * connection then reaches postgres.js as the socket's error and close, the path
 * that returns the connection to its pool for the next attempt (a rejected
 * promise here would leave the connection stuck "connecting" for good, and the
 * pool waiting on it). connect_timeout is postgres.js's own timer. Several hosts
 * are tried in turn, one per attempt.
 */
let nextHost = 0;
function openSocket(o: SocketOptions): Socket {
  if (o.path) return connect({ path: o.path, noDelay: true });
  const i = nextHost++ % Math.max(1, o.host.length);
  return connect({
    host: o.host[i] ?? "localhost",
    port: o.port[i] ?? o.port[0] ?? 5432,
    noDelay: true,
  });
}

/**
 * Error codes that mean the connection to the database is gone or cannot be made, not that the
 * statement was wrong: postgres.js's own (CONNECTION_*, CONNECT_TIMEOUT), the socket's, and
 * Postgres's SQLSTATE class 08 (connection exception), 57P01-57P03 (the server shutting down,
 * crashed or starting), 25P03 (a session ended for idling in a transaction: idleInTransactionMs)
 * and 53300 (too many connections).
 */
const lostConnectionCodes = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "25P03",
  "53300",
]);

/** Whether err says the database is unreachable (see lostConnectionCodes). */
export function isConnectionLoss(err: unknown): boolean {
  const code =
    typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && (lostConnectionCodes.has(code) || code.startsWith("08"));
}

/** A lost connection becomes `unavailable` for the caller; any other error passes unchanged. */
function unavailableIfLost(err: unknown): unknown {
  return isConnectionLoss(err)
    ? new UnavailableError("the database is unavailable; try again shortly", { cause: err })
    : err;
}

async function guarded<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    throw unavailableIfLost(err);
  }
}

/** A Postgres server through postgres.js (a small pool per process). */
export async function openPostgres(
  url: string,
  options: { max?: number; idleInTransactionMs?: number } = {},
): Promise<Db> {
  const sql: Sql = postgres(url, {
    // Documented (README, "Custom socket") but missing from postgres.js's types.
    ...({ socket: openSocket } as object),
    max: options.max ?? 10,
    connect_timeout: connectTimeoutSeconds,
    backoff: reconnectBackoff,
    idle_timeout: idleTimeoutSeconds,
    connection: {
      idle_in_transaction_session_timeout: options.idleInTransactionMs ?? idleInTransactionMs,
    },
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
      const rows = await guarded(
        q.unsafe(text, (params ?? []) as postgres.ParameterOrJSON<never>[], { prepare: true }),
      );
      return rows as unknown as R[];
    },
    async queryRaw(text, params, each) {
      await guarded(
        q
          .unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true })
          .raw()
          .forEach((row) => {
            each(row as unknown as RawValue[]);
          }),
      );
    },
    async exec(text: string) {
      await guarded(q.unsafe(text));
    },
  });
  // Fail fast with a clear error when the server is unreachable.
  try {
    await sql`select 1`;
  } catch (err) {
    await sql.end({ timeout: 0 });
    throw err;
  }
  return {
    kind: "postgres",
    ...wrap(sql),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      guarded(sql.begin((tx) => fn(wrap(tx))) as Promise<T>),
    // postgres.js keeps LISTEN on a connection of its own and listens again whenever that
    // connection is replaced (test/reliability/faults.test.ts terminates it and cuts the
    // database off for a while; pokes come back either way).
    async listen(channel, onPayload) {
      const { unlisten } = await guarded(sql.listen(channel, onPayload));
      return unlisten;
    },
    async notify(channel, payload) {
      await guarded(sql.notify(channel, payload));
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * The database port: one small interface with two adapters (PGlite embedded,
 * postgres.js for a server). Every store function takes a `Queryable` as its
 * first argument so the caller decides the transaction. Both adapters return
 * int8 as number, timestamptz as Date and jsonb parsed.
 *
 * JSON goes in as a string parameter cast `$n::text::jsonb`: with a bare
 * `$n::jsonb` postgres.js would encode the string as JSON a second time.
 */
export type Row = Record<string, unknown>;

/**
 * A column of `queryRaw`: text as the UTF-8 bytes the server sent where the
 * driver can hand them over undecoded (postgres.js: every column, numbers as
 * their digits), else the value as `query` parses it (PGlite decodes every
 * value itself). Null for SQL null.
 */
export type RawValue = Uint8Array | string | number | boolean | null;

export interface Queryable {
  /** One parameterised statement ($1, $2, …). */
  query<R extends Row = Row>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /**
   * Like `query`, but hands each row to `each` as it arrives (postgres.js; PGlite
   * once all have), as an array of its columns in select order, text left
   * undecoded where the driver allows (see RawValue), and keeps none: for bulk
   * reads that pass text through to the wire (Pull) without a string or an
   * object per value that lives until the last row is in.
   */
  queryRaw(
    text: string,
    params: readonly unknown[],
    each: (row: readonly RawValue[]) => void,
  ): Promise<void>;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls onPayload for every NOTIFY on channel, until the returned function is called. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Awaits statements sent together on one transaction (pipelined: they run in the order they
 * were sent); every one settles before the first failure is thrown, so the transaction never
 * ends while one of its statements is still in flight. One implementation, in client-core.
 */
export { settled } from "@hivekeep/client-core/ops";

/**
 * Whether the database answers `select 1` within timeoutMs: the readiness probe, which must
 * answer while the database is away rather than wait on it. Resolves with the failure (a timeout
 * or the database's error), or undefined when ready.
 */
export async function unreadyReason(db: Queryable, timeoutMs: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<Error>((resolve) => {
    timer = setTimeout(
      () => resolve(new Error(`the database did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      db.query("select 1").then(
        () => undefined,
        (err: unknown) => err ?? new Error("the database check failed"),
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

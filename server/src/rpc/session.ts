import type { HandlerContext } from "@connectrpc/connect";
import type { OpsSession, SessionOf } from "@hivekeep/client-core/ops";
import type { Db, Queryable } from "../db/db.ts";
import { sqlSeries } from "../store/reading-series-sql.ts";
import { sqlStats } from "../store/sql-stats.ts";
import { sqlStore } from "../store/sql-store.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";
import { keyTxKey } from "./idempotency.ts";

/**
 * The database as seen from inside a transaction: every statement runs on `tx`, and a
 * transaction begun on it (the store's tenant write) is `tx` itself, so it commits with it.
 */
function inTransaction(db: Db, tx: Queryable): Db {
  return {
    kind: db.kind,
    query: (text, params) => tx.query(text, params),
    queryRaw: (text, params, each) => tx.queryRaw(text, params, each),
    exec: (text) => tx.exec(text),
    transaction: (fn) => fn(tx),
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    notify: (channel, payload) => db.notify(channel, payload),
    close: () => db.close(),
  };
}

/** The session of a call: the caller's tenant in SQL, the server clock, new ids. */
export function sessionOf(deps: Deps): SessionOf {
  return (ctx: HandlerContext): OpsSession => {
    const { organizationId, userId } = callerOf(ctx);
    // A call with an Idempotency-Key runs in the transaction that stores its answer.
    const tx = ctx.values.get(keyTxKey);
    const db = tx === undefined ? deps.db : inTransaction(deps.db, tx);
    // The ids of new rows this call mints: its writes need not look them up.
    const minted = new Set<string>();
    return {
      store: sqlStore(db, organizationId, { clock: deps.clock, newId: deps.newId, minted }),
      stats: sqlStats(db, organizationId),
      series: sqlSeries(db, organizationId),
      organizationId,
      async organizationName() {
        const [row] = await db.query<{ name: string }>(
          "select name from organizations where id = $1",
          [organizationId],
        );
        return row?.name ?? "";
      },
      userId,
      now: () => new Date(deps.clock.nowMs()),
      newId() {
        const id = deps.newId();
        minted.add(id);
        return id;
      },
      stamp: () => deps.clock.stamp(),
    };
  };
}

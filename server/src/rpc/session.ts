import type { HandlerContext } from "@connectrpc/connect";
import type { OpsSession, SessionOf } from "@hivekeep/client-core/ops";
import { sqlStats } from "../store/sql-stats.ts";
import { sqlStore } from "../store/sql-store.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";

/** The session of a call: the caller's tenant in SQL, the server clock, new ids. */
export function sessionOf(deps: Deps): SessionOf {
  return (ctx: HandlerContext): OpsSession => {
    const { organizationId, userId } = callerOf(ctx);
    // The ids of new rows this call mints: its writes need not look them up.
    const minted = new Set<string>();
    return {
      store: sqlStore(deps.db, organizationId, { clock: deps.clock, newId: deps.newId, minted }),
      stats: sqlStats(deps.db, organizationId),
      organizationId,
      async organizationName() {
        const [row] = await deps.db.query<{ name: string }>(
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

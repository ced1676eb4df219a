/**
 * The server's own RPC handlers in process, as the single-user caller: what `pnpm seed` and the
 * benchmark's seeding go through (the rules of the API, without HTTP).
 */
import { createRouterTransport, type Transport } from "@connectrpc/connect";
import pino from "pino";
import type { Caller } from "../auth/caller.ts";
import type { Db } from "../db/db.ts";
import { localCallerInterceptor } from "../rpc/auth-interceptor.ts";
import type { Deps } from "../rpc/deps.ts";
import { errorInterceptor, routes } from "../rpc/router.ts";
import type { FeedNotifier } from "../store/feed-notifier.ts";
import { newIdSource } from "../store/new-id.ts";
import { newServerClock } from "../store/server-clock.ts";
import { localCaller } from "../store/tenants.ts";

export function inProcessTransport(
  db: Db,
  notifier: FeedNotifier,
  log = pino({ level: "silent" }),
): Transport {
  return transportAs(inProcessDeps(db, notifier, log), localCaller);
}

/** What the handlers need, for a command run in process (seeding, the operators' transfer). */
export function inProcessDeps(
  db: Db,
  notifier: FeedNotifier,
  log = pino({ level: "silent" }),
): Deps {
  return {
    db,
    clock: newServerClock(),
    newId: newIdSource(),
    notifier,
    log,
    shutdown: new AbortController().signal,
  };
}

/** The handlers over `deps`, every call made as `caller` (the demo's seeding uses its own). */
export function transportAs(deps: Deps, caller: Caller): Transport {
  return createRouterTransport(routes(deps), {
    router: { interceptors: [errorInterceptor(deps), localCallerInterceptor(caller)] },
  });
}

import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { errorInterceptor as normaliseErrors, recordServices } from "@hivekeep/client-core/ops";
import { AuthService, SyncService } from "@hivekeep/proto";
import { authService } from "./auth-service.ts";
import type { Deps } from "./deps.ts";
import { sessionOf } from "./session.ts";
import { syncService } from "./sync-service.ts";

/**
 * Normalises every error at the edge (client-core's one mapping): domain errors to their
 * codes, anything unexpected to `internal`, logged with its cause and never sent.
 */
export const errorInterceptor = (deps: Deps): Interceptor =>
  normaliseErrors((cause, procedure) =>
    deps.log.error({ err: cause, procedure }, "internal error"),
  );

/**
 * Registers every service: the record services are client-core's (the same code a device runs
 * over its replica) over this tenant's SQL store; Sync and Auth are the server's own.
 */
export function routes(deps: Deps) {
  const records = recordServices(sessionOf(deps));
  // One implementation of each service, however many routers it is registered on (the HTTP
  // edge has a second one with a small body limit for the sign-in methods).
  const sync = syncService(deps);
  const auth = authService(deps);
  return (router: ConnectRouter) => {
    records(router);
    router.service(SyncService, sync);
    router.service(AuthService, auth);
  };
}

import { Code, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import {
  ApiaryService,
  AuthService,
  EventService,
  HarvestService,
  HiveService,
  InspectionService,
  QueenService,
  StatsService,
  SyncService,
  TaskService,
  TreatmentService,
} from "@hivekeep/proto";
import { apiaryService } from "./apiary-service.ts";
import type { Deps } from "./deps.ts";
import { toConnectError } from "./errors.ts";
import { hiveService } from "./hive-service.ts";
import { syncService } from "./sync-service.ts";

/**
 * Normalises every error at the edge: domain errors to their codes, anything
 * unexpected to `internal` (logged with its cause, never sent).
 */
export function errorInterceptor(deps: Deps): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      const ce = toConnectError(err);
      if (ce.cause !== undefined && ce.code === Code.Internal) {
        deps.log.error({ err: ce.cause, procedure: req.url }, "internal error");
      }
      throw ce;
    }
  };
}

/** Registers every service; methods not implemented yet answer `unimplemented`. */
export function routes(deps: Deps) {
  return (router: ConnectRouter) => {
    router.service(ApiaryService, apiaryService(deps));
    router.service(SyncService, syncService(deps));
    router.service(HiveService, hiveService(deps));
    for (const service of [
      InspectionService,
      QueenService,
      TaskService,
      TreatmentService,
      HarvestService,
      EventService,
      StatsService,
      AuthService,
    ]) {
      router.service(service, {});
    }
  };
}

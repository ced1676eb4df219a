import { Code, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import {
  apiaryService,
  eventService,
  harvestService,
  hiveService,
  inspectionService,
  queenService,
  statsService,
  taskService,
  treatmentService,
} from "@hivekeep/client-core/ops";
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
import { authService } from "./auth-service.ts";
import type { Deps } from "./deps.ts";
import { toConnectError } from "./errors.ts";
import { sessionOf } from "./session.ts";
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

/** Registers every service. */
export function routes(deps: Deps) {
  const session = sessionOf(deps);
  return (router: ConnectRouter) => {
    router.service(ApiaryService, apiaryService(session));
    router.service(SyncService, syncService(deps));
    router.service(HiveService, hiveService(session));
    router.service(HarvestService, harvestService(session));
    router.service(EventService, eventService(session));
    router.service(StatsService, statsService(session));
    router.service(InspectionService, inspectionService(session));
    router.service(TreatmentService, treatmentService(session));
    router.service(QueenService, queenService(session));
    router.service(TaskService, taskService(session));
    router.service(AuthService, authService(deps));
  };
}

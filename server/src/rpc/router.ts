import { Code, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import {
  apiaryService,
  harvestService,
  hiveService,
  inspectionService,
  queenService,
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
import { eventService } from "./event-service.ts";
import { sessionOf } from "./session.ts";
import { statsService } from "./stats-service.ts";
import { syncService } from "./sync-service.ts";
import { taskService } from "./task-service.ts";
import { treatmentService } from "./treatment-service.ts";

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
    router.service(EventService, eventService(deps));
    router.service(StatsService, statsService(deps));
    router.service(InspectionService, inspectionService(session));
    router.service(TreatmentService, treatmentService(deps));
    router.service(QueenService, queenService(session));
    router.service(TaskService, taskService(deps));
    router.service(AuthService, authService(deps));
  };
}

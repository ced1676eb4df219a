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
import { authService } from "./auth-service.ts";
import { hiveService } from "@hivekeep/client-core/ops";
import type { Deps } from "./deps.ts";
import { sessionOf } from "./session.ts";
import { toConnectError } from "./errors.ts";
import { eventService } from "./event-service.ts";
import { harvestService } from "./harvest-service.ts";
import { inspectionService } from "./inspection-service.ts";
import { queenService } from "./queen-service.ts";
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
    router.service(ApiaryService, apiaryService(deps));
    router.service(SyncService, syncService(deps));
    router.service(HiveService, hiveService(session));
    router.service(HarvestService, harvestService(deps));
    router.service(EventService, eventService(deps));
    router.service(StatsService, statsService(deps));
    router.service(InspectionService, inspectionService(deps));
    router.service(TreatmentService, treatmentService(deps));
    router.service(QueenService, queenService(deps));
    router.service(TaskService, taskService(deps));
    router.service(AuthService, authService(deps));
  };
}

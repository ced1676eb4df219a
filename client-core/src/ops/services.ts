/**
 * Every record service of the contract over a replica, registered on a Connect router: the
 * server mounts these behind its auth interceptor, a device behind createRouterTransport.
 */
import type { ConnectRouter } from "@connectrpc/connect";
import {
  ApiaryService,
  EventService,
  HarvestService,
  HiveService,
  InspectionService,
  QueenService,
  StatsService,
  TaskService,
  TreatmentService,
} from "@hivekeep/proto";
import { apiaryService } from "./apiary-service.ts";
import { eventService } from "./event-service.ts";
import { harvestService } from "./harvest-service.ts";
import { hiveService } from "./hive-service.ts";
import { inspectionService } from "./inspection-service.ts";
import { queenService } from "./queen-service.ts";
import { requestValuesGuard } from "./request-values.ts";
import type { SessionOf } from "./session.ts";
import { statsService } from "./stats-service.ts";
import { taskService } from "./task-service.ts";
import { treatmentService } from "./treatment-service.ts";

/**
 * The services read through `requestValuesGuard`: an id no row can have (a NUL, 1 MB) is an
 * unknown id before any store sees it.
 */
export function recordServices(session: SessionOf): (router: ConnectRouter) => void {
  const sessionOf: SessionOf = (ctx) => {
    const s = session(ctx);
    return { ...s, store: requestValuesGuard(s.store) };
  };
  return (router) => {
    router.service(ApiaryService, apiaryService(sessionOf));
    router.service(HiveService, hiveService(sessionOf));
    router.service(InspectionService, inspectionService(sessionOf));
    router.service(QueenService, queenService(sessionOf));
    router.service(TaskService, taskService(sessionOf));
    router.service(TreatmentService, treatmentService(sessionOf));
    router.service(HarvestService, harvestService(sessionOf));
    router.service(EventService, eventService(sessionOf));
    router.service(StatsService, statsService(sessionOf));
  };
}

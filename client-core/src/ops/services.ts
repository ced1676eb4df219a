/**
 * Every record service of the contract over a replica, registered on a Connect router: the
 * server mounts these behind its auth interceptor, a device behind createRouterTransport. And
 * the same services as clients, one per field, which a device client and the tests hold.
 */
import type { DescService } from "@bufbuild/protobuf";
import type { Client, ConnectRouter } from "@connectrpc/connect";
import {
  ApiaryService,
  EventService,
  HarvestService,
  HiveService,
  InspectionService,
  QueenService,
  StatsService,
  TaskService,
  TransferService,
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
import { transferService } from "./transfer-service.ts";
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
    router.service(TransferService, transferService(sessionOf));
  };
}

/** A client of each record service, under the name the device client exposes it by. */
export interface RecordClients {
  readonly apiaries: Client<typeof ApiaryService>;
  readonly hives: Client<typeof HiveService>;
  readonly inspections: Client<typeof InspectionService>;
  readonly queens: Client<typeof QueenService>;
  readonly tasks: Client<typeof TaskService>;
  readonly treatments: Client<typeof TreatmentService>;
  readonly harvests: Client<typeof HarvestService>;
  readonly events: Client<typeof EventService>;
  readonly stats: Client<typeof StatsService>;
  /** Export and import (issue 26). */
  readonly transfer: Client<typeof TransferService>;
}

/**
 * The record clients, each made by `clientOf` (e.g. `createClient(service, transport)`), so the
 * device's local services and a server reached over HTTP are held the same way.
 */
export function recordClients(
  clientOf: <S extends DescService>(service: S) => Client<S>,
): RecordClients {
  return {
    apiaries: clientOf(ApiaryService),
    hives: clientOf(HiveService),
    inspections: clientOf(InspectionService),
    queens: clientOf(QueenService),
    tasks: clientOf(TaskService),
    treatments: clientOf(TreatmentService),
    harvests: clientOf(HarvestService),
    events: clientOf(EventService),
    stats: clientOf(StatsService),
    transfer: clientOf(TransferService),
  };
}

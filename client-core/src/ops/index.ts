/**
 * The contract operations, one implementation for the server and the device: Connect services
 * over a replica store (the port), with the store's list queries described as data. Pure like
 * the core: no Dexie, no DOM, no database driver.
 */
export { apiaryService } from "./apiary-service.ts";
export { dayMs, wholeDaysSince } from "./days.ts";
export { type Due, dueHives, type InspectionAge, inspectionAge } from "./due.ts";
export {
  errorInterceptor,
  invalidArgument,
  toConnectError,
  UnavailableError,
} from "./errors.ts";
export { eventService } from "./event-service.ts";
export { harvestService } from "./harvest-service.ts";
export { type HiveAt, hiveAt } from "./hive-at.ts";
export {
  alertDays,
  type HiveHistory,
  hiveAlerts,
  hiveHistory,
  lastVisits,
  type ReadingColumns,
  recentVisits,
} from "./hive-history.ts";
export { hiveService } from "./hive-service.ts";
export { inspectionService } from "./inspection-service.ts";
export { localStats } from "./local-stats.ts";
export { type PageWindow, pageResponse, pageWindow } from "./paging.ts";
export { queenService } from "./queen-service.ts";
export {
  assertTimestamp,
  columnOf,
  compareRows,
  compareText,
  defaultOf,
  type Filter,
  foldAscii,
  type ListQuery,
  matches,
  type OrderTerm,
  runList,
  type Scalar,
} from "./query.ts";
export { isReadMethod, readOnlyError, readOnlyInterceptor } from "./read-only.ts";
export {
  bucketsOf,
  getReadingSeries,
  localSeries,
  type SeriesSource,
  seriesResponse,
  seriesRows,
} from "./reading-series.ts";
export {
  type GetOptions,
  observeReads,
  type ReplicaReader,
  type ReplicaStore,
  type ReplicaWriter,
  type StampObserver,
  type StoredRow,
} from "./replica-store.ts";
export { isHoldable, requestValuesGuard } from "./request-values.ts";
export { type RecordClients, recordClients, recordServices } from "./services.ts";
export { commandContext, type OpsSession, type SessionOf } from "./session.ts";
export { settled } from "./settled.ts";
export {
  defaultThresholdDays,
  nextTaskCount,
  recentInspectionCount,
  statsService,
} from "./stats-service.ts";
export type {
  DashboardFigures,
  DashboardQuery,
  HoneyFigures,
  HoneyStat,
  StatsSource,
} from "./stats-source.ts";
export { taskService } from "./task-service.ts";
export { isoOf, isoOr, isoOrNull } from "./timestamps.ts";
export { toProto } from "./to-proto.ts";
export {
  exportBackup,
  exportChunkLength,
  type ImportOutcome,
  type ImportRequest,
  importRecords,
  transferService,
} from "./transfer-service.ts";
export { treatmentService } from "./treatment-service.ts";

/**
 * The pure core of Hivekeep sync, shared by the server and the devices: the entity registry,
 * the hybrid logical clock and the merge rule. No I/O: time and ids come in as arguments.
 */

// Domain: changes, errors and the pure commands the server and devices share.
export { type Change, type ChangeOp, rowKey, toWire } from "./change.ts";
// The value rules of a column: Push validation, the commands and the app's forms apply them.
export {
  isEntityId,
  maxIdLength,
  maxInt32,
  maxTextLength,
  minInt32,
  type NumberRuleBreak,
  numberLimits,
  numberRuleBreak,
  numberRuleText,
  parseColumnValue,
} from "./column-value.ts";
export {
  type ApiaryInput,
  type ApiaryState,
  createApiary,
  deleteApiary,
  updateApiary,
} from "./commands/apiary.ts";
export { tombstone, upsert } from "./commands/change-builders.ts";
export type { CommandContext } from "./commands/context.ts";
export {
  type EventInput,
  EventType,
  type HiveRecordState,
  type RecordEvent,
  recordEvent,
  refrozen,
  removeRecordOfHive,
  rewriteRecordOfHive,
} from "./commands/event.ts";
export {
  type CreateHarvestInput,
  createHarvest,
  deleteHarvest,
  type HarvestHive,
  type HarvestState,
  harvestTitle,
} from "./commands/harvest.ts";
export {
  type CreateHiveInput,
  checkHiveFields,
  createHive,
  deleteHive,
  type HiveFields,
  type HiveState,
  type PlacementState,
  type RelocateHiveInput,
  type RelocationTarget,
  relocateHive,
  type UpdateHiveInput,
  updateHive,
} from "./commands/hive.ts";
export {
  addInspectionPhoto,
  type CreateInspectionInput,
  createInspection,
  deleteInspection,
  type InspectionFields,
  type InspectionHive,
  type InspectionState,
  removeInspectionPhoto,
  type UpdateInspectionInput,
  updateInspection,
} from "./commands/inspection.ts";
export { checkedPayload } from "./commands/payload-check.ts";
export { checkPhoto } from "./commands/photo-check.ts";
export {
  type CreateQueenInput,
  createQueen,
  type DeleteQueenState,
  defaultMarking,
  deleteQueen,
  type FrozenRecord,
  type QueenEvent,
  type QueenFields,
  type QueenHive,
  type QueenReign,
  type QueenState,
  queenBefore,
  type UpdateQueenInput,
  updateQueen,
} from "./commands/queen.ts";
export {
  type CreateTaskInput,
  createTask,
  deleteTask,
  setTaskDone,
  type TaskRefs,
  type TaskState,
  type UpdateTaskInput,
  updateTask,
} from "./commands/task.ts";
export {
  type CreateTreatmentInput,
  createTreatment,
  defaultTreatmentReason,
  deleteTreatment,
  registerSnapshotColumns,
  type TreatmentFields,
  type TreatmentHive,
  type UpdateTreatmentInput,
  updateTreatment,
} from "./commands/treatment.ts";
export { formatCursor, formatPageToken, parseCursor, parsePageToken } from "./cursor.ts";
export {
  DomainError,
  type DomainErrorCode,
  invalid,
  notFound,
  RetryLaterError,
} from "./domain-error.ts";
// Readings and visits (issue 29): which an inspection is, thinning a series, weight alerts.
export { bucketWidth, downsample, type MaybeValue } from "./downsample.ts";
export type { ColumnSpec, ColumnType, EntityName, EntitySpec, ScopeRule } from "./entities.ts";
export {
  camelCase,
  columnSpec,
  entities,
  entityNames,
  entitySpec,
  isEntityName,
  isReadableScope,
  isUserScope,
  maxInspectionPhotos,
  maxPhotoBytes,
  photoPrefix,
  readableScopeSql,
  refColumns,
  userScope,
  userScopePrefix,
} from "./entities.ts";
export {
  checkHappened,
  checkQueenYear,
  futureDateBreak,
  happenedToleranceMs,
  latestHappenedMs,
  latestQueenYear,
} from "./happened.ts";
export {
  type Hemisphere,
  type HiveAlert,
  hemisphereOf,
  inSwarmSeason,
  inWinter,
  recentAlerts,
  type StarvingAlert,
  type SwarmAlert,
  starvingAlert,
  swarmAlerts,
  swarmDropKg,
  swarmWindowMs,
  type WeightPoint,
  winterStart,
} from "./hive-alerts.ts";
export type { Clock, Hlc, HlcParts } from "./hlc.ts";
export {
  compareHlc,
  createClock,
  defaultMaxAheadMs,
  formatHlc,
  hlcMs,
  isHlc,
  isNodeId,
  isTooFarAhead,
  maxHlcCounter,
  maxHlcMs,
  parseHlc,
  receive,
  tick,
} from "./hlc.ts";
export {
  idempotencyKeyProblem,
  maxIdempotencyKeyLength,
  parseIdempotencyKey,
} from "./idempotency-key.ts";
export {
  type InspectionKindFields,
  isReading,
  isReadingRow,
  measurementColumns,
  visitColumns,
} from "./inspection-kind.ts";
export {
  activeQueensInOrder,
  apiaryAt,
  type HiveRows,
  type InvariantRow,
  keptPlacement,
  queenStart,
  reigningOf,
  repairHive,
  repairPlacements,
  repairQueens,
} from "./invariants.ts";
export {
  defaultEventLimit,
  defaultPageSize,
  defaultPullLimit,
  maxEventLimit,
  maxPageSize,
  maxPullLimit,
  maxPushChanges,
  maxReadingsPerCall,
  requestedLimit,
} from "./limits.ts";
export type { ApplyResult, ChangeInput, RowState, Values } from "./merge.ts";
export {
  applyChange,
  changeToState,
  deletedKey,
  emptyRow,
  isComplete,
  mergeRows,
} from "./merge.ts";
export {
  type Conflict,
  type MergedChange,
  mergeChange,
  rowScope,
  type ScopedRowState,
} from "./merge-change.ts";
export type { OrSetPatch, OrSetState } from "./or-set.ts";
export {
  emptyOrSet,
  isEmptyOrSet,
  joinOrSets,
  orSetFromPatch,
  orSetTags,
  orSetValues,
  parseOrSetPatch,
} from "./or-set.ts";
export {
  deletedAt,
  type HiveInApiary,
  holdingApiaryId,
  holdingOf,
  isOpenTask,
  repairHiveApiary,
  repairTask,
  restoredName,
} from "./orphans.ts";
export {
  hasPhotoSets,
  isPhotoRef,
  type PhotoHash,
  payloadWithPhotoRefs,
  photoRef,
  photoRefPrefix,
  samePhoto,
  withoutHeldPhotos,
} from "./photo-ref.ts";
export { maxQuotedLength, quote } from "./quote.ts";
export {
  bucketStart,
  type ColumnStats,
  chartSeriesSpan,
  compareSeriesRows,
  isSeriesValue,
  maxBucketDays,
  maxSeriesDays,
  readingSeries,
  type SeriesBucket,
  type SeriesColumn,
  type SeriesRow,
  seriesColumns,
  seriesDayMs,
  seriesRange,
} from "./reading-series.ts";
export {
  defaultReadingDays,
  eventInspectionId,
  heldUntilMs,
  maxReadingDays,
  needsState,
  outOfWindow,
  readingDateMs,
  readingsCutoffMs,
  stateChanges,
} from "./readings-window.ts";
export {
  type RegisterEntry,
  type RegisterFilter,
  type RegisterRow,
  type RegisterVersion,
  registerEntries,
} from "./register.ts";
export {
  isTimestampInRange,
  maxTimestampMs,
  minTimestampMs,
  parseRfc3339,
} from "./rfc3339.ts";
// Import and export (issue 26): the backup, the one import plan, the file dispatch.
export {
  type BackupSource,
  backupFormat,
  backupVersion,
  readBackup,
  recordOf,
  type StoredRecord,
  writeBackup,
} from "./transfer/backup.ts";
// The one CSV writer (issue 26): the treatment register's CSV and the spreadsheet export.
export { type Cell, csvFile, type SheetLanguage } from "./transfer/csv.ts";
export {
  type EntityCount,
  type ImportPlan,
  idsToLookUp,
  type OrganizationFacts,
  planImport,
  recordPayload,
} from "./transfer/plan.ts";
export {
  type FileFormat,
  type FileReader,
  fileFormat,
  fileReaders,
  formatHints,
  type KnownPlaces,
  needsKnownPlaces,
} from "./transfer/read-file.ts";
export type {
  ImportProblem,
  ProblemPlace,
  ReadFile,
  RecordRow,
  RecordSet,
} from "./transfer/record-set.ts";
export { isStorableText, utf8ByteLength } from "./utf8.ts";
export type {
  CheckContext,
  Rejection,
  RejectionCode,
  RowFacts,
  WireChange,
} from "./validate-change.ts";
export {
  batchChecker,
  checkChange,
  isClockAheadReason,
  parseWireChange,
} from "./validate-change.ts";
export {
  harvestWithdrawal,
  type Instant,
  instantMs,
  type RunningWithdrawal,
  runningWithdrawals,
  type WithdrawalSource,
  withdrawalAt,
  withdrawalCovers,
  withdrawalEndsByHive,
  withdrawalRunning,
} from "./withdrawal.ts";

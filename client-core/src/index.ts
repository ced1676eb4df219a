/**
 * The device half of Hivekeep: the replica, the outbox and the sync engine behind the contract's
 * own services (`createHivekeepClient`). The pure parts are `./core` (rules) and `./ops` (the
 * operations the server runs too); `./sync` is the Push/Pull transport.
 */
export {
  createHivekeepClient,
  type HivekeepClient,
  type HivekeepClientOptions,
} from "./device/create-client.ts";
export type { NoticeKind, NoticeRecord, SyncNotice } from "./device/notices.ts";
export { type DevicePhotos, defaultKeepDays, type PhotoState } from "./device/photos.ts";
export { pointOfRow, readingPointsTable } from "./device/reading-points.ts";
export {
  type HiveSeries,
  localSeriesRows,
  type SeriesOptions,
  seriesRefreshMs,
  windowCutoff,
} from "./device/reading-series-cache.ts";
export { packBucket } from "./device/replica-db.ts";
export type { QuarantinedItem, SyncStatus } from "./device/sync-engine.ts";

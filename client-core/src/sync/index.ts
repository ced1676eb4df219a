/**
 * The device side of the sync transport: Push and Pull over Connect with the
 * bulk messages encoded by hand (see wire.ts). Needs `fetch`, `TextEncoder`
 * and `TextDecoder` (browsers, Node ≥ 18).
 */
export {
  createSyncClient,
  nextPageHeader,
  type SyncClient,
  type SyncClientOptions,
} from "./sync-client.ts";
export {
  decodePullResponse,
  encodePushRequest,
  type PullPage,
  type SyncChange,
  varintSize,
  writeVarint,
} from "./wire.ts";

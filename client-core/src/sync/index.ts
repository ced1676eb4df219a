/**
 * The device side of the sync transport: Push and Pull over Connect with the
 * bulk messages encoded by hand (../protocol/wire.ts). Needs `fetch`,
 * `TextEncoder` and `TextDecoder` (browsers, Node ≥ 18).
 */

export {
  decodePullResponse,
  encodePushRequest,
  nextPageHeader,
  type PullPage,
  type SyncChange,
} from "../protocol/index.ts";
export {
  createSyncClient,
  type SyncClient,
  type SyncClientOptions,
} from "./sync-client.ts";

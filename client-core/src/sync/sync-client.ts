/**
 * A device's SyncService client for Push and Pull: Connect unary calls over
 * `fetch` in the binary encoding, with the hot messages written and read by
 * ../protocol/wire.ts instead of protobuf-es reflection. Errors come back as the
 * ConnectError a generated Connect client would throw (code, message,
 * metadata, and details such as PushRejection for `findDetails`). The Pull
 * half is feed-client.ts (the pull Worker runs only that).
 *
 * Subscribe (a server stream) and every other call go through an ordinary
 * Connect client: they carry no bulk.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { type PushResponse, PushResponseSchema } from "@hivekeep/proto";
import { encodePushRequest, type SyncChange } from "../protocol/wire.ts";
import {
  bodyBytes,
  createFeedClient,
  decoded,
  type FeedClient,
  type SyncClientOptions,
  syncCall,
} from "./feed-client.ts";

export type { SyncClientOptions } from "./feed-client.ts";

export interface SyncClient extends FeedClient {
  /** Push one batch (at most 5000 changes); throws ConnectError on rejection. */
  push(changes: readonly SyncChange[], signal?: AbortSignal): Promise<PushResponse>;
}

export function createSyncClient(options: SyncClientOptions): SyncClient {
  const call = syncCall(options);
  return {
    ...createFeedClient(options),
    async push(changes, signal) {
      const bytes = await bodyBytes(await call("Push", encodePushRequest(changes), signal));
      return decoded(bytes, (b) => fromBinary(PushResponseSchema, b));
    },
  };
}

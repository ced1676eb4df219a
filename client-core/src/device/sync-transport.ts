import type { PullPage, SyncChange } from "../protocol/wire.ts";
import type { PushConflict } from "./notices.ts";

/** What the sync engine needs from the network (create-client.ts builds it over Connect). */
export interface SyncTransport {
  /** Pushes a batch; answers the server's time and the columns of the batch that lost. */
  push(changes: readonly SyncChange[]): Promise<{
    serverTimeMs: number | undefined;
    conflicts?: readonly PushConflict[];
  }>;
  pages(cursor: string, limit: number, signal?: AbortSignal): AsyncIterable<PullPage>;
  /** Pokes: the caller's newest feed position ("" on a heartbeat). */
  subscribe(cursor: string, signal: AbortSignal): AsyncIterable<string>;
  /** The token in use now (undefined in single-user mode), to notice a new sign-in. */
  token(): Promise<string | undefined>;
}

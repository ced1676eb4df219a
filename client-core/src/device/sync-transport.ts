import type { PullPage, SyncChange } from "../protocol/wire.ts";

/** What the sync engine needs from the network (create-client.ts builds it over Connect). */
export interface SyncTransport {
  push(changes: readonly SyncChange[]): Promise<{ serverTimeMs: number | undefined }>;
  pages(cursor: string, limit: number, signal?: AbortSignal): AsyncIterable<PullPage>;
  /** Pokes: the caller's newest feed position ("" on a heartbeat). */
  subscribe(cursor: string, signal: AbortSignal): AsyncIterable<string>;
  /** The token in use now (undefined in single-user mode), to notice a new sign-in. */
  token(): Promise<string | undefined>;
}

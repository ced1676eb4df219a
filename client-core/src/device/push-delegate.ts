/**
 * One Push and what came of it, as a tagged outcome: the pusher (outbox-push.ts) acts on it,
 * the loop never sees a Push's error text. Nothing here reads an error's message.
 *
 * | outcome       | when                                                                        |
 * | ------------- | --------------------------------------------------------------------------- |
 * | `sent`        | the server applied the batch                                                |
 * | `too-large`   | the server (or a proxy before it) refused the body for its size             |
 * | `rejected`    | a PushRejection names changes of the batch, each with its code and reasons  |
 * | `retry-later` | a failure a later attempt may get past: network, server down, a rate limit  |
 * | `failed`      | anything else (unauthenticated among them): the cycle fails with it         |
 */

import { timestampMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { PushRejectionSchema, type PushResponse } from "@hivekeep/proto";
import type { SyncChange } from "../protocol/wire.ts";
import type { PushConflict } from "./notices.ts";
import type { SyncTransport } from "./sync-transport.ts";

/** A change the server refused: its index in the batch, its code and every reason given. */
export interface Refusal {
  readonly index: number;
  readonly code: string;
  readonly reason: string;
}

export type PushOutcome =
  | {
      readonly kind: "sent";
      readonly serverTimeMs: number | undefined;
      /** Columns of the batch that lost last-writer-wins (Push's `conflicts`). */
      readonly conflicts?: readonly PushConflict[];
    }
  | { readonly kind: "too-large"; readonly error: ConnectError }
  | {
      readonly kind: "rejected";
      readonly refused: readonly Refusal[];
      readonly error: ConnectError;
    }
  | { readonly kind: "retry-later"; readonly error: ConnectError }
  | { readonly kind: "failed"; readonly error: ConnectError };

/** What the engine reads of a PushResponse: the server's time and the columns that lost. */
export function readPushResponse(response: PushResponse): {
  serverTimeMs: number | undefined;
  conflicts: PushConflict[];
} {
  return {
    serverTimeMs: response.serverTime ? timestampMs(response.serverTime) : undefined,
    conflicts: response.conflicts.map((c) => ({
      entity: c.entity,
      entityId: c.entityId,
      columns: c.columns,
      winningHlc: c.winningHlc,
    })),
  };
}

/** Pushes one batch; never throws. */
export async function pushBatch(
  transport: Pick<SyncTransport, "push">,
  changes: readonly SyncChange[],
): Promise<PushOutcome> {
  try {
    const { serverTimeMs, conflicts = [] } = await transport.push(changes);
    return { kind: "sent", serverTimeMs, conflicts };
  } catch (err) {
    return pushFailure(ConnectError.from(err), changes.length);
  }
}

/** What a failed Push of `size` changes means (the rows of the table above, in order). */
export function pushFailure(error: ConnectError, size: number): PushOutcome {
  if (isTooLarge(error)) return { kind: "too-large", error };
  const refused = refusals(error, size);
  if (refused.length > 0) return { kind: "rejected", refused, error };
  if (isTransient(error)) return { kind: "retry-later", error };
  return { kind: "failed", error };
}

/**
 * The body was over a limit: `resource_exhausted` without Retry-After. The server answers a
 * body over its limit so (server/src/http/rpc-edge.ts), and the sync client reads a proxy's
 * HTTP 413 so (client-core/src/sync/feed-client.ts). A rate limit is `resource_exhausted` too,
 * but says when to try again (Retry-After, as the server's throttle sends): it is waited out.
 */
export const isTooLarge = (error: ConnectError): boolean =>
  error.code === Code.ResourceExhausted && !error.metadata.has("retry-after");

/** A network or server-side failure that a later attempt may get past. */
export const isTransient = (error: ConnectError): boolean =>
  [
    Code.Unavailable,
    Code.DeadlineExceeded,
    Code.Aborted,
    Code.Internal,
    Code.Unknown,
    Code.ResourceExhausted,
    Code.Canceled,
  ].includes(error.code);

/**
 * The changes a PushRejection names within the batch, one per change with every reason the
 * server gave for it (`permission_denied` when any reason is).
 */
function refusals(error: ConnectError, size: number): Refusal[] {
  const [detail] = error.findDetails(PushRejectionSchema);
  const byIndex = new Map<number, Refusal>();
  for (const { index, code, reason } of detail?.rejections ?? []) {
    if (index < 0 || index >= size) continue;
    const seen = byIndex.get(index);
    byIndex.set(
      index,
      seen === undefined
        ? { index, code, reason }
        : {
            index,
            code: seen.code === "permission_denied" ? seen.code : code,
            reason: `${seen.reason}; ${reason}`,
          },
    );
  }
  return [...byIndex.values()];
}

/**
 * SyncService.Subscribe: a server stream of pokes. It carries no data, only
 * the caller's newest feed position, so a lost poke is harmless (the device
 * pulls anyway on its other triggers).
 *
 *   start ──► behind already? ──yes──► poke(head)
 *     │                                   │
 *     ▼                                   ▼
 *   wait ◄───────────────────────────────┘
 *     ├─ feed of the tenant advanced and the caller can see it ──► poke(seq)
 *     ├─ 25 s without a poke ──► heartbeat
 *     ├─ credential revoked (checked at most once per heartbeat interval) ──► end
 *     └─ client gone / server shutting down ──► end
 *
 * Memory per subscriber is constant: wake-ups only raise one number, so a
 * slow reader never queues pokes, it gets the latest position when it reads.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { invalidArgument } from "@hivekeep/client-core/ops";
import {
  type SubscribeRequest,
  type SubscribeResponse,
  SubscribeResponseSchema,
} from "@hivekeep/proto";
import { credentialValid } from "../auth/auth-store.ts";
import { feedHead, lastVisibleSeq } from "../store/feed.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";

export const defaultHeartbeatMs = 25_000;

export async function* subscribe(
  deps: Deps,
  req: SubscribeRequest,
  ctx: HandlerContext,
): AsyncGenerator<SubscribeResponse> {
  const caller = callerOf(ctx);
  if (req.cursor !== "" && !/^\d{1,15}$/.test(req.cursor)) {
    throw invalidArgument(
      `cursor ${JSON.stringify(req.cursor)} is malformed; pass "" or nextCursor`,
    );
  }
  let sent = req.cursor === "" ? 0 : Number(req.cursor);
  let latest = 0;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const unsubscribe = deps.notifier.subscribe(caller.organizationId, (seq) => {
    latest = Math.max(latest, seq);
    poke();
  });
  const signal = ctx.signal;
  signal.addEventListener("abort", poke);
  const heartbeatMs = deps.heartbeatMs ?? defaultHeartbeatMs;
  // A long stream outlives its token's check at the start: a revoked session,
  // a revoked key or a removed member ends it within one heartbeat interval.
  let checkedAt = Date.now();
  const stillAllowed = async (always: boolean) => {
    if (!always && Date.now() - checkedAt < heartbeatMs) return;
    if (!(await credentialValid(deps.db, caller))) {
      throw new ConnectError("the token was revoked or has expired", Code.Unauthenticated);
    }
    checkedAt = Date.now();
  };
  try {
    // Already behind: poke at once. (Subscribed first, so nothing in between is missed.)
    latest = Math.max(latest, (await feedHead(deps.db, caller.organizationId)) ?? 0);
    while (!signal.aborted) {
      if (latest > sent) {
        // Only changes the caller may read count (not other users' personal tasks).
        const visible = await lastVisibleSeq(
          deps.db,
          caller.organizationId,
          caller.userId,
          sent,
          latest,
        );
        const seen = latest;
        await stillAllowed(false);
        if (visible !== undefined) {
          yield create(SubscribeResponseSchema, { cursor: String(visible) });
        }
        sent = seen;
        continue;
      }
      const woke = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), heartbeatMs);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (!woke && !signal.aborted) {
        await stillAllowed(true);
        yield create(SubscribeResponseSchema, { heartbeat: true });
      }
    }
  } finally {
    signal.removeEventListener("abort", poke);
    unsubscribe();
  }
}

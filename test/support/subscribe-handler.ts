/**
 * SyncService.Subscribe's handler on its own, for tests with fake timers: a feed notifier the
 * test fires by hand, and a stream opened for a caller of the single-user tenant.
 */
import { create } from "@bufbuild/protobuf";
import { createContextValues, createHandlerContext } from "@connectrpc/connect";
import { SubscribeRequestSchema, type SubscribeResponse, SyncService } from "@hivekeep/proto";
import { callerKey } from "../../server/src/rpc/context.ts";
import type { Deps } from "../../server/src/rpc/deps.ts";
import { type SubscribeTiming, subscribe } from "../../server/src/rpc/subscribe.ts";
import type { FeedListener, FeedNotifier } from "../../server/src/store/feed-notifier.ts";

export const subscribeOrg = "00000000-0000-7000-8000-000000000001";

/** A notifier whose `fire(seq)` tells every subscribed listener that the feed reached seq. */
export function manualNotifier(): { notifier: FeedNotifier; fire(seq: number): void } {
  const listeners = new Set<FeedListener>();
  return {
    notifier: {
      subscribe(_org, l) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      size: () => listeners.size,
      close: async () => {},
    },
    fire(seq) {
      for (const l of listeners) l(seq);
    },
  };
}

/** The handler's stream for `userId` (an owner) from `cursor`; `end()` is the client going away. */
export function openSubscribe(
  deps: Deps,
  cursor: string,
  userId: string,
  timing: SubscribeTiming,
): { stream: AsyncGenerator<SubscribeResponse>; end(): void } {
  const requestAbort = new AbortController();
  const ctx = createHandlerContext({
    service: SyncService,
    method: SyncService.method.subscribe,
    protocolName: "connect",
    requestMethod: "POST",
    url: "http://localhost/hivekeep.v1.SyncService/Subscribe",
    requestSignal: requestAbort.signal,
    contextValues: createContextValues().set(callerKey, {
      organizationId: subscribeOrg,
      userId,
      role: "owner",
      demo: false,
    }),
  });
  const stream = subscribe(deps, create(SubscribeRequestSchema, { cursor }), ctx, timing);
  return { stream, end: () => requestAbort.abort() };
}

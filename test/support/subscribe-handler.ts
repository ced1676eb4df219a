/**
 * SyncService.Subscribe's handler on its own, for tests with fake timers: a feed notifier the
 * test fires by hand (or the real one, watched), the stream's timing watched, and a stream opened
 * for a caller of the single-user tenant.
 */
import { create } from "@bufbuild/protobuf";
import { createContextValues, createHandlerContext } from "@connectrpc/connect";
import { SubscribeRequestSchema, type SubscribeResponse, SyncService } from "@hivekeep/proto";
import type { Caller } from "../../server/src/auth/caller.ts";
import { callerKey } from "../../server/src/rpc/context.ts";
import type { Deps } from "../../server/src/rpc/deps.ts";
import { type SubscribeTiming, subscribe } from "../../server/src/rpc/subscribe.ts";
import type { FeedListener, FeedNotifier } from "../../server/src/store/feed-notifier.ts";
import { localOrganizationId } from "../../server/src/store/tenants.ts";

/** The single-user tenant: the stream's caller, also on a real database. */
export const subscribeOrg = localOrganizationId;

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

/**
 * The handler's stream from `cursor` for `caller` (a user id: an owner of the single-user
 * tenant); `end()` is the client going away.
 */
export function openSubscribe(
  deps: Deps,
  cursor: string,
  caller: string | Caller,
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
    contextValues: createContextValues().set(
      callerKey,
      typeof caller === "string"
        ? { organizationId: subscribeOrg, userId: caller, role: "owner", demo: false }
        : caller,
    ),
  });
  const stream = subscribe(deps, create(SubscribeRequestSchema, { cursor }), ctx, timing);
  return { stream, end: () => requestAbort.abort() };
}

/**
 * The real notifier, watched: `heard` lists every seq it handed to the listeners subscribed
 * through it (the stream's), `ended` counts the credential-ended notifications it handed to them
 * (or, with `loseCredentialNews`, dropped: a lost notification), and `nextDelivery(org)` resolves
 * with the next seq it dispatches for that tenant (to a probe listener of its own, subscribed at
 * the call). Known events to wait on, instead of "nothing happened within so many ms".
 */
export function watchedNotifier(
  notifier: FeedNotifier,
  options: { loseCredentialNews?: boolean } = {},
): {
  notifier: FeedNotifier;
  heard: number[];
  readonly ended: number;
  heardSeq(seq: number): Promise<void>;
  nextDelivery(organizationId: string): Promise<number>;
} {
  const heard: number[] = [];
  let ended = 0;
  const hearing = new Set<() => void>();
  let listening = 0;
  const watched: FeedNotifier = {
    subscribe(organizationId, listener, credential) {
      listening++;
      const watch = credential && {
        userId: credential.userId,
        tokenHash: credential.tokenHash,
        onEnded() {
          ended++;
          if (!options.loseCredentialNews) credential.onEnded();
        },
      };
      const unsubscribe = notifier.subscribe(
        organizationId,
        (seq) => {
          heard.push(seq);
          for (const check of hearing) check();
          listener(seq);
        },
        watch,
      );
      return () => {
        listening--;
        unsubscribe();
      };
    },
    // Only the listeners subscribed through it: other tests' streams may still be ending.
    size: () => listening,
    close: () => notifier.close(),
  };
  return {
    notifier: watched,
    heard,
    get ended() {
      return ended;
    },
    heardSeq: (seq) =>
      new Promise((resolve) => {
        const check = () => {
          if (!heard.includes(seq)) return;
          hearing.delete(check);
          resolve();
        };
        hearing.add(check);
        check();
      }),
    nextDelivery: (organizationId) =>
      new Promise((resolve) => {
        const stop = notifier.subscribe(organizationId, (seq) => {
          stop();
          resolve(seq);
        });
      }),
  };
}

/**
 * The stream's timing, watched: `waits` lists the ms of every wait the stream began, and
 * `nextWait()` resolves with the next one, i.e. once the stream has done what woke it and
 * waits again.
 */
export function watchedTiming(timing: SubscribeTiming): {
  timing: SubscribeTiming;
  waits: number[];
  nextWait(): Promise<number>;
} {
  const waits: number[] = [];
  let waiters: ((ms: number) => void)[] = [];
  return {
    timing: {
      heartbeatMs: timing.heartbeatMs,
      pokeIntervalMs: timing.pokeIntervalMs,
      now: () => timing.now(),
      setTimer(fn, ms) {
        const cancel = timing.setTimer(fn, ms);
        waits.push(ms);
        const woken = waiters;
        waiters = [];
        for (const w of woken) w(ms);
        return cancel;
      },
    },
    waits,
    nextWait: () => new Promise((resolve) => waiters.push(resolve)),
  };
}

/**
 * The stream's time as a clock the test moves by hand: nothing fires until `advance(ms)`. For
 * tests on a real database, where vi.useFakeTimers() cannot be used: postgres.js opens its
 * connections through setTimeout, so a faked one stalls the first query on a new connection.
 */
export function manualTiming(options: { heartbeatMs: number; pokeIntervalMs: number }): {
  timing: SubscribeTiming;
  /** Moves the clock on by ms, firing each timer that falls due, in order. */
  advance(ms: number): void;
} {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    timing: {
      ...options,
      now: () => now,
      setTimer(fn, ms) {
        const id = next++;
        timers.set(id, { at: now + ms, fn });
        return () => timers.delete(id);
      },
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const [id, due] =
          [...timers].filter(([, t]) => t.at <= until).sort(([, a], [, b]) => a.at - b.at)[0] ?? [];
        if (id === undefined || due === undefined) break;
        timers.delete(id);
        now = due.at;
        due.fn();
      }
      now = until;
    },
  };
}

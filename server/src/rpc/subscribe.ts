/**
 * SyncService.Subscribe: a server stream of pokes. It carries no data, only
 * the caller's newest feed position, so a lost poke is harmless (the device
 * pulls anyway on its other triggers).
 *
 *   start ──► behind already? ──yes──► poke(head)
 *     │                                   │
 *     no ──► heartbeat (the opening one)  │
 *     ▼                                   ▼
 *   wait ◄───────────────────────────────┘
 *     ├─ feed of the tenant advanced and the caller can see it ──► poke(seq)
 *     │    (at most one poke per second: writes in between raise one number,
 *     │     and the next poke carries the newest position)
 *     ├─ 25 s without a poke ──► heartbeat
 *     ├─ a credential of the caller ended, or the session's end came ──► check ──► end
 *     └─ client gone / server shutting down ──► end
 *
 * The stream's first message comes at once either way: the poke when the caller is behind,
 * otherwise an opening heartbeat. A device takes its stream's first message as "the server
 * answers again" and pushes its waiting outbox then (client-core sync-loop.ts `wake()`), so a
 * reconnect must not wait a heartbeat interval for it (docs/decisions.md, "Field in every
 * browser (issue 28): the opening heartbeat").
 *
 * Memory per subscriber is constant: wake-ups only raise one number, so a
 * slow reader never queues pokes, it gets the latest position when it reads
 * (a heap snapshot of 200 open streams after 300 writes holds nothing that
 * grew with the writes; the stream's own objects are about 40 KB). The work is
 * bounded too: a burst of writes costs each stream one visibility question and one
 * poke per `pokeIntervalMs`, not one per write, and the streams of one tenant
 * and user share one query per advance of the feed (visible-positions.ts). Per write it was 200 queries
 * and 200 pokes for 200 streams, whose garbage grew the heap (and the RSS,
 * which V8 does not give back soon) by about 100 MiB in 300 writes
 * (docs/decisions.md, "Reliability (issue 13): memory under slow subscribers").
 *
 * A credential that ends ends the stream within a moment, through the same notifier: the
 * revoking store functions NOTIFY "this credential (or every credential of user U) in tenant X
 * ended" on commit, and the streams holding it (in every process) check their credential before
 * their next poke, at once when idle. That too only sets a flag, so memory stays constant, and a burst
 * of revocations costs each such stream one check (two when one arrives during the check). A
 * session's end is known from the start (Caller.expiresInMs): the stream's one timer never waits
 * past it. A lost notification still ends the stream at the heartbeat's check, as before
 * (docs/decisions.md, "Airtight hosted mode (issue 27): streams end with their credential").
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { formatCursor, parseCursor } from "@hivekeep/client-core/core";
import {
  type SubscribeRequest,
  type SubscribeResponse,
  SubscribeResponseSchema,
} from "@hivekeep/proto";
import { credentialTimeLeft } from "../auth/caller-store.ts";
import { feedHead } from "../store/feed.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";
import { visiblePositions } from "./visible-positions.ts";

export const defaultHeartbeatMs = 25_000;
/** The shortest time between two pokes of one stream (at most the heartbeat interval). */
export const defaultPokeIntervalMs = 1_000;

/** The stream's clock and timers: injected so tests can drive them (fake timers). */
export interface SubscribeTiming {
  readonly heartbeatMs: number;
  readonly pokeIntervalMs: number;
  now(): number;
  setTimer(fn: () => void, ms: number): () => void;
}

/** Real time, looked up at each call (so vi.useFakeTimers() reaches it too). */
export function subscribeTiming(
  options: { heartbeatMs?: number; pokeIntervalMs?: number } = {},
): SubscribeTiming {
  const heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
  return {
    heartbeatMs,
    // Never longer than a heartbeat interval (tests shorten that one).
    pokeIntervalMs: options.pokeIntervalMs ?? Math.min(defaultPokeIntervalMs, heartbeatMs),
    now: () => Date.now(),
    setTimer(fn, ms) {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    },
  };
}

export async function* subscribe(
  deps: Deps,
  req: SubscribeRequest,
  ctx: HandlerContext,
  timing: SubscribeTiming = subscribeTiming({ heartbeatMs: deps.heartbeatMs }),
): AsyncGenerator<SubscribeResponse> {
  const caller = callerOf(ctx);
  const { heartbeatMs, pokeIntervalMs } = timing;
  let sent = parseCursor(req.cursor);
  // What the stream keeps between wake-ups: this number, and the pending wait.
  let latest = 0;
  let resume: ((woken: boolean) => void) | undefined;
  let feedWakes = false;
  // A credential of the caller may have ended (a notification, or the session's end came):
  // check it before anything else.
  let doubt = false;
  // When the credential ends by itself (the session's expiry), on the stream's clock.
  let endsAt = timing.now() + (caller.expiresInMs ?? Number.POSITIVE_INFINITY);
  /**
   * Waits ms, or less: until the feed advances (when wakeOnFeed), a credential of the caller
   * ended, the session's end came (both set `doubt`), or the stream ends.
   */
  const wait = (ms: number, wakeOnFeed: boolean) =>
    new Promise<boolean>((resolve) => {
      const left = Math.max(0, endsAt - timing.now());
      const expiring = left < ms;
      const cancel = timing.setTimer(
        () => {
          doubt ||= expiring;
          settle(expiring);
        },
        expiring ? left : ms,
      );
      const settle = (woken: boolean) => {
        cancel();
        resume = undefined;
        resolve(woken);
      };
      feedWakes = wakeOnFeed;
      resume = settle;
    });
  const visible = visiblePositions(deps.db, caller.organizationId, caller.userId);
  const unsubscribe = deps.notifier.subscribe(
    caller.organizationId,
    (seq) => {
      latest = Math.max(latest, seq);
      if (feedWakes) resume?.(true);
    },
    {
      userId: caller.userId,
      tokenHash: caller.credential?.kind === "local" ? undefined : caller.credential?.tokenHash,
      onEnded() {
        doubt = true;
        resume?.(true);
      },
    },
  );
  const signal = ctx.signal;
  const end = () => resume?.(true);
  signal.addEventListener("abort", end);
  // A long stream outlives its token's check at the start: a revoked session, a revoked key, a
  // removed member or an expired session ends it at the next check. One comes with each
  // notification and at the session's end, and at least once per heartbeat interval in case a
  // notification was lost.
  let checkedAt = timing.now();
  const stillAllowed = async (always: boolean) => {
    if (!always && !doubt && timing.now() - checkedAt < heartbeatMs) return;
    do {
      // Cleared before the query: a notification that arrives during it asks again.
      doubt = false;
      const left = await credentialTimeLeft(deps.db, caller);
      if (left === undefined) {
        throw new ConnectError("the token was revoked or has expired", Code.Unauthenticated);
      }
      checkedAt = timing.now();
      endsAt = checkedAt + left;
    } while (doubt);
  };
  let pokedAt = Number.NEGATIVE_INFINITY;
  // Whether the stream has sent anything yet: its first message says it is open.
  let opened = false;
  try {
    // Already behind: poke at once. (Subscribed first, so nothing in between is missed.)
    latest = Math.max(latest, (await feedHead(deps.db, caller.organizationId)) ?? 0);
    while (!signal.aborted) {
      if (doubt) await stillAllowed(true);
      if (latest > sent) {
        // A poke shortly after the last one waits out the interval; the writes
        // meanwhile only raise `latest`, so one poke then covers them all.
        const early = pokedAt + pokeIntervalMs - timing.now();
        if (early > 0) {
          await wait(early, false);
          continue;
        }
        // Only changes the caller may read count (not other users' personal
        // tasks); the caller's streams share the answer (visible-positions.ts).
        const seen = latest;
        const seq = await visible.lastVisible(sent, seen);
        await stillAllowed(false);
        if (seq !== undefined) {
          pokedAt = timing.now();
          opened = true;
          yield create(SubscribeResponseSchema, { cursor: formatCursor(seq) });
        }
        sent = seen;
        continue;
      }
      if (!opened) {
        // Not behind (or nothing behind it the caller may see): the opening heartbeat. The
        // credential was checked as the stream began, so no check here.
        opened = true;
        yield create(SubscribeResponseSchema, { heartbeat: true });
        continue;
      }
      const woke = await wait(heartbeatMs, true);
      if (!woke && !signal.aborted) {
        await stillAllowed(true);
        yield create(SubscribeResponseSchema, { heartbeat: true });
      }
    }
  } finally {
    resume = undefined;
    signal.removeEventListener("abort", end);
    unsubscribe();
    visible.close();
  }
}

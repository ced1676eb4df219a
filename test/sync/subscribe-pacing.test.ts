/**
 * Subscribe under a burst of writes (issue 13, memory under slow subscribers): a stream pokes at
 * most once per poke interval, and the poke after a burst carries the newest position, so a burst
 * costs each stream one visibility query and one poke per interval instead of one per write.
 * The handler runs on its own here, with fake timers (its time is injected), a notifier the test
 * fires by hand and a database stub that counts the visibility queries.
 */

import type { SubscribeResponse } from "@hivekeep/proto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../server/src/db/db.ts";
import type { Deps } from "../../server/src/rpc/deps.ts";
import { subscribeTiming } from "../../server/src/rpc/subscribe.ts";
import { manualNotifier, openSubscribe } from "../support/subscribe-handler.ts";

const heartbeatMs = 25_000;
const pokeIntervalMs = 1_000;

function world(head: number) {
  const { notifier, fire: advance } = manualNotifier();
  const queries = { visible: 0 };
  const db = {
    kind: "pglite",
    async query(text: string, params: readonly unknown[] = []) {
      if (text.includes("feed_seq")) return [{ feed_seq: head }];
      if (text.includes("max(seq)")) {
        queries.visible++;
        return [{ seq: params[2] }];
      }
      throw new Error(`unexpected query: ${text}`);
    },
  } as unknown as Db;
  const deps = { db, notifier } as unknown as Deps;
  return { deps, notifier, queries, advance };
}

function open(deps: Deps, cursor: string) {
  const { stream, end } = openSubscribe(
    deps,
    cursor,
    "u1",
    subscribeTiming({ heartbeatMs, pokeIntervalMs }),
  );
  /** The next message, watched: `value` is set once it arrives. */
  const next = () => {
    const watched: { value?: SubscribeResponse | "end"; promise: Promise<unknown> } = {
      promise: Promise.resolve(),
    };
    watched.promise = stream.next().then((r) => {
      watched.value = r.done ? "end" : r.value;
    });
    return watched;
  };
  return { next, end };
}

/** A stream opened up to date: its first message, at once, is the opening heartbeat. */
async function openUpToDate(deps: Deps, cursor: string) {
  const s = open(deps, cursor);
  const opening = s.next();
  await vi.advanceTimersByTimeAsync(0);
  expect(opening.value).toMatchObject({ heartbeat: true });
  return s;
}

const cursorOf = (m: SubscribeResponse | "end" | undefined) =>
  m === undefined || m === "end" ? m : m.heartbeat ? "heartbeat" : m.cursor;

describe("Subscribe pacing (fake timers)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers a burst of 100 writes with one poke now and one with the newest position a second later", async () => {
    const w = world(5);
    const s = await openUpToDate(w.deps, "5");
    const first = s.next();
    await vi.advanceTimersByTimeAsync(0);
    w.advance(6);
    await first.promise;
    expect(cursorOf(first.value)).toBe("6");

    // 100 more writes within the next half second: nothing yet, and no query per write.
    const second = s.next();
    for (let seq = 7; seq <= 106; seq++) {
      w.advance(seq);
      await vi.advanceTimersByTimeAsync(5);
    }
    expect(second.value).toBeUndefined();
    expect(w.queries.visible).toBe(1);

    // Once the interval is over: one poke, with the newest position.
    await vi.advanceTimersByTimeAsync(pokeIntervalMs);
    await second.promise;
    expect(cursorOf(second.value)).toBe("106");
    expect(w.queries.visible).toBe(2);

    s.end();
    await s.next().promise;
    expect(w.notifier.size()).toBe(0);
  });

  it("pokes at once when the last poke is more than an interval ago, and beats the heart when idle", async () => {
    const w = world(5);
    const s = await openUpToDate(w.deps, "5");
    const first = s.next();
    await vi.advanceTimersByTimeAsync(0);
    w.advance(6);
    await first.promise;

    await vi.advanceTimersByTimeAsync(pokeIntervalMs + 1);
    const second = s.next();
    await vi.advanceTimersByTimeAsync(0);
    w.advance(7);
    await vi.advanceTimersByTimeAsync(0);
    expect(cursorOf(second.value)).toBe("7");

    const beat = s.next();
    await vi.advanceTimersByTimeAsync(heartbeatMs - 1);
    expect(beat.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(cursorOf(beat.value)).toBe("heartbeat");
    s.end();
  });

  it("ends at once when the client goes away while a poke waits out its interval", async () => {
    const w = world(5);
    const s = await openUpToDate(w.deps, "5");
    const first = s.next();
    await vi.advanceTimersByTimeAsync(0);
    w.advance(6);
    await first.promise;
    const second = s.next();
    w.advance(7);
    await vi.advanceTimersByTimeAsync(10);
    s.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(second.value).toBe("end");
    expect(w.notifier.size()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

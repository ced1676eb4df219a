/**
 * Subscribe streams of one tenant and one user share the visibility query (issue 14, fan-out):
 * a write wakes every stream, and the newest position the user may read is read once per
 * advance of the feed, over just the new changes, not once per stream. Streams of another user
 * get their own answer, which leaves out the first user's personal changes.
 * The handler runs on its own here, with fake timers (its time is injected), a notifier the test
 * fires by hand and a feed held in memory behind a database stub that logs each visibility query.
 */

import type { SubscribeResponse } from "@hivekeep/proto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../server/src/db/db.ts";
import type { Deps } from "../../server/src/rpc/deps.ts";
import { subscribeTiming } from "../../server/src/rpc/subscribe.ts";
import { manualNotifier, openSubscribe } from "../support/subscribe-handler.ts";

const pokeIntervalMs = 1_000;

/** A feed of `scopes[seq - 1]` per change; `head` is the last written. */
function world(scopes: string[], head: number) {
  const { notifier, fire } = manualNotifier();
  /** Each visibility query's range and user scope. */
  const asked: { after: number; upTo: number; scope: string }[] = [];
  const db = {
    kind: "pglite",
    async query(text: string, params: readonly unknown[] = []) {
      if (text.includes("feed_seq")) return [{ feed_seq: head }];
      if (text.includes("max(seq)")) {
        const [, after, upTo, scope] = params as [string, number, number, string];
        asked.push({ after, upTo, scope });
        let seq: number | null = null;
        for (let s = after + 1; s <= upTo; s++) {
          const of = scopes[s - 1] as string;
          if (!of.startsWith("user:") || of === scope) seq = s;
        }
        return [{ seq }];
      }
      throw new Error(`unexpected query: ${text}`);
    },
  } as unknown as Db;
  const deps = { db, notifier } as unknown as Deps;
  const write = (scope: string) => {
    scopes.push(scope);
    head = scopes.length;
    fire(head);
  };
  return { deps, notifier, asked, write };
}

function open(deps: Deps, cursor: string, userId: string) {
  const { stream, end } = openSubscribe(
    deps,
    cursor,
    userId,
    subscribeTiming({ heartbeatMs: 25_000, pokeIntervalMs }),
  );
  let pokes: (SubscribeResponse | "end")[] = [];
  const pump = async () => {
    for (;;) {
      const r = await stream.next();
      pokes.push(r.done ? "end" : r.value);
      if (r.done) return;
    }
  };
  const done = pump();
  return {
    /** The cursors poked since the last call ("heartbeat" for a heartbeat). */
    take() {
      const cursors = pokes.map((m) => (m === "end" ? m : m.heartbeat ? "heartbeat" : m.cursor));
      pokes = [];
      return cursors;
    },
    end: () => {
      end();
      return done;
    },
  };
}

describe("Subscribe streams share the visibility query (fake timers)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads the newest visible position once per advance and user, over just the new changes", async () => {
    const w = world(["s", "s", "s", "s", "s"], 5);
    const first = Array.from({ length: 20 }, () => open(w.deps, "5", "u1"));
    const second = Array.from({ length: 20 }, () => open(w.deps, "5", "u2"));
    await vi.advanceTimersByTimeAsync(0);
    // Up to date: each opens with a heartbeat, and nothing is asked.
    for (const s of [...first, ...second]) expect(s.take()).toEqual(["heartbeat"]);
    expect(w.asked).toEqual([]);

    // A shared change, then u1's personal one: u1 sees 7, u2 only 6.
    w.write("s");
    w.write("user:u1");
    await vi.advanceTimersByTimeAsync(0);
    for (const s of first) expect(s.take()).toEqual(["7"]);
    for (const s of second) expect(s.take()).toEqual(["6"]);
    expect(w.asked).toEqual([
      { after: 5, upTo: 7, scope: "user:u1" },
      { after: 5, upTo: 7, scope: "user:u2" },
    ]);

    // u2's personal change, after the poke interval: only u2's streams hear of it, and each
    // user's one query reads (7, 8] alone.
    await vi.advanceTimersByTimeAsync(pokeIntervalMs);
    w.write("user:u2");
    await vi.advanceTimersByTimeAsync(0);
    for (const s of first) expect(s.take()).toEqual([]);
    for (const s of second) expect(s.take()).toEqual(["8"]);
    expect(w.asked.slice(2)).toEqual([
      { after: 7, upTo: 8, scope: "user:u1" },
      { after: 7, upTo: 8, scope: "user:u2" },
    ]);

    // A stream further behind than the shared range asks on its own, and gets its own answer
    // (its first message: a poke, no opening heartbeat).
    const behind = open(w.deps, "0", "u1");
    await vi.advanceTimersByTimeAsync(0);
    expect(behind.take()).toEqual(["7"]);
    expect(w.asked.slice(4)).toEqual([{ after: 0, upTo: 8, scope: "user:u1" }]);

    // Behind only by a change it may not see (u2's): nothing to poke, so it opens with a
    // heartbeat like a stream up to date.
    const notBehind = open(w.deps, "7", "u1");
    await vi.advanceTimersByTimeAsync(0);
    expect(notBehind.take()).toEqual(["heartbeat"]);

    for (const s of [...first, ...second, behind, notBehind]) await s.end();
    expect(w.notifier.size()).toBe(0);
  });
});

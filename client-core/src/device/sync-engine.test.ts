/**
 * The sync engine's timing rules with vitest's fake timers (setTimeout, clearTimeout and Date;
 * fake-indexeddb keeps its real setImmediate) and a fake SyncTransport: no server, no real time.
 * Debounce after a local write, exponential backoff with jitter (injected `random`), pause and
 * resume on unauthenticated, syncNow queued behind a running cycle, stop() ending the stream
 * and every timer.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Change } from "../core/change.ts";
import type { Hlc } from "../core/hlc.ts";
import type { PullPage, SyncChange } from "../protocol/wire.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { DeviceClock } from "./device-clock.ts";
import { dexieStore } from "./dexie-store.ts";
import {
  broadcastPeers,
  type LeaderState,
  type PullingState,
  type SyncPeers,
} from "./leadership.ts";
import { openReplicaDb, type ReplicaDb } from "./replica-db.ts";
import { SyncEngine, type SyncEngineOptions, type SyncTransport } from "./sync-engine.ts";

/** A promise with its resolve and reject. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets IndexedDB work (real setImmediate) happen until `done` holds; never advances time. */
async function until(done: () => boolean, what = "condition"): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if (done()) return;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

/** Lets pending IndexedDB and promise work finish (real setImmediate turns). */
const drain = async (turns = 50) => {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
};

class FakeTransport implements SyncTransport {
  /** Every Push, in order. */
  readonly pushes: (readonly SyncChange[])[] = [];
  readonly pulls: string[] = [];
  /** What the next Push does; default: accepted. */
  push$: (changes: readonly SyncChange[]) => Promise<void> = async () => {};
  tokenValue: string | undefined = "t1";
  /** The Subscribe streams opened, with their abort signals. */
  readonly streams: AbortSignal[] = [];

  async push(changes: readonly SyncChange[]) {
    this.pushes.push(changes);
    await this.push$(changes);
    return { serverTimeMs: Date.now() };
  }
  /** The page size of every pull, in order. */
  readonly limits: number[] = [];
  /** The feed has more than one page: the first page says so. */
  morePages = false;
  /** Pages the next pull yields instead (each asked for as the pull asks: while the one before merges). */
  script: (() => Promise<PullPage>)[] | undefined;
  async *pages(cursor: string, limit: number): AsyncIterable<PullPage> {
    this.pulls.push(cursor);
    this.limits.push(limit);
    const script = this.script;
    this.script = undefined;
    if (script) {
      for (const page of script) yield await page();
      return;
    }
    yield {
      changes: [],
      nextCursor: cursor === "" ? "0" : cursor,
      hasMore: this.morePages,
      serverTimeMs: Date.now(),
      headCursor: "",
    };
  }
  /** Pokes to deliver on the open stream; `failStream` makes every stream fail at once. */
  readonly pokes: string[] = [];
  failStream = false;
  private wake: (() => void) | undefined;
  poke(cursor: string) {
    this.pokes.push(cursor);
    this.wake?.();
  }
  async *subscribe(_cursor: string, signal: AbortSignal): AsyncIterable<string> {
    this.streams.push(signal);
    if (this.failStream) throw new ConnectError("fetch failed", Code.Unavailable);
    // Holds the stream open until it is aborted, delivering pokes as they come.
    for (;;) {
      const next = this.pokes.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (signal.aborted) throw new ConnectError("stream closed", Code.Canceled);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
    }
  }
  async token() {
    return this.tokenValue;
  }
}

const unavailable = () => new ConnectError("fetch failed", Code.Unavailable);

describe("SyncEngine timing (fake timers, fake transport)", () => {
  let db: ReplicaDb;
  let transport: FakeTransport;
  let engine: SyncEngine;
  let clock: DeviceClock;
  let n = 0;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.setSystemTime(new Date("2026-05-01T10:00:00Z"));
    n += 1;
    db = openReplicaDb(`engine-${n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    transport = new FakeTransport();
    clock = new DeviceClock({ node: "dtest", offsetMs: 0 });
  });
  afterEach(() => {
    engine?.stop();
    db.close();
    vi.useRealTimers();
  });

  const make = (
    options: {
      random?: () => number;
      intervalMs?: number;
      pullInWorker?: SyncEngineOptions["pullInWorker"];
      events?: EventTarget;
    } = {},
  ) => {
    engine = new SyncEngine({
      db,
      transport,
      clock,
      ...(options.events ? { events: options.events } : {}),
      ...(options.pullInWorker ? { pullInWorker: options.pullInWorker } : {}),
      debounceMs: 200,
      intervalMs: options.intervalMs ?? 3_600_000,
      random: options.random ?? (() => 0.5),
    });
    return engine;
  };

  /** A local write through the store, as the client makes it (the engine hears of it). */
  const write = async (id: string) => {
    const change: Change = {
      entity: "apiary",
      entityId: id,
      scopeId: id,
      op: "upsert",
      payload: { name: `Apiary ${id}` },
      hlc: clock.stamp() as Hlc,
      authorId: "u1",
    };
    await dexieStore(db, { clock: ignoreStamps, afterWrite: () => engine.localWrite() }).write(
      (w) => w.apply([change]),
    );
  };

  const idle = () => until(() => !engine.status.syncing, "engine idle");

  it("merges a short pull in the page and hands only a longer feed to the Worker", async () => {
    const worker: [number, string | undefined][] = [];
    make({
      pullInWorker: async (limit, token) => {
        worker.push([limit, token]);
        return { maxSeen: undefined, serverTimeMs: Date.now(), changes: 0, more: false };
      },
    });
    await engine.syncNow();
    // One small page, merged here: the Worker is never asked (nor loaded).
    expect(transport.limits).toEqual([500]);
    expect(worker).toEqual([]);
    transport.morePages = true;
    await engine.syncNow();
    // The first page says more follow: the rest is pulled in the Worker, in full-size pages.
    expect(transport.limits).toEqual([500, 500]);
    expect(worker).toEqual([[5000, "t1"]]);
  });

  it("dates lastSyncedAt by the device clock's wall clock, not the global one", async () => {
    const wall = Date.parse("2026-05-02T08:00:00Z");
    clock = new DeviceClock({ node: "dtest", offsetMs: 0 }, () => wall);
    make();
    await engine.syncNow();
    expect(engine.status.lastSyncedAt).toEqual(new Date(wall));
    expect(Date.now()).toBe(Date.parse("2026-05-01T10:00:00Z"));
  });

  it("keeps when it last caught up with the feed, by the server-corrected clock (notices read it)", async () => {
    const wall = Date.parse("2026-05-02T08:00:00Z");
    clock = new DeviceClock({ node: "dtest", offsetMs: 5_000 }, () => wall);
    make();
    expect(await db.meta.get("caughtUpMs")).toBeUndefined();
    await engine.syncNow();
    expect((await db.meta.get("caughtUpMs"))?.value).toBe(clock.nowMs());
  });

  it("pushes once, after the debounce, for writes made within it", async () => {
    make().start();
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pulls.length === 1, "the first cycle");
    await idle();

    await write("a");
    await vi.advanceTimersByTimeAsync(100);
    await write("b");
    await write("c");
    await drain();
    await vi.advanceTimersByTimeAsync(99);
    await drain();
    expect(transport.pushes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => transport.pushes.length === 1, "the debounced push");
    await idle();
    expect(transport.pushes[0]?.map((c) => c.entityId)).toEqual(["a", "b", "c"]);
    expect(engine.status.pending).toBe(0);
  });

  it("retries network failures after an exponential backoff with jitter", async () => {
    const delays: number[] = [];
    let lastAttempt = Date.now();
    transport.push$ = async () => {
      delays.push(Date.now() - lastAttempt);
      lastAttempt = Date.now();
      if (delays.length <= 4) throw unavailable();
    };
    // random() = 0.5: each delay is 0.75 of the ceiling 1 s, 2 s, 4 s, 8 s (capped at 60 s).
    make({ random: () => 0.5 });
    await write("a");
    engine.start();
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pushes.length === 1, "the first attempt");
    await idle();
    for (const expected of [750, 1500, 3000, 6000]) {
      const attempts = transport.pushes.length;
      await vi.advanceTimersByTimeAsync(expected - 1);
      await drain();
      expect(transport.pushes).toHaveLength(attempts);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => transport.pushes.length === attempts + 1, `attempt after ${expected}`);
      await idle();
    }
    expect(delays.slice(1)).toEqual([750, 1500, 3000, 6000]);
    expect(engine.status.pending).toBe(0);
    expect(engine.status.lastError).toBeUndefined();

    // Success resets the backoff: the next failure waits the first delay again.
    transport.push$ = async () => {
      throw unavailable();
    };
    await write("b");
    await vi.advanceTimersByTimeAsync(200);
    await until(() => transport.pushes.length === 6, "the push after the write");
    await idle();
    await vi.advanceTimersByTimeAsync(749);
    await drain();
    expect(transport.pushes).toHaveLength(6);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => transport.pushes.length === 7, "the first retry again");
  });

  it("draws the jitter from random(): between half and all of the ceiling", async () => {
    transport.push$ = async () => {
      throw unavailable();
    };
    make({ random: () => 0 });
    await write("a");
    engine.start();
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pushes.length === 1, "the first attempt");
    await idle();
    await vi.advanceTimersByTimeAsync(499);
    await drain();
    expect(transport.pushes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => transport.pushes.length === 2, "retry at half the ceiling");
  });

  it("pauses on unauthenticated, keeps the outbox, and resumes with another token", async () => {
    transport.push$ = async () => {
      throw new ConnectError("session revoked", Code.Unauthenticated);
    };
    make({ intervalMs: 10_000 });
    await write("a");
    engine.start();
    await vi.advanceTimersByTimeAsync(0);
    await until(() => engine.status.paused, "paused");
    await idle();
    expect(engine.status.lastError?.code).toBe(Code.Unauthenticated);
    expect(engine.status.pending).toBe(1);
    const attempts = transport.pushes.length;

    // No backoff while paused; triggers (the timer, a write) do not reach the network.
    await write("b");
    await vi.advanceTimersByTimeAsync(60_000);
    await drain();
    expect(transport.pushes).toHaveLength(attempts);
    await expect(engine.syncNow()).rejects.toMatchObject({ code: Code.Unauthenticated });
    expect(transport.pushes).toHaveLength(attempts);
    expect(await db.outbox.count()).toBe(2);

    // Signed in again: the next trigger resumes.
    transport.tokenValue = "t2";
    transport.push$ = async () => {};
    await vi.advanceTimersByTimeAsync(10_000);
    await until(() => !engine.status.paused && engine.status.pending === 0, "resumed");
    expect(transport.pushes.at(-1)?.map((c) => c.entityId)).toEqual(["a", "b"]);
  });

  it("runs a syncNow called during a cycle once after it, for every caller", async () => {
    const gate = deferred<void>();
    let first = true;
    transport.push$ = async () => {
      if (first) {
        first = false;
        await gate.promise;
      }
    };
    make();
    await write("a");
    const one = engine.syncNow();
    await until(() => transport.pushes.length === 1, "the first push in flight");
    await write("b");
    const two = engine.syncNow();
    const three = engine.syncNow();
    expect(three).toBe(two);
    await drain();
    expect(transport.pushes).toHaveLength(1);
    gate.resolve();
    await one;
    await two;
    expect(transport.pushes.map((p) => p.map((c) => c.entityId))).toEqual([["a"], ["b"]]);
    expect(engine.status.pending).toBe(0);
  });

  it("stop() ends the Subscribe stream and every timer", async () => {
    make({ intervalMs: 1000 });
    engine.start();
    await until(() => transport.streams.length === 1, "the stream");
    await idle();
    await write("a");
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    engine.stop();
    expect(transport.streams[0]?.aborted).toBe(true);
    expect(engine.status.leader).toBe(false);
    await drain();
    expect(vi.getTimerCount()).toBe(0);
    // Stopped: writes and time bring no cycle.
    const pushes = transport.pushes.length;
    await write("b");
    await vi.advanceTimersByTimeAsync(120_000);
    await drain();
    expect(transport.pushes).toHaveLength(pushes);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("pulls when a poke names a cursor it has not reached", async () => {
    make().start();
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pulls.length === 1 && transport.streams.length === 1, "started");
    await idle();
    transport.poke("0");
    await drain();
    await vi.advanceTimersByTimeAsync(0);
    await drain();
    expect(transport.pulls).toHaveLength(1);
    const timers = vi.getTimerCount();
    transport.poke("7");
    await until(() => vi.getTimerCount() > timers, "a cycle scheduled by the poke");
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pulls.length === 2, "the pull after the poke");
  });

  it("after a poke during a pull, pulls again only if the pull did not pass the poke's cursor", async () => {
    make().start();
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pulls.length === 1 && transport.streams.length === 1, "started");
    await idle();
    const page = (nextCursor: string, hasMore: boolean): PullPage => ({
      changes: [],
      nextCursor,
      hasMore,
      serverTimeMs: Date.now(),
      headCursor: "",
    });
    // A long pull (a first sync): the stream names the feed's head while it runs.
    for (const [poke, end, pullsAfter] of [
      ["7", "9", 2],
      ["12", "11", 4],
    ] as const) {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      transport.script = [
        async () => page("5", true),
        async () => {
          await held;
          return page(end, false);
        },
      ];
      const pulls = transport.pulls.length;
      void engine.syncNow();
      await until(() => transport.pulls.length === pulls + 1, "the long pull");
      transport.poke(poke);
      await drain();
      release();
      await until(() => !engine.status.syncing, "the pull's end");
      await vi.advanceTimersByTimeAsync(0);
      await drain();
      await vi.advanceTimersByTimeAsync(0);
      await until(() => !engine.status.syncing, "idle");
      expect(transport.pulls).toHaveLength(pullsAfter);
    }
  });

  it("reconnects a failed Subscribe stream after a backoff, and stop() ends the waiting", async () => {
    transport.failStream = true;
    // random() = 0.5: 0.75 of the ceiling 2 s, then 4 s.
    make({ random: () => 0.5 }).start();
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.streams.length === 1, "the first stream");
    await idle();
    for (const [delay, streams] of [
      [1500, 2],
      [3000, 3],
    ] as const) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      await drain();
      expect(transport.streams).toHaveLength(streams - 1);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => transport.streams.length === streams, `stream ${streams}`);
    }
    engine.stop();
    await drain();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    await drain();
    expect(transport.streams).toHaveLength(3);
  });

  /**
   * Offline from the start: the write's pushes fail at 0, 750 and 2250 ms (the next retry at
   * 5250), the stream's attempts at 0 and 1500 (the next at 4500).
   */
  const offlineWithAWrite = async () => {
    transport.push$ = async () => {
      throw unavailable();
    };
    transport.failStream = true;
    const events = new EventTarget();
    make({ random: () => 0.5, events });
    await write("a");
    engine.start();
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pushes.length === 1, "the first attempt");
    await idle();
    await vi.advanceTimersByTimeAsync(750);
    await until(() => transport.pushes.length === 2, "the second attempt");
    await idle();
    // In steps: a timer set after IndexedDB work counts from where the fake clock stands then.
    await vi.advanceTimersByTimeAsync(750);
    await until(() => transport.streams.length === 2, "the second stream");
    await drain();
    await vi.advanceTimersByTimeAsync(750);
    await until(() => transport.pushes.length === 3, "the third attempt");
    await idle();
    expect(engine.status.pending).toBe(1);
    // The server is back.
    transport.push$ = async () => {};
    transport.failStream = false;
    return events;
  };

  it("pushes what waits as soon as the stream is back, not when the cycle's backoff ends", async () => {
    await offlineWithAWrite();
    // The stream reconnects at 4500 and the server's first message (a heartbeat) arrives.
    transport.pokes.push("");
    await vi.advanceTimersByTimeAsync(4500 - 2250);
    await until(() => transport.streams.length === 3 && transport.pokes.length === 0, "the stream");
    await drain();
    // The cycle it asks for runs now (a zero delay on the fake clock), not at 5250.
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pushes.length === 4, "the push when the stream is back");
    await idle();
    expect(Date.now() - new Date("2026-05-01T10:00:00Z").getTime()).toBeLessThan(5250);
    expect(engine.status.pending).toBe(0);
    expect(engine.status.lastError).toBeUndefined();
  });

  it("pushes what waits at once on `online`, with the backoff started over, and reconnects the stream", async () => {
    const events = await offlineWithAWrite();
    // Still unreachable when `online` comes: the retry after it waits the first delay again.
    transport.push$ = async () => {
      throw unavailable();
    };
    transport.failStream = true;
    await vi.advanceTimersByTimeAsync(250);
    events.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    await until(() => transport.pushes.length === 4, "the push on online");
    await until(() => transport.streams.length === 3, "the stream on online");
    await idle();
    transport.push$ = async () => {};
    await vi.advanceTimersByTimeAsync(749);
    await drain();
    expect(transport.pushes).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => transport.pushes.length === 5, "the first delay again");
    await idle();
    expect(engine.status.pending).toBe(0);
  });

  /** Page `n` (from 1) of a feed of `size`-change pages up to `head`: new apiaries. */
  const feedPage = (
    n: number,
    size: number,
    head: number,
    headCursor = String(head),
  ): PullPage => ({
    changes: Array.from({ length: size }, (_, i) => {
      const id = `p${n}-${i}`;
      return {
        entity: "apiary",
        entityId: id,
        scopeId: id,
        op: 1,
        payloadJson: JSON.stringify({ name: id }),
        hlc: `000001777000000:${String(n * 100 + i).padStart(5, "0")}:dserver`,
        authorId: "u2",
      };
    }),
    nextCursor: String(n * size),
    hasMore: n * size < head,
    serverTimeMs: Date.now(),
    headCursor,
  });

  it("shows a long pull's progress page by page, and asks for each page while the one before merges", async () => {
    make();
    const seen: unknown[] = [];
    engine.subscribe((s) => {
      if (seen.at(-1) !== s.pulling) seen.push(s.pulling);
    });
    const merged: number[] = [];
    const before = async (page: PullPage) => {
      merged.push(await db.table("apiaries").count());
      return page;
    };
    transport.script = [1, 2, 3].map((n) => () => before(feedPage(n, 4, 12)));
    await engine.syncNow();
    // Each page after the first is asked for while the one before merges (pull-feed.ts): the
    // replica then holds the pages before that one. Each page is merged in its own transaction.
    expect(merged).toEqual([0, 0, 4]);
    expect(seen).toEqual([{ changes: 4, left: 8 }, { changes: 8, left: 4 }, undefined]);
    expect(await db.table("apiaries").count()).toBe(12);

    // A server that does not say where the feed ends: the count alone.
    transport.script = [4, 5].map((n) => () => Promise.resolve(feedPage(n, 4, 20, "")));
    seen.length = 0;
    await engine.syncNow();
    expect(seen).toEqual([{ changes: 4, left: undefined }, undefined]);
    // The rest in the pull Worker: its pages count on from the first one merged here.
    make({
      pullInWorker: async (_limit, _token, onProgress) => {
        onProgress?.({ changes: 5000, left: 3000, more: true });
        onProgress?.({ changes: 8000, left: 0, more: false });
        return { maxSeen: undefined, serverTimeMs: Date.now(), changes: 8000, more: false };
      },
    });
    engine.subscribe((s) => {
      if (seen.at(-1) !== s.pulling) seen.push(s.pulling);
    });
    transport.script = [() => Promise.resolve(feedPage(6, 4, 8004))];
    seen.length = 0;
    await engine.syncNow();
    expect(seen).toEqual([{ changes: 4, left: 7980 }, { changes: 5004, left: 3000 }, undefined]);

    // One page (a poke's few changes): no progress at all.
    transport.script = [() => Promise.resolve(feedPage(7, 4, 28))];
    seen.length = 0;
    await engine.syncNow();
    expect(seen).toEqual([]);
  });
  it("tells the other tabs its pull's progress, its cycles' end and whether it reaches the server; a tab that does not lead shows them, until it leads", async () => {
    const name = `peers-${n}`;
    const leaderPeers = broadcastPeers(name) as SyncPeers;
    const followerPeers = broadcastPeers(name) as SyncPeers;
    // A tab waiting for the lock: granted when the test says.
    let grant: (() => void) | undefined;
    const locks = {
      request: (_name: string, _options: LockOptions, callback: (lock: Lock | null) => unknown) =>
        new Promise((resolve) => {
          grant = () => resolve(callback({ name, mode: "exclusive" } as Lock));
        }),
    } as unknown as LockManager;
    const follower = new SyncEngine({ db, transport, clock, locks, peers: followerPeers });
    const leader = new SyncEngine({
      db,
      transport,
      clock,
      peers: leaderPeers,
      intervalMs: 3_600_000,
    });
    engine = leader;
    try {
      follower.start();
      leader.start();
      await idle();
      expect(follower.status.leader).toBe(false);
      const seen: PullingState[] = [];
      follower.subscribe((s) => {
        if (seen.at(-1) !== s.pulling) seen.push(s.pulling);
      });
      transport.script = [1, 2, 3].map((k) => () => Promise.resolve(feedPage(k, 4, 12)));
      await leader.syncNow();
      await until(() => seen.length === 3, "the follower heard the pull");
      expect(seen).toEqual([{ changes: 4, left: 8 }, { changes: 8, left: 4 }, undefined]);
      // And read what the leader's cycle saved: when it last synced.
      expect(leader.status.lastSyncedAt).toBeDefined();
      await until(() => follower.status.lastSyncedAt !== undefined, "the follower's last sync");
      expect(follower.status.lastSyncedAt).toEqual(leader.status.lastSyncedAt);

      // The leader cannot reach the server: neither does the follower, until the leader does.
      transport.script = [() => Promise.reject(unavailable())];
      await expect(leader.syncNow()).rejects.toThrow();
      expect(leader.status.online).toBe(false);
      await until(() => !follower.status.online, "the follower heard the server is not reached");
      await leader.syncNow();
      await until(() => follower.status.online, "the follower heard it is reached again");

      // The leader closes mid-pull: what the follower heard ends when it leads.
      leaderPeers.tell({ pulling: { changes: 4, left: 8 }, online: true });
      await until(() => follower.status.pulling !== undefined, "heard");
      leader.stop();
      const others: LeaderState[] = [];
      const other = broadcastPeers(name) as SyncPeers;
      other.hear((p) => others.push(p));
      grant?.();
      await until(() => follower.status.leader, "the follower leads");
      expect(follower.status.pulling).toBeUndefined();
      await until(() => others.length > 0, "the others heard the new leader");
      expect(others).toEqual([{ pulling: undefined, online: true }]);
      other.close();
    } finally {
      follower.stop();
      leaderPeers.close();
      followerPeers.close();
    }
  });
});

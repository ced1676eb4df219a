/**
 * The sync loop alone, with vitest's fake timers and a fake delegate (no database, no network):
 * when it runs a cycle, how it backs off and resets, how cycles queue, and when the stream
 * reconnects.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  Backoff,
  cycleBackoff,
  type LoopDelegate,
  type StreamEvents,
  SyncLoop,
  streamBackoff,
} from "./sync-loop.ts";

/** A delegate whose cycles and streams the test drives; every call is timed by the fake clock. */
class FakeDelegate implements LoopDelegate {
  /** When each cycle started (ms since the test began). */
  readonly cycles: number[] = [];
  /** When each stream opened. */
  readonly streams: number[] = [];
  /** What the next cycle does (default: succeeds). */
  cycle$: () => Promise<void> = async () => {};
  /** The open stream's events and its end. */
  events: StreamEvents | undefined;
  private endStream: ((err?: unknown) => void) | undefined;
  signals: AbortSignal[] = [];
  retryableErrors = true;

  constructor(private readonly t0: number) {}

  cycle(): Promise<void> {
    this.cycles.push(Date.now() - this.t0);
    return this.cycle$();
  }
  retryable(): boolean {
    return this.retryableErrors;
  }
  listen(signal: AbortSignal, events: StreamEvents): Promise<void> {
    this.streams.push(Date.now() - this.t0);
    this.signals.push(signal);
    this.events = events;
    return new Promise<void>((resolve, reject) => {
      this.endStream = (err) => (err === undefined ? resolve() : reject(err));
      signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
  }
  /** Ends the open stream: cleanly, or failing with `err`. */
  end(err?: unknown) {
    this.endStream?.(err);
  }
}

const failing = () => Promise.reject(new Error("offline"));

describe("SyncLoop (fake timers, fake delegate)", () => {
  let delegate: FakeDelegate;
  let loop: SyncLoop;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.setSystemTime(new Date("2026-05-01T10:00:00Z"));
    delegate = new FakeDelegate(Date.now());
  });
  afterEach(() => {
    loop?.end();
    vi.useRealTimers();
  });

  const make = (random = 0.5, intervalMs = 60_000) => {
    loop = new SyncLoop({
      delegate,
      timers: {
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      },
      random: () => random,
      intervalMs,
    });
    return loop;
  };

  it("runs a cycle at begin(), then every interval", async () => {
    make(0.5, 10_000).begin();
    await vi.advanceTimersByTimeAsync(0);
    expect(delegate.cycles).toEqual([0]);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(delegate.cycles).toEqual([0]);
    // The interval's timer triggers an immediate cycle: fake timers run a zero delay set
    // inside a timer 1 ms later.
    await vi.advanceTimersByTimeAsync(20_002);
    expect(delegate.cycles).toEqual([0, 10_001, 20_001, 30_001]);
  });

  it("ignores triggers before begin() and after end(), but run() works in any state", async () => {
    make();
    loop.trigger(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(delegate.cycles).toEqual([]);
    await loop.run();
    expect(delegate.cycles).toEqual([120_000]);
    loop.begin();
    await vi.advanceTimersByTimeAsync(0);
    loop.end();
    loop.trigger(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(delegate.cycles).toEqual([120_000, 120_000]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("debounces: a later trigger never postpones a scheduled cycle; an immediate one replaces it", async () => {
    make().begin();
    await vi.advanceTimersByTimeAsync(0);
    loop.trigger(200);
    await vi.advanceTimersByTimeAsync(150);
    loop.trigger(200);
    await vi.advanceTimersByTimeAsync(50);
    expect(delegate.cycles).toEqual([0, 200]);
    loop.trigger(200);
    await vi.advanceTimersByTimeAsync(100);
    loop.trigger(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(delegate.cycles).toEqual([0, 200, 300]);
    // The replaced timer is gone: nothing runs at 400.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(delegate.cycles).toEqual([0, 200, 300]);
  });

  it("retries a failed cycle after the cycle backoff, and a success resets it", async () => {
    delegate.cycle$ = failing;
    make(0.5).begin();
    await vi.advanceTimersByTimeAsync(0);
    // 0.75 of the ceilings 1 s, 2 s, 4 s, 8 s.
    await vi.advanceTimersByTimeAsync(750 + 1500 + 3000 + 6000);
    expect(delegate.cycles).toEqual([0, 750, 2250, 5250, 11250]);
    delegate.cycle$ = async () => {};
    await vi.advanceTimersByTimeAsync(12_000);
    expect(delegate.cycles.at(-1)).toBe(23250);
    delegate.cycle$ = failing;
    loop.trigger(0);
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(750);
    expect(delegate.cycles.slice(-2)).toEqual([23250, 24000]);
  });

  it("waits for the next trigger after a failure that is not retryable", async () => {
    delegate.cycle$ = failing;
    delegate.retryableErrors = false;
    make(0.5, 60_000).begin();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(delegate.cycles).toEqual([0]);
    // The interval's trigger (1 ms after it: a zero delay set inside a fake timer).
    await vi.advanceTimersByTimeAsync(1);
    expect(delegate.cycles).toEqual([0, 60_001]);
  });

  it("runs one more cycle after the one under way, shared by every caller", async () => {
    let release!: () => void;
    delegate.cycle$ = () => new Promise<void>((r) => (release = r));
    make();
    const one = loop.run();
    const two = loop.run();
    const three = loop.run();
    expect(three).toBe(two);
    expect(delegate.cycles).toHaveLength(1);
    delegate.cycle$ = async () => {};
    release();
    await one;
    await two;
    expect(delegate.cycles).toHaveLength(2);
    // Nothing under way: the next run starts at once.
    await loop.run();
    expect(delegate.cycles).toHaveLength(3);
  });

  it("runs the queued cycle after a failed one", async () => {
    let fail!: (err: Error) => void;
    delegate.cycle$ = () => new Promise<void>((_, reject) => (fail = reject));
    make();
    const one = loop.run();
    const two = loop.run();
    delegate.cycle$ = async () => {};
    fail(new Error("offline"));
    await expect(one).rejects.toThrow("offline");
    await two;
    expect(delegate.cycles).toHaveLength(2);
  });

  it("reconnects the stream after the stream backoff; a message resets it; a poke ahead runs a cycle", async () => {
    make(0.5).begin();
    await vi.advanceTimersByTimeAsync(0);
    expect(delegate.streams).toEqual([0]);
    delegate.end(new Error("reset"));
    await vi.advanceTimersByTimeAsync(1499);
    expect(delegate.streams).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(delegate.streams).toEqual([0, 1500]);
    // A stream that ends cleanly reconnects too, after twice the wait (0.75 of 4 s).
    delegate.end();
    await vi.advanceTimersByTimeAsync(3000);
    expect(delegate.streams).toEqual([0, 1500, 4500]);
    // A message shows the stream alive: the next reconnect waits the first delay again.
    delegate.events?.alive();
    const cycles = delegate.cycles.length;
    delegate.events?.behind();
    await vi.advanceTimersByTimeAsync(0);
    expect(delegate.cycles).toHaveLength(cycles + 1);
    delegate.end();
    await vi.advanceTimersByTimeAsync(1500);
    expect(delegate.streams).toEqual([0, 1500, 4500, 6000]);
  });

  it("runs a cycle at once when the stream is back after an outage, with the backoff started over", async () => {
    delegate.cycle$ = failing;
    make(0.5).begin();
    await vi.advanceTimersByTimeAsync(0);
    delegate.end(new Error("offline"));
    // Cycles fail at 0, 750, 2250, 5250 and 11250 (the next retry at 23250); the stream
    // reconnects at 1500 and hangs there, as on a server not yet answering.
    await vi.advanceTimersByTimeAsync(12_000);
    expect(delegate.cycles).toEqual([0, 750, 2250, 5250, 11250]);
    expect(delegate.streams).toEqual([0, 1500]);
    // The server answers on the stream (a heartbeat): a cycle now, not at 23250.
    delegate.events?.alive();
    await vi.advanceTimersByTimeAsync(0);
    expect(delegate.cycles).toEqual([0, 750, 2250, 5250, 11250, 12_000]);
    // It failed again: the retry waits the first delay, not the grown one.
    await vi.advanceTimersByTimeAsync(750);
    expect(delegate.cycles.at(-1)).toBe(12_750);
    // Later messages on the same stream are no reconnect.
    delegate.cycle$ = async () => {};
    await vi.advanceTimersByTimeAsync(1500);
    const cycles = delegate.cycles.length;
    delegate.events?.alive();
    await vi.advanceTimersByTimeAsync(0);
    expect(delegate.cycles).toHaveLength(cycles);
  });

  it("wake() runs a cycle at once, resets the backoff and reconnects a waiting stream", async () => {
    delegate.cycle$ = failing;
    make(0.5).begin();
    await vi.advanceTimersByTimeAsync(0);
    delegate.end(new Error("offline"));
    await vi.advanceTimersByTimeAsync(1500);
    delegate.end(new Error("offline"));
    // Cycles at 0, 750, 2250, 5250 (next 11250); streams at 0, 1500, then waiting until 4500.
    await vi.advanceTimersByTimeAsync(6_000 - 1500);
    delegate.end(new Error("offline"));
    expect(delegate.streams).toEqual([0, 1500, 4500]);
    await vi.advanceTimersByTimeAsync(0);
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(delegate.cycles.at(-1)).toBe(6_000);
    expect(delegate.streams).toEqual([0, 1500, 4500, 6_000]);
    await vi.advanceTimersByTimeAsync(750);
    expect(delegate.cycles.at(-1)).toBe(6_750);
    // Idle, it does nothing.
    loop.end();
    loop.wake();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(delegate.cycles.at(-1)).toBe(6_750);
  });

  it("end() aborts the stream and its reconnect wait, leaving no timer", async () => {
    make().begin();
    await vi.advanceTimersByTimeAsync(0);
    delegate.end(new Error("reset"));
    await vi.advanceTimersByTimeAsync(100);
    loop.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(delegate.streams).toEqual([0]);

    loop.begin();
    await vi.advanceTimersByTimeAsync(0);
    const open = delegate.signals.at(-1);
    loop.end();
    expect(open?.aborted).toBe(true);
  });
});

describe("Backoff", () => {
  it("doubles from firstMs up to maxMs, with jitter between half and all of the ceiling", () => {
    const ceilings = (params: typeof cycleBackoff, n: number) => {
      const b = new Backoff(params, () => 1);
      return Array.from({ length: n }, () => b.next());
    };
    expect(ceilings(cycleBackoff, 8)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(ceilings(streamBackoff, 7)).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(new Backoff(cycleBackoff, () => 0).next()).toBe(500);
    // Thousands of failures in a row stay at the cap.
    const long = new Backoff(cycleBackoff, () => 1);
    for (let i = 0; i < 5000; i++) long.next();
    expect(long.next()).toBe(60_000);
  });

  it("starts over after reset()", () => {
    const b = new Backoff(cycleBackoff, () => 1);
    b.next();
    b.next();
    b.reset();
    expect(b.next()).toBe(1000);
  });
});

/**
 * When the device syncs: the loop decides when a cycle runs and when the Subscribe stream
 * reconnects; what a cycle does and what the stream says are its delegate's business
 * (sync-engine.ts wires the push and feed delegates in).
 *
 *              begin()                      trigger(delay): a local write (debounced), a poke,
 *   idle ──────────────► waiting ◄──────┐   `online`, the page visible, the interval timer
 *    ▲                     │ trigger    │
 *    │ end()               ▼            │ done (a success resets the backoff)
 *    └───────────────── cycle ──────────┘
 *                          │ failed and `retryable`: trigger(backoff), else wait for a trigger
 *
 * A reconnect (`wake()`: the stream's first message after it was down, the platform's `online`)
 * runs a cycle at once with the backoff reset, and reconnects a stream that waits out its own
 * backoff: changes written offline go out as soon as the server answers again, not at the end of
 * a backoff that grew while it was away (up to a minute).
 *
 * One cycle runs at a time: `run()` during one runs one more after it, shared by every caller.
 * `run()` works while idle too (`syncNow` in a tab that does not lead); triggers, the interval
 * and the stream only between `begin()` and `end()`. Timers are injected (tests use fakes).
 */

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The one backoff: after the n-th failure in a row, wait min(maxMs, firstMs · 2^(n−1)) times
 * (0.5 + random/2), i.e. between half and all of that ceiling, so devices that failed together
 * do not retry together.
 */
export interface BackoffParams {
  readonly firstMs: number;
  readonly maxMs: number;
}

/**
 * A failed cycle (network down, server restarting): the user's writes wait on it, so the first
 * retry comes after about a second (0.5–1 s), doubling to a minute.
 */
export const cycleBackoff: BackoffParams = { firstMs: 1000, maxMs: 60_000 };

/**
 * A failed or ended Subscribe stream starts at twice that (1–2 s): nothing waits on it (pokes only
 * hasten what local writes and the interval do anyway), and a server restart ends every device's
 * stream at the same moment, which a cycle's failure does not.
 */
export const streamBackoff: BackoffParams = { firstMs: 2000, maxMs: 60_000 };

/** Failures in a row and the wait each one earns (`BackoffParams`). */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly params: BackoffParams,
    private readonly random: () => number,
  ) {}

  /** Counts a failure; returns the wait before the next attempt, in ms. */
  next(): number {
    this.failures += 1;
    const ceiling = Math.min(this.params.maxMs, this.params.firstMs * 2 ** (this.failures - 1));
    return Math.round(ceiling * (0.5 + this.random() / 2));
  }

  reset(): void {
    this.failures = 0;
  }
}

/** What the stream delegate tells the loop while a stream is open. */
export interface StreamEvents {
  /** A message arrived (a heartbeat too): the stream works, its backoff starts over. */
  alive(): void;
  /**
   * The feed moved past what the replica holds: a cycle soon. With a cycle under way (which
   * may pull past it: the stream opens with the feed's head in the middle of a first sync),
   * one after it only if `stillBehind` says so then.
   */
  behind(stillBehind?: () => Promise<boolean>): void;
}

export interface LoopDelegate {
  /** One sync cycle (push the outbox, pull the feed); rejects when it failed. */
  cycle(): Promise<void>;
  /** A failed cycle is tried again after the backoff (true) or waits for the next trigger. */
  retryable(err: unknown): boolean;
  /** Holds the Subscribe stream open until it ends, fails or `signal` aborts. */
  listen(signal: AbortSignal, events: StreamEvents): Promise<void>;
}

export interface SyncLoopOptions {
  readonly delegate: LoopDelegate;
  readonly timers: Timers;
  /** For the backoff's jitter. */
  readonly random: () => number;
  /** A cycle at least this often while the loop runs. */
  readonly intervalMs: number;
}

export class SyncLoop {
  private active = false;
  private current: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private scheduled: unknown;
  private interval: unknown;
  private stream: AbortController | undefined;
  /** Ends the stream's wait before it reconnects (set while it waits). */
  private streamWait: (() => void) | undefined;
  private readonly backoff: Backoff;

  constructor(private readonly options: SyncLoopOptions) {
    this.backoff = new Backoff(cycleBackoff, options.random);
  }

  /** Background sync from now on: the interval, the stream, and a cycle at once. */
  begin(): void {
    if (this.active) return;
    this.active = true;
    this.tick();
    this.openStream();
    this.trigger(0);
  }

  /** Ends every timer and the stream; a cycle under way finishes. */
  end(): void {
    this.active = false;
    this.options.timers.clearTimeout(this.scheduled);
    this.options.timers.clearTimeout(this.interval);
    this.scheduled = undefined;
    this.interval = undefined;
    this.stream?.abort();
    this.stream = undefined;
  }

  /**
   * A cycle after `delayMs`, while the loop runs. A cycle already scheduled stays (a later
   * trigger never postpones it: writes within one debounce make one push), unless this one is
   * immediate.
   */
  trigger(delayMs: number): void {
    if (!this.active) return;
    if (this.scheduled !== undefined) {
      if (delayMs > 0) return;
      this.options.timers.clearTimeout(this.scheduled);
    }
    this.scheduled = this.options.timers.setTimeout(() => {
      this.scheduled = undefined;
      void this.background();
    }, delayMs);
  }

  /**
   * The server is (probably) reachable again: a cycle now with the backoff started over, and a
   * stream waiting to reconnect reconnects now. Nothing while the loop is idle.
   */
  wake(): void {
    if (!this.active) return;
    this.backoff.reset();
    this.trigger(0);
    this.streamWait?.();
  }

  /** A cycle now, or one more after the one under way (shared by every caller meanwhile). */
  run(): Promise<void> {
    if (this.current === undefined) return this.startCycle();
    this.queued ??= this.current
      .catch(() => {})
      .then(() => {
        this.queued = undefined;
        return this.startCycle();
      });
    return this.queued;
  }

  private startCycle(): Promise<void> {
    const run = this.options.delegate
      .cycle()
      .then(() => this.backoff.reset())
      .finally(() => {
        if (this.current === run) this.current = undefined;
      });
    this.current = run;
    return run;
  }

  private async background(): Promise<void> {
    try {
      await this.run();
    } catch (err) {
      if (this.options.delegate.retryable(err)) this.trigger(this.backoff.next());
    }
  }

  private tick(): void {
    this.options.timers.clearTimeout(this.interval);
    this.interval = this.options.timers.setTimeout(() => {
      if (!this.active) return;
      this.trigger(0);
      this.tick();
    }, this.options.intervalMs);
  }

  /** Keeps a stream open while the loop runs: a stream that ends or fails reconnects later. */
  private openStream(): void {
    this.stream?.abort();
    const controller = new AbortController();
    this.stream = controller;
    const { signal } = controller;
    const backoff = new Backoff(streamBackoff, this.options.random);
    // The stream failed or ended: its next message says the server answers again.
    let down = false;
    const events: StreamEvents = {
      alive: () => {
        backoff.reset();
        if (!down) return;
        down = false;
        this.wake();
      },
      behind: (stillBehind) => {
        const running = this.current;
        if (running === undefined || stillBehind === undefined) {
          this.trigger(0);
          return;
        }
        void running
          .catch(() => {})
          .then(() => stillBehind().catch(() => true))
          .then((behind) => {
            if (behind) this.trigger(0);
          });
      },
    };
    void (async () => {
      while (!signal.aborted) {
        try {
          await this.options.delegate.listen(signal, events);
        } catch {
          // The stream failed: reconnect after a while, as after one that ended.
        }
        if (signal.aborted) return;
        down = true;
        await this.sleep(backoff.next(), signal);
      }
    })();
  }

  /** Waits `ms`, or less if `signal` aborts or `wake()` comes meanwhile. */
  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    const { timers } = this.options;
    return new Promise<void>((resolve) => {
      // One listener per wait, removed when the wait ends: a device offline for days
      // reconnects thousands of times on the same controller.
      const done = () => {
        timers.clearTimeout(handle);
        signal.removeEventListener("abort", done);
        if (this.streamWait === done) this.streamWait = undefined;
        resolve();
      };
      const handle = timers.setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      this.streamWait = done;
    });
  }
}

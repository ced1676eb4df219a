/**
 * The device's sync engine: pushes the outbox, pulls the feed, and keeps doing so in the
 * background while it leads. It composes four parts, each in its own file:
 *
 * - sync-loop.ts: when: triggers, debounce, the interval, the one backoff, one cycle at a time,
 *   reconnecting the Subscribe stream;
 * - outbox-push.ts with push-delegate.ts: a Push's tagged outcome and what the outbox does with
 *   it (acknowledge, halve, quarantine, re-stamp);
 * - feed-delegate.ts: pulling (in the page or the pull Worker) and listening to the stream;
 * - leadership.ts: one leader per replica across tabs (Web Locks).
 *
 * Here: the status, the cycle's steps and what its failure means. A cycle: learn the server's
 * time first if it is unknown (one Pull), push the outbox, then pull the feed to its end. Only
 * the leader runs cycles in the background and holds the Subscribe stream; `syncNow` runs a
 * cycle in any tab. `unauthenticated` pauses sync, every queued change kept, until getToken
 * gives another token (checked at each trigger); a network or server failure is retried after
 * the loop's backoff.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Change } from "../core/change.ts";
import { maxPullLimit } from "../core/limits.ts";
import type { DeviceClock } from "./device-clock.ts";
import { exclusive } from "./exclusive.ts";
import { FeedDelegate } from "./feed-delegate.ts";
import { type PullingState, type SyncPeers, seekLeadership } from "./leadership.ts";
import { OutboxPusher } from "./outbox-push.ts";
import type { PullProgress, PullResult } from "./pull-feed.ts";
import { isTransient, pushBatch } from "./push-delegate.ts";
import { type QuarantineEntry, type ReplicaDb, tablesOf } from "./replica-db.ts";
import { discard, metaKeys, retry } from "./replica-sync.ts";
import { SyncLoop, type Timers } from "./sync-loop.ts";
import type { SyncTransport } from "./sync-transport.ts";

export type { Timers } from "./sync-loop.ts";
export type { SyncTransport } from "./sync-transport.ts";

export interface QuarantinedItem {
  /** Use with retry and discard. */
  readonly id: number;
  readonly change: Change;
  readonly code: string;
  readonly reason: string;
}

export interface SyncStatus {
  /** The last contact with the server worked (and, in a browser, the platform says online). */
  readonly online: boolean;
  /** This client runs the background sync of its replica. */
  readonly leader: boolean;
  readonly syncing: boolean;
  /** Changes waiting to be pushed. */
  readonly pending: number;
  readonly quarantined: readonly QuarantinedItem[];
  /** When a cycle last ended with the outbox pushed and the feed pulled to its end. */
  readonly lastSyncedAt: Date | undefined;
  readonly lastError: ConnectError | undefined;
  /**
   * A pull of more than one page under way (a first sync, a long time away): the changes merged
   * so far and about how many are left, when the server says (pull-feed.ts PullProgress).
   */
  readonly pulling: PullingState;
  /** Sync stopped for want of a working token; it resumes when getToken gives another one. */
  readonly paused: boolean;
  readonly storage: { usage?: number; quota?: number; persisted?: boolean } | undefined;
}

export interface SyncEngineOptions {
  readonly db: ReplicaDb;
  readonly transport: SyncTransport;
  /**
   * The device's clock, saved after re-stamping and after each cycle; its wall clock (injected
   * in tests) dates `lastSyncedAt`.
   */
  readonly clock: DeviceClock;
  /** setTimeout and clearTimeout (default the global ones; tests inject fakes). */
  readonly timers?: Timers;
  readonly random?: () => number;
  /** Web Locks, for one leader per replica; absent = this client leads. */
  readonly locks?: LockManager;
  readonly lockName?: string;
  /**
   * The other tabs of this replica (leadership.ts `broadcastPeers`): the leader tells them its
   * pull's progress and whether it reaches the server; a tab that does not lead shows what it
   * hears as its own `pulling` and `online`.
   */
  readonly peers?: SyncPeers;
  /** Window-like target for `online` and `visibilitychange` events. */
  readonly events?: EventTarget;
  readonly isVisible?: () => boolean;
  readonly storage?: StorageManager;
  /** Changes per Push (default `defaultPushBatch`, outbox-push.ts). */
  readonly pushBatch?: number;
  /**
   * Bytes of changes per Push, roughly (default 2 MiB, under the server's default body limit
   * of 8 MiB): a batch of photos is cut short. A batch the server still finds too large is
   * halved until it fits.
   */
  readonly pushBytes?: number;
  /** Changes per Pull page (default the server's maximum, `maxPullLimit`). */
  readonly pullLimit?: number;
  /**
   * Pulls in a dedicated Worker (browsers: worker-pull.ts), so merging a first sync's pages
   * never blocks the page; absent = in this thread.
   */
  readonly pullInWorker?: (
    limit: number,
    token: string | undefined,
    onProgress?: (progress: PullProgress) => void,
  ) => Promise<PullResult>;
  /** Delay after a local write before pushing (default 200 ms). */
  readonly debounceMs?: number;
  /** Sync while idle every this often (default 60 s). */
  readonly intervalMs?: number;
}

export class SyncEngine {
  private state: SyncStatus = {
    online: true,
    leader: false,
    syncing: false,
    pending: 0,
    quarantined: [],
    lastSyncedAt: undefined,
    lastError: undefined,
    pulling: undefined,
    paused: false,
    storage: undefined,
  };
  private readonly listeners = new Set<(s: SyncStatus) => void>();
  private readonly loop: SyncLoop;
  private readonly feed: FeedDelegate;
  private readonly pusher: OutboxPusher;
  private started = false;
  /** The token that was refused: sync stays paused while getToken gives it. */
  private failedToken: string | undefined;
  /** Gives up the lead (or stops waiting for it). */
  private resign: (() => void) | undefined;
  /** Stops hearing the leader's progress. */
  private unhear: (() => void) | undefined;
  /** Signal again: what waits goes out now, not when a backoff grown offline ends. */
  private readonly onOnline = () => this.loop.wake();
  private readonly onVisible = () => {
    if (this.options.isVisible?.() ?? true) this.trigger(0);
  };

  constructor(private readonly options: SyncEngineOptions) {
    const { db, transport, clock } = options;
    this.feed = new FeedDelegate({ db, transport, clock, pullInWorker: options.pullInWorker });
    this.pusher = new OutboxPusher({
      db,
      clock,
      push: (changes) => pushBatch(transport, changes),
      measureServerTime: () => this.feed.pull(1),
      batch: options.pushBatch,
      maxBytes: options.pushBytes,
    });
    this.loop = new SyncLoop({
      delegate: {
        cycle: () => this.cycle(),
        // Paused: nothing to retry until another token; else a network or server failure.
        retryable: (err) => !this.state.paused && isTransient(ConnectError.from(err)),
        listen: (signal, events) => this.feed.listen(signal, events),
      },
      timers: options.timers ?? {
        setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
        clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
      },
      random: options.random ?? Math.random,
      intervalMs: options.intervalMs ?? 60_000,
    });
  }

  get status(): SyncStatus {
    return this.state;
  }

  subscribe(listener: (s: SyncStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<SyncStatus>): void {
    const wasOnline = this.state.online;
    this.state = { ...this.state, ...patch };
    // The other tabs hear every page of a pull and each cycle's end (`pulling` set), and a
    // change of contact with the server; not the `online: true` every cycle that works repeats
    // (each message makes every other tab read the replica's status).
    if (this.state.leader && ("pulling" in patch || this.state.online !== wasOnline)) {
      this.options.peers?.tell({ pulling: this.state.pulling, online: this.state.online });
    }
    for (const listener of this.listeners) listener(this.state);
  }

  /**
   * Re-reads what the replica holds for the status (pending, quarantine, last sync) and, when
   * asked, the storage estimate (slow on some browsers: not after every local write).
   */
  async refresh(withStorage = false): Promise<void> {
    const { db } = this.options;
    const [pending, held, last] = await exclusive(db, () =>
      db.transaction("r", [db.outbox, db.quarantine, db.meta], (tx) => {
        const { outbox, quarantine, meta } = tablesOf(tx);
        return Promise.all([
          outbox.count(),
          quarantine.orderBy("seq").toArray(),
          meta.get(metaKeys.lastSyncedAt),
        ]);
      }),
    );
    const storage = withStorage ? await this.storageEstimate() : undefined;
    this.set({
      pending,
      quarantined: held.map(toItem),
      lastSyncedAt:
        typeof last?.value === "number" ? new Date(last.value) : this.state.lastSyncedAt,
      ...(storage ? { storage } : {}),
    });
  }

  private async storageEstimate(): Promise<SyncStatus["storage"]> {
    const storage = this.options.storage;
    if (!storage?.estimate) return undefined;
    try {
      const [estimate, persisted] = await Promise.all([
        storage.estimate(),
        storage.persisted?.() ?? Promise.resolve(undefined),
      ]);
      return {
        ...(estimate.usage !== undefined ? { usage: estimate.usage } : {}),
        ...(estimate.quota !== undefined ? { quota: estimate.quota } : {}),
        ...(persisted !== undefined ? { persisted } : {}),
      };
    } catch {
      return undefined;
    }
  }

  /** Background sync from now on (while this client leads). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.options.events?.addEventListener("online", this.onOnline);
    this.options.events?.addEventListener("visibilitychange", this.onVisible);
    void this.options.storage?.persist?.().catch(() => {});
    // Until it leads, a tab shows the leader's pull and contact with the server as its own. At
    // the end of each of the leader's cycles (told as no pull) it first reads what the cycle
    // saved (when it last synced, the outbox, the quarantine), so its sync bar goes from the
    // progress straight to "Synced", unless the leader told more meanwhile.
    let heard = 0;
    this.unhear = this.options.peers?.hear(({ pulling, online }) => {
      if (this.state.leader) return;
      const told = ++heard;
      if (pulling !== undefined) {
        this.set({ pulling, online });
        return;
      }
      void this.refresh()
        .catch(() => {})
        .then(() => {
          if (told === heard && !this.state.leader) this.set({ pulling: undefined, online });
        });
    });
    this.resign = seekLeadership(
      this.options.locks,
      this.options.lockName ?? "hivekeep-sync",
      () => {
        // What it heard ends (a leader that closed mid-pull tells nothing more); the others
        // hear that too.
        this.set({ leader: true, pulling: undefined });
        this.loop.begin();
      },
    );
  }

  /** Stops background sync (a cycle under way finishes); leadership passes to another tab. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.options.events?.removeEventListener("online", this.onOnline);
    this.options.events?.removeEventListener("visibilitychange", this.onVisible);
    this.loop.end();
    this.unhear?.();
    this.unhear = undefined;
    this.resign?.();
    this.resign = undefined;
    this.set({ leader: false });
  }

  /** A local write happened (in this tab or, through the shared outbox, another). */
  localWrite(): void {
    this.trigger(this.options.debounceMs ?? 200);
  }

  /**
   * The outbox holds `pending` changes now (a live query of it, which sees every tab's writes):
   * the status follows, and the leader pushes soon. Cheaper than `refresh` after every write,
   * which would queue a transaction ahead of the next local operation.
   */
  outboxChanged(pending: number): void {
    if (pending !== this.state.pending) this.set({ pending });
    if (pending > 0) this.localWrite();
  }

  /** Runs a cycle soon, if this client leads. */
  trigger(delayMs: number): void {
    this.loop.trigger(delayMs);
  }

  /**
   * Pushes the outbox and pulls the feed to its end; rejects with the ConnectError of a network
   * or auth failure. Runs after a cycle already under way (once more, shared by every caller
   * meanwhile, so what was written before this call is pushed).
   */
  syncNow(): Promise<void> {
    return this.loop.run();
  }

  private async cycle(): Promise<void> {
    const { db, transport, clock } = this.options;
    if (this.state.paused) {
      const token = await transport.token();
      if (token === this.failedToken) {
        throw this.state.lastError ?? new ConnectError("sign in again", Code.Unauthenticated);
      }
      this.set({ paused: false });
    }
    this.set({ syncing: true });
    try {
      if (clock.offsetMs === undefined) await this.feed.pull(1);
      await this.pusher.pushAll();
      await this.feed.pull(this.options.pullLimit ?? maxPullLimit, (p) => this.pulled(p));
      const now = clock.wallMs();
      await db.meta.bulkPut([
        { key: metaKeys.lastSyncedAt, value: now },
        { key: metaKeys.caughtUpMs, value: clock.nowMs() },
        ...clock.meta(),
      ]);
      this.set({ online: true, lastError: undefined, lastSyncedAt: new Date(now) });
    } catch (err) {
      const ce = ConnectError.from(err);
      if (ce.code === Code.Unauthenticated) {
        this.failedToken = await transport.token().catch(() => undefined);
        this.set({ paused: true });
      }
      this.set({ lastError: ce, online: !isNetworkError(ce) && this.state.online });
      throw ce;
    } finally {
      // The counts first: a listener that sees `syncing` turn false sees the outbox as it is.
      await this.refresh(true).catch(() => {});
      this.set({ syncing: false, pulling: undefined });
    }
  }

  /** A page merged: progress shows from the first page that says more follow. */
  private pulled(p: PullProgress): void {
    if (!p.more && this.state.pulling === undefined) return;
    this.set({ pulling: p.more ? { changes: p.changes, left: p.left } : undefined });
  }

  /** Moves a quarantined change back to the outbox; resolves with the status updated. */
  async retry(id: number): Promise<void> {
    await retry(this.options.db, id);
    await this.refresh();
    this.trigger(this.options.debounceMs ?? 200);
  }

  async discard(id: number): Promise<void> {
    await discard(this.options.db, id);
    await this.refresh();
  }
}

const isNetworkError = (ce: ConnectError): boolean =>
  ce.code === Code.Unavailable || ce.code === Code.DeadlineExceeded;

const toItem = (q: QuarantineEntry): QuarantinedItem => ({
  id: q.seq,
  change: q.change,
  code: q.code,
  reason: q.reason,
});

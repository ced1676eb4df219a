/**
 * The device's sync engine: pushes the outbox, pulls the feed, and keeps doing so in the
 * background while it leads.
 *
 *              start()                      a trigger (local write, poke, online,
 *   stopped ───────────► waiting ◄──────┐   page visible, timer, syncNow)
 *      ▲                   │ trigger    │
 *      │ stop()            ▼            │ done
 *      └─────────────── cycle ──────────┘
 *                          │ network error: retry after a backoff (exponential, with jitter)
 *                          │ unauthenticated: paused, every queued change kept, until getToken
 *                          ▼ gives another token (checked at each trigger)
 *
 * A cycle: learn the server's time first if it is unknown (one Pull), push the outbox in order
 * in batches, then pull the feed to its end. Only the leader (one per replica across tabs, by the
 * Web Locks API; without it a client leads itself) runs cycles in the background and holds the
 * Subscribe stream; `syncNow` runs a cycle in any tab.
 *
 * Push outcomes: acknowledged entries leave the outbox; a PushRejection quarantines exactly the
 * named changes (kept and shown with the reason) and the rest is pushed again; changes refused
 * for a clock too far ahead are re-stamped and pushed again; a lost response is simply pushed
 * again (the server treats a re-push as a no-op). Pull: pages merged with the cursor in one
 * transaction each; a cursor the server refuses (its database was reset) restarts from "".
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { PushRejectionSchema } from "@hivekeep/proto";
import { type Change, toWire } from "../core/change.ts";
import { type Hlc, isTooFarAhead } from "../core/hlc.ts";
import { maxPullLimit } from "../core/limits.ts";
import { restamp } from "../core/restamp.ts";
import { isClockAheadReason } from "../core/validate-change.ts";
import type { PullPage, SyncChange } from "../protocol/wire.ts";
import type { DeviceClock } from "./device-clock.ts";
import { exclusive } from "./exclusive.ts";
import { type PullResult, pullFeed, storedCursor } from "./pull-feed.ts";
import { type OutboxEntry, type QuarantineEntry, type ReplicaDb, tablesOf } from "./replica-db.ts";
import {
  acknowledge,
  discard,
  metaKeys,
  outboxBatch,
  quarantine,
  replaceStamps,
  retry,
} from "./replica-sync.ts";

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
  /** Sync stopped for want of a working token; it resumes when getToken gives another one. */
  readonly paused: boolean;
  readonly storage: { usage?: number; quota?: number; persisted?: boolean } | undefined;
}

/** What the engine needs from the network. */
export interface SyncTransport {
  push(changes: readonly SyncChange[]): Promise<{ serverTimeMs: number | undefined }>;
  pages(cursor: string, limit: number, signal?: AbortSignal): AsyncIterable<PullPage>;
  /** Pokes: the caller's newest feed position ("" on a heartbeat). */
  subscribe(cursor: string, signal: AbortSignal): AsyncIterable<string>;
  /** The token in use now (undefined in single-user mode), to notice a new sign-in. */
  token(): Promise<string | undefined>;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
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
  /** Window-like target for `online` and `visibilitychange` events. */
  readonly events?: EventTarget;
  readonly isVisible?: () => boolean;
  readonly storage?: StorageManager;
  /** Changes per Push (default `defaultPushBatch`). */
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
  readonly pullInWorker?: (limit: number, token: string | undefined) => Promise<PullResult>;
  /** Delay after a local write before pushing (default 200 ms). */
  readonly debounceMs?: number;
  /** Sync while idle every this often (default 60 s). */
  readonly intervalMs?: number;
}

/** Changes per Push: the device's own choice, well under the server's `maxPushChanges`. */
const defaultPushBatch = 500;
const backoffBaseMs = 1000;
const backoffMaxMs = 60_000;
/**
 * Changes of a pull merged in the page before the rest goes to the pull Worker: 500 merge in
 * about 30 ms (a 5000-change page blocked the page for 290–338 ms), under the 50 ms of a task a
 * user would feel.
 */
const inThreadPullLimit = 500;
/** Re-stamping rounds per cycle before refused stamps are quarantined instead. */
const maxRestamps = 2;

/** A network or server-side failure that a later attempt may get past. */
const isTransient = (err: ConnectError): boolean =>
  [
    Code.Unavailable,
    Code.DeadlineExceeded,
    Code.Aborted,
    Code.Internal,
    Code.Unknown,
    Code.ResourceExhausted,
    Code.Canceled,
  ].includes(err.code);

export class SyncEngine {
  private state: SyncStatus = {
    online: true,
    leader: false,
    syncing: false,
    pending: 0,
    quarantined: [],
    lastSyncedAt: undefined,
    lastError: undefined,
    paused: false,
    storage: undefined,
  };
  private readonly listeners = new Set<(s: SyncStatus) => void>();
  private readonly timers: Timers;
  private started = false;
  private current: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private scheduled: unknown;
  private interval: unknown;
  private failures = 0;
  /** The byte budget of the next Push: halved when one failed, doubled back after success. */
  private pushBytes: number;
  private readonly maxPushBytes: number;
  private failedToken: string | undefined;
  private leadership: AbortController | undefined;
  private stopLeading: (() => void) | undefined;
  private stream: AbortController | undefined;
  private readonly onOnline = () => this.trigger(0);
  private readonly onVisible = () => {
    if (this.options.isVisible?.() ?? true) this.trigger(0);
  };

  constructor(private readonly options: SyncEngineOptions) {
    this.maxPushBytes = options.pushBytes ?? 2 << 20;
    this.pushBytes = this.maxPushBytes;
    this.timers = options.timers ?? {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
    };
  }

  get status(): SyncStatus {
    return this.state;
  }

  subscribe(listener: (s: SyncStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<SyncStatus>): void {
    this.state = { ...this.state, ...patch };
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
    const { locks } = this.options;
    if (locks) {
      this.leadership = new AbortController();
      locks
        .request(
          this.options.lockName ?? "hivekeep-sync",
          { signal: this.leadership.signal },
          () =>
            new Promise<void>((resolve) => {
              this.stopLeading = resolve;
              this.lead();
            }),
        )
        .catch(() => {});
    } else {
      this.lead();
    }
  }

  private lead(): void {
    if (!this.started) {
      this.stopLeading?.();
      return;
    }
    this.set({ leader: true });
    this.tick();
    this.openStream();
    this.trigger(0);
  }

  /** Stops background sync (a cycle under way finishes); leadership passes to another tab. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.options.events?.removeEventListener("online", this.onOnline);
    this.options.events?.removeEventListener("visibilitychange", this.onVisible);
    this.timers.clearTimeout(this.scheduled);
    this.timers.clearTimeout(this.interval);
    this.scheduled = undefined;
    this.stream?.abort();
    this.leadership?.abort();
    this.stopLeading?.();
    this.stopLeading = undefined;
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
    if (!this.started || !this.state.leader) return;
    if (this.scheduled !== undefined) {
      if (delayMs > 0) return;
      this.timers.clearTimeout(this.scheduled);
    }
    this.scheduled = this.timers.setTimeout(() => {
      this.scheduled = undefined;
      void this.background();
    }, delayMs);
  }

  private tick(): void {
    this.timers.clearTimeout(this.interval);
    this.interval = this.timers.setTimeout(() => {
      if (!this.started) return;
      this.trigger(0);
      this.tick();
    }, this.options.intervalMs ?? 60_000);
  }

  private async background(): Promise<void> {
    try {
      await this.syncNow();
    } catch (err) {
      const ce = ConnectError.from(err);
      if (this.state.paused) return;
      if (isTransient(ce)) {
        this.failures += 1;
        const ceiling = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (this.failures - 1));
        const random = this.options.random ?? Math.random;
        this.trigger(Math.round(ceiling * (0.5 + random() / 2)));
      }
    }
  }

  /**
   * Pushes the outbox and pulls the feed to its end; rejects with the ConnectError of a network
   * or auth failure. Runs after a cycle already under way.
   */
  syncNow(): Promise<void> {
    if (this.current === undefined) return this.startCycle();
    // A cycle is under way: run one more after it (shared by every caller meanwhile), so what
    // was written before this call is pushed.
    this.queued ??= this.current
      .catch(() => {})
      .then(() => {
        this.queued = undefined;
        return this.startCycle();
      });
    return this.queued;
  }

  private startCycle(): Promise<void> {
    const run = this.cycle().finally(() => {
      if (this.current === run) this.current = undefined;
    });
    this.current = run;
    return run;
  }

  private async cycle(): Promise<void> {
    if (this.state.paused) {
      const token = await this.options.transport.token();
      if (token === this.failedToken) {
        throw this.state.lastError ?? new ConnectError("sign in again", Code.Unauthenticated);
      }
      this.set({ paused: false });
    }
    this.set({ syncing: true });
    try {
      if (this.options.clock.offsetMs === undefined) await this.pull(1);
      await this.push();
      await this.pull(this.options.pullLimit ?? maxPullLimit);
      const now = this.options.clock.wallMs();
      await this.options.db.meta.bulkPut([
        { key: metaKeys.lastSyncedAt, value: now },
        ...this.options.clock.meta(),
      ]);
      this.failures = 0;
      this.set({ online: true, lastError: undefined, lastSyncedAt: new Date(now) });
    } catch (err) {
      const ce = ConnectError.from(err);
      if (ce.code === Code.Unauthenticated) {
        this.failedToken = await this.options.transport.token().catch(() => undefined);
        this.set({ paused: true });
      }
      this.set({ lastError: ce, online: !isNetworkError(ce) && this.state.online });
      throw ce;
    } finally {
      // The counts first: a listener that sees `syncing` turn false sees the outbox as it is.
      await this.refresh(true).catch(() => {});
      this.set({ syncing: false });
    }
  }

  private async push(): Promise<void> {
    const { db, transport, clock } = this.options;
    let restamps = 0;
    for (;;) {
      const batch = withinBytes(
        await outboxBatch(db, this.options.pushBatch ?? defaultPushBatch),
        this.pushBytes,
      );
      const [first] = batch;
      if (first === undefined) return;
      try {
        const response = await transport.push(batch.map((e) => toWire(e.change)));
        clock.observeServerTime(response.serverTimeMs);
        for (const e of batch) clock.observe(e.change.hlc);
        await acknowledge(db, batch);
        this.pushBytes = Math.min(this.maxPushBytes, this.pushBytes * 2);
      } catch (err) {
        const ce = ConnectError.from(err);
        if (isTooLarge(ce)) {
          // The server's body limit is below this batch: halve it; a single change that is
          // too large on its own is set aside with the server's reason, never retried forever.
          if (batch.length > 1) {
            this.pushBytes = Math.max(1, Math.floor(batchBytes(batch) / 2));
            continue;
          }
          await quarantine(db, [
            { entry: first, code: "resource_exhausted", reason: ce.rawMessage },
          ]);
          continue;
        }
        if (isTransient(ce) && batch.length > 1) {
          // A server may also answer a body over its limit by closing the connection, which
          // reads like any network failure: the next attempt (after the backoff) sends half.
          this.pushBytes = Math.max(1, Math.floor(batchBytes(batch) / 2));
        }
        const [detail] = ce.findDetails(PushRejectionSchema);
        if (detail === undefined || detail.rejections.length === 0) throw ce;
        // One item per refused change, with every reason the server gave for it.
        const byIndex = new Map<number, { entry: OutboxEntry; code: string; reason: string }>();
        for (const r of detail.rejections) {
          const entry = batch[r.index];
          if (entry === undefined) continue;
          const seen = byIndex.get(r.index);
          byIndex.set(
            r.index,
            seen === undefined
              ? { entry, code: r.code, reason: r.reason }
              : {
                  entry,
                  code: seen.code === "permission_denied" ? seen.code : r.code,
                  reason: `${seen.reason}; ${r.reason}`,
                },
          );
        }
        const refused = [...byIndex.values()];
        const ahead = refused.filter(
          (r) => isTooFarAhead(r.entry.change.hlc, clock.nowMs()) || isClockAheadReason(r.reason),
        );
        if (ahead.length > 0 && restamps < maxRestamps) {
          restamps += 1;
          // The device's idea of the server's time was wrong (its clock jumped since the last
          // response, or it never had one): measure it again before re-stamping.
          await this.pull(1);
          await this.restamp(clock.nowMs());
          continue;
        }
        if (refused.length === 0) throw ce;
        await quarantine(db, refused);
      }
    }
  }

  /** Gives every outbox change stamped too far ahead of the server a new stamp. */
  private async restamp(serverNow: number): Promise<void> {
    const { db, clock } = this.options;
    const outbox = await db.outbox.orderBy("seq").toArray();
    const maxSeen = (await db.meta.get(metaKeys.maxSeen))?.value as Hlc | undefined;
    const result = restamp({
      changes: outbox.map((e) => e.change),
      node: clock.node,
      serverTimeMs: serverNow,
      stampMs: clock.nowMs(),
      maxSeen,
    });
    if (result.clock === undefined) return;
    clock.reset(result.clock);
    const replaced = outbox.flatMap((entry, i) => {
      const change = result.changes[i];
      return change && change !== entry.change ? [{ entry, change }] : [];
    });
    await replaceStamps(db, replaced);
    await db.meta.bulkPut(clock.meta());
  }

  /** Pulls to the end of the feed: in the pull Worker when there is one, else here. */
  private async pull(limit: number): Promise<void> {
    const { db, transport, pullInWorker } = this.options;
    const here = (l: number, maxPages?: number) =>
      pullFeed(db, (cursor, size) => transport.pages(cursor, size), l, maxPages);
    if (pullInWorker === undefined || limit === 1) {
      this.observePulled(await here(limit));
      return;
    }
    // Most pulls (a poke's few changes, a small account's first sync) fit one small page,
    // merged here in a few milliseconds: the Worker is never loaded. A longer feed goes on in
    // the Worker, so merging it never blocks the page.
    const first = await here(Math.min(limit, inThreadPullLimit), 1);
    this.observePulled(first);
    if (first.more) this.observePulled(await pullInWorker(limit, await transport.token()));
  }

  private observePulled(result: PullResult): void {
    const { clock } = this.options;
    clock.observeServerTime(result.serverTimeMs);
    if (result.maxSeen !== undefined) clock.observe(result.maxSeen);
  }

  private openStream(): void {
    if (!this.started || !this.state.leader) return;
    this.stream?.abort();
    const controller = new AbortController();
    this.stream = controller;
    const { db, transport } = this.options;
    void (async () => {
      let failures = 0;
      while (!controller.signal.aborted) {
        try {
          const cursor = await storedCursor(db);
          for await (const poke of transport.subscribe(cursor, controller.signal)) {
            failures = 0;
            if (poke === "") continue;
            if (poke !== (await storedCursor(db))) this.trigger(0);
          }
        } catch {
          // The stream ended or failed: reconnect after a while.
        }
        if (controller.signal.aborted) return;
        failures += 1;
        const ceiling = Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.min(failures, 10));
        const random = this.options.random ?? Math.random;
        await new Promise<void>((resolve) => {
          // One listener per wait, removed when the wait ends: a device offline for days
          // reconnects thousands of times on the same controller.
          const onAbort = () => {
            this.timers.clearTimeout(handle);
            resolve();
          };
          const handle = this.timers.setTimeout(
            () => {
              controller.signal.removeEventListener("abort", onAbort);
              resolve();
            },
            Math.round(ceiling * (0.5 + random() / 2)),
          );
          controller.signal.addEventListener("abort", onAbort, { once: true });
        });
      }
    })();
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

/** Roughly the encoded size of a change: JSON length stands in (a misjudged batch is halved). */
const changeBytes = (c: Change): number =>
  64 +
  c.entityId.length +
  c.scopeId.length +
  c.hlc.length +
  (JSON.stringify(c.payload)?.length ?? 0);

const batchBytes = (batch: readonly { readonly change: Change }[]): number =>
  batch.reduce((sum, e) => sum + changeBytes(e.change), 0);

/** The first entries of a batch that fit in `maxBytes` (at least one). */
function withinBytes<T extends { readonly change: Change }>(batch: T[], maxBytes: number): T[] {
  let bytes = 0;
  for (const [i, entry] of batch.entries()) {
    bytes += changeBytes(entry.change);
    if (bytes > maxBytes && i > 0) return batch.slice(0, i);
  }
  return batch;
}

/**
 * The server (or a proxy before it, HTTP 413) refused the request for its size; other
 * `resource_exhausted` answers (rate limits) are waited out like network errors.
 */
const isTooLarge = (ce: ConnectError): boolean =>
  (ce.code === Code.ResourceExhausted && /larger than|too large/i.test(ce.rawMessage)) ||
  /^HTTP 413\b/.test(ce.rawMessage);

const isNetworkError = (ce: ConnectError): boolean =>
  ce.code === Code.Unavailable || ce.code === Code.DeadlineExceeded;

const toItem = (q: QuarantineEntry): QuarantinedItem => ({
  id: q.seq,
  change: q.change,
  code: q.code,
  reason: q.reason,
});

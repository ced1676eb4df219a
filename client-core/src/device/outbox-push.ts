/**
 * Pushes the outbox in order, in batches of at most `batch` changes and about `maxBytes`, acting
 * on each Push's outcome (push-delegate.ts):
 *
 * - `sent`: the entries leave the outbox; the byte budget doubles back towards `maxBytes`.
 * - `too-large`, `retry-later`: either may mean the batch is over a body limit (the server says
 *   so, or a proxy closes the connection under it, which reads as a network failure), so the
 *   next batch is half this one; a single change too large on its own is quarantined with the
 *   server's reason, never retried forever. `retry-later` then fails the cycle (the loop retries
 *   after its backoff); `too-large` goes on at once.
 * - `rejected`: the named changes are quarantined and the rest pushed again; changes refused for a
 *   stamp too far ahead are first re-stamped (after measuring the server's time again).
 * - `failed`: the cycle fails with the error.
 *
 * A lost response is simply pushed again (the server treats a re-push as a no-op).
 */
import type { ConnectError } from "@connectrpc/connect";
import { type Change, toWire } from "../core/change.ts";
import { type Hlc, isTooFarAhead } from "../core/hlc.ts";
import { restamp } from "../core/restamp.ts";
import { isClockAheadReason } from "../core/validate-change.ts";
import type { SyncChange } from "../protocol/wire.ts";
import type { DeviceClock } from "./device-clock.ts";
import { exclusive } from "./exclusive.ts";
import { conflictNotices, type PushConflict, putNotices } from "./notices.ts";
import type { PushOutcome } from "./push-delegate.ts";
import type { OutboxEntry, ReplicaDb } from "./replica-db.ts";
import { acknowledge, metaKeys, outboxBatch, quarantine, replaceStamps } from "./replica-sync.ts";

/** Changes per Push: the device's own choice, well under the server's `maxPushChanges`. */
export const defaultPushBatch = 500;
/** Bytes of changes per Push, roughly: 2 MiB, under the server's default body limit of 8 MiB. */
export const defaultPushBytes = 2 << 20;
/** Re-stamping rounds per push before refused stamps are quarantined instead. */
const maxRestamps = 2;

export interface OutboxPusherOptions {
  readonly db: ReplicaDb;
  readonly clock: DeviceClock;
  /** One Push (push-delegate.ts `pushBatch`). */
  readonly push: (changes: readonly SyncChange[]) => Promise<PushOutcome>;
  /** Measures the server's time again (a one-page Pull), before re-stamping. */
  readonly measureServerTime: () => Promise<void>;
  readonly batch?: number | undefined;
  readonly maxBytes?: number | undefined;
}

export class OutboxPusher {
  /** The byte budget of the next Push: halved when one was too large, doubled after success. */
  private budget: number;
  private readonly maxBytes: number;

  constructor(private readonly options: OutboxPusherOptions) {
    this.maxBytes = options.maxBytes ?? defaultPushBytes;
    this.budget = this.maxBytes;
  }

  /** The byte budget of the next Push (for tests). */
  get bytes(): number {
    return this.budget;
  }

  /** Pushes until the outbox is empty; rejects with the error of a failed Push. */
  async pushAll(): Promise<void> {
    const { db, clock } = this.options;
    let restamps = 0;
    for (;;) {
      const batch = withinBytes(
        await outboxBatch(db, this.options.batch ?? defaultPushBatch),
        this.budget,
      );
      const [first] = batch;
      if (first === undefined) return;
      const outcome = await this.options.push(batch.map((e) => toWire(e.change)));
      switch (outcome.kind) {
        case "sent":
          clock.observeServerTime(outcome.serverTimeMs);
          for (const e of batch) clock.observe(e.change.hlc);
          await acknowledge(db, batch);
          if (outcome.conflicts?.length) await this.notice(batch, outcome.conflicts);
          this.budget = Math.min(this.maxBytes, this.budget * 2);
          break;
        case "too-large":
        case "retry-later":
          if (batch.length > 1) this.halve(batch);
          else if (outcome.kind === "too-large") await this.setAside(first, outcome.error);
          if (outcome.kind === "retry-later") throw outcome.error;
          break;
        case "rejected": {
          const refused = outcome.refused.flatMap(({ index, code, reason }) => {
            const entry = batch[index];
            return entry === undefined ? [] : [{ entry, code, reason }];
          });
          const ahead = refused.some(
            (r) => isTooFarAhead(r.entry.change.hlc, clock.nowMs()) || isClockAheadReason(r.reason),
          );
          if (ahead && restamps < maxRestamps) {
            restamps += 1;
            // The device's idea of the server's time was wrong (its clock jumped since the last
            // response, or it never had one): measure it again before re-stamping.
            await this.options.measureServerTime();
            await this.restamp(clock.nowMs());
            break;
          }
          await quarantine(db, refused);
          break;
        }
        case "failed":
          throw outcome.error;
      }
    }
  }

  /** Keeps a notice of each column of the batch that lost to a newer write (notices.ts). */
  private async notice(
    batch: readonly OutboxEntry[],
    conflicts: readonly PushConflict[],
  ): Promise<void> {
    const { db, clock } = this.options;
    const changes = batch.map((e) => e.change);
    const now = new Date(clock.nowMs()).toISOString();
    await exclusive(db, async () => {
      const notices = await conflictNotices(db, changes, conflicts, now);
      await db.transaction("rw", db.notices, (tx) => putNotices(tx, notices));
    });
  }

  /** The next batch is half this one. */
  private halve(batch: readonly OutboxEntry[]): void {
    this.budget = Math.max(1, Math.floor(batchBytes(batch) / 2));
  }

  /** A change too large for the server on its own: quarantined with the server's reason. */
  private setAside(entry: OutboxEntry, error: ConnectError): Promise<void> {
    return quarantine(this.options.db, [
      { entry, code: "resource_exhausted", reason: error.rawMessage },
    ]);
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

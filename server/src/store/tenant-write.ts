/**
 * A write transaction of one tenant. It first locks the tenant's row in
 * `organizations` (select … for update; the function's first statements are
 * sent right behind it and run once it is held), so the writers of a tenant take feed
 * sequence numbers strictly one after another and feed order equals commit
 * order: a Pull can never pass over a change that commits later (the no-skip
 * guarantee of DESIGN.md §4). The NOTIFY is sent inside the transaction, so
 * Postgres delivers it only when the transaction commits.
 *
 * Every `apply` is followed, in the same transaction, by the repair of the
 * invariants a column merge cannot keep (one reigning queen, one open placement
 * per hive: invariant-repair.ts): its changes are stamped by the server clock
 * and go through the same write path, after the batch's in the feed. RPCs and
 * Push both write here, so every write of either is followed by the repair.
 */
import type { Change } from "@hivekeep/client-core/core";
import type { Db, Queryable } from "../db/db.ts";
import { type ApplyOptions, type ApplyOutcome, applyChanges } from "./apply-changes.ts";
import { feedChannel } from "./feed-notifier.ts";
import { invariantRepairs } from "./invariant-repair.ts";
import { newIdSource } from "./new-id.ts";
import { orphanRepairs } from "./orphan-repair.ts";
import { newServerClock, type ServerClock } from "./server-clock.ts";

export interface TenantWriter {
  readonly tx: Queryable;
  /**
   * Applies changes through the one write path, then the invariant repair they
   * call for; may be called several times. The outcome's conflicts and results
   * are the changes' own; `lastSeq` counts the repair's feed rows too.
   */
  apply(changes: readonly Change[], options?: ApplyOptions): Promise<WriteOutcome>;
}

export interface WriteOutcome extends ApplyOutcome {
  /** The repair's changes as applied after the batch (none when the invariants held). */
  readonly repairs: readonly Change[];
}

export interface WriteOptions {
  /**
   * Stamps the repair's changes: the server's clock (deps.clock). A fresh clock by default (tools
   * and tests); it observes every stamp of the rows it repairs first, so its stamps still win.
   */
  readonly clock?: ServerClock;
  /** Ids of the repair's new rows (default: UUID v7, newIdSource). */
  readonly newId?: () => string;
}

/**
 * Changes per write statement on Postgres: the server merges the next chunk
 * while Postgres writes one (ApplyOptions.writeChunk). Applying batches of
 * 500 new inspections, chunks of 50 and 100 measured alike and one chunk of
 * 500 (no overlap) about a fifth slower.
 */
export const postgresWriteChunk = 100;

export class UnknownOrganizationError extends Error {
  override name = "UnknownOrganizationError";
}

export async function writeTenant<T>(
  db: Db,
  organizationId: string,
  fn: (w: TenantWriter) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  const clock = options.clock ?? newServerClock();
  const newId = options.newId ?? newIdSource();
  const writeChunk = db.kind === "postgres" ? postgresWriteChunk : undefined;
  return db.transaction(async (tx) => {
    // Sent, not awaited: the function's first reads travel behind it (one round trip). The
    // database runs them in order, so they read only once the lock is held.
    const locked = tx.query<{ feed_seq: number }>(
      "select feed_seq from organizations where id = $1 for update",
      [organizationId],
    );
    const startSeq = locked.then(([org]) => {
      if (!org) throw new UnknownOrganizationError(`organization ${organizationId} does not exist`);
      return Number(org.feed_seq);
    });
    let seq: number | undefined;
    const ran = await Promise.allSettled([
      startSeq,
      fn({
        tx,
        async apply(changes, applyOptions) {
          // A check given as a promise (Push's facts, read ahead) is read by applyChanges; when
          // the lock failed (a lost connection) nothing reads it, and its rejection would go
          // unhandled and end the process. The same rejection still reaches applyChanges.
          if (applyOptions?.check instanceof Promise) applyOptions.check.catch(() => {});
          seq ??= await startSeq;
          const outcome = await applyChanges(tx, organizationId, changes, seq, {
            writeChunk,
            ...applyOptions,
          });
          seq = outcome.lastSeq;
          const repairs = await invariantRepairs(
            tx,
            organizationId,
            changes,
            outcome.results,
            clock,
            newId,
          );
          let written = outcome.written;
          if (repairs.length > 0) {
            const repaired = await applyChanges(tx, organizationId, repairs, seq, { writeChunk });
            seq = repaired.lastSeq;
            written = new Map([...written, ...repaired.written]);
          }
          // Then the rows the batch left pointing at a deleted hive or apiary (issue 25).
          const orphans = await orphanRepairs(
            tx,
            organizationId,
            changes,
            outcome.results,
            clock,
            newId,
          );
          if (orphans.length > 0) {
            const repaired = await applyChanges(tx, organizationId, orphans, seq, { writeChunk });
            seq = repaired.lastSeq;
            written = new Map([...written, ...repaired.written]);
          }
          if (repairs.length === 0 && orphans.length === 0) return { ...outcome, repairs };
          return { ...outcome, lastSeq: seq, written, repairs: [...repairs, ...orphans] };
        },
      }),
    ]);
    // The lock's failure (an unknown organization) comes first: the function ran without it.
    const [start, result] = ran;
    if (start.status === "rejected") throw start.reason;
    if (result.status === "rejected") throw result.reason;
    if (seq !== undefined && seq !== start.value) {
      // One statement (one round trip): a data-modifying WITH always runs.
      await tx.query(
        `with bump as (update organizations set feed_seq = $2 where id = $1)
         select pg_notify($3, $4)`,
        [organizationId, seq, feedChannel, `${organizationId}:${seq}`],
      );
    }
    return result.value;
  });
}

/**
 * The stored first answers of the Idempotency-Key header (migration 007, rpc/idempotency.ts):
 * found by tenant, owner, method and key while younger than `idempotencyKeyTtlMs`, and
 * forgotten after it (the sweep). Times are the server clock's (deps.clock), passed in.
 */
import type { Queryable } from "../db/db.ts";

/** How long a key's first answer is kept: 24 hours. */
export const idempotencyKeyTtlMs = 24 * 60 * 60 * 1000;

export interface IdempotencySlot {
  readonly organizationId: string;
  readonly ownerId: string;
  readonly method: string;
  readonly key: string;
}

export interface StoredAnswer {
  readonly fingerprint: string;
  /** The response message's JSON. */
  readonly response: string;
}

const slotParams = (s: IdempotencySlot) => [s.organizationId, s.ownerId, s.method, s.key];

/** The first answer to the slot's key, unless it is older than the TTL at `nowMs`. */
export async function findAnswer(
  q: Queryable,
  slot: IdempotencySlot,
  nowMs: number,
): Promise<StoredAnswer | undefined> {
  const [row] = await q.query<{ fingerprint: string; response: string }>(
    `select fingerprint, response from idempotency_keys
     where organization_id = $1 and owner_id = $2 and method = $3 and key = $4
       and created_at > $5`,
    [...slotParams(slot), new Date(nowMs - idempotencyKeyTtlMs)],
  );
  return row && { fingerprint: row.fingerprint, response: row.response };
}

/** Stores the first answer (over an expired one the sweep has not removed yet). */
export async function storeAnswer(
  q: Queryable,
  slot: IdempotencySlot,
  answer: StoredAnswer,
  nowMs: number,
): Promise<void> {
  await q.query(
    `insert into idempotency_keys
       (organization_id, owner_id, method, key, fingerprint, response, created_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (organization_id, owner_id, method, key) do update set
       fingerprint = excluded.fingerprint, response = excluded.response,
       created_at = excluded.created_at`,
    [...slotParams(slot), answer.fingerprint, answer.response, new Date(nowMs)],
  );
}

/** Forgets every key older than the TTL at `nowMs`; answers how many. */
export async function sweepIdempotencyKeys(q: Queryable, nowMs: number): Promise<number> {
  const rows = await q.query("delete from idempotency_keys where created_at <= $1 returning 1", [
    new Date(nowMs - idempotencyKeyTtlMs),
  ]);
  return rows.length;
}

/**
 * Takes the slot for this transaction, or answers false when another transaction (a request
 * with the same key still running, in any server process) holds it. A 64-bit hash of the slot:
 * two slots sharing one would only make one of them wait for a retry.
 */
export async function lockSlot(q: Queryable, slot: IdempotencySlot): Promise<boolean> {
  const [row] = await q.query<{ ok: boolean }>(
    "select pg_try_advisory_xact_lock(hashtextextended($1, 7114012)) as ok",
    [JSON.stringify(slotParams(slot))],
  );
  return row?.ok === true;
}

/**
 * Sign-in throttling: fixed-window counters in the database, so every server
 * process behind a load balancer counts the same attempts.
 *
 * - Every SignUp, Login and StartDemo counts against the client's address.
 * - Every failed Login counts against the email (known or not, so the limit
 *   tells nothing about which emails have accounts); a successful one clears it.
 *
 * Over the limit the call fails with `resource_exhausted`, a message saying
 * when to try again and a `Retry-After` header (seconds).
 */
import { RetryLaterError } from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";

export interface ThrottleLimits {
  readonly windowMs: number;
  /** Sign-in attempts (SignUp, Login, StartDemo) per client address per window. */
  readonly perAddress: number;
  /** Failed logins per email per window. */
  readonly perEmail: number;
}

export const defaultThrottle: ThrottleLimits = {
  windowMs: 15 * 60_000,
  perAddress: 100,
  perEmail: 10,
};

/**
 * An address is at most 45 characters (IPv6 with IPv4); what a client puts first in
 * X-Forwarded-For may be anything, so the key keeps a bounded prefix (a key must fit its index).
 */
const maxAddressLength = 100;
export const addressKey = (address: string) => `address:${address.slice(0, maxAddressLength)}`;
/** Of an email that passed the sign-up rules (rules.ts): at most 254 characters. */
export const emailKey = (email: string) => `email:${email.toLowerCase()}`;

function exhausted(retryMs: number): RetryLaterError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  return new RetryLaterError(`too many sign-in attempts; try again in ${seconds} s`, seconds);
}

/** Counts one attempt; throws `resource_exhausted` when it is over the limit. */
export async function countAttempt(
  q: Queryable,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const [row] = await q.query<{ attempts: number; retry_ms: number }>(
    `insert into auth_throttle as t (key, window_start, attempts) values ($1, now(), 1)
     on conflict (key) do update set
       window_start = case when t.window_start <= now() - $2 * interval '1 millisecond'
                           then now() else t.window_start end,
       attempts = case when t.window_start <= now() - $2 * interval '1 millisecond'
                       then 1 else t.attempts + 1 end
     returning t.attempts,
       (extract(epoch from (t.window_start - now())) * 1000 + $2)::float8 as retry_ms`,
    [key, windowMs],
  );
  if (Math.random() < 0.01) {
    await q.query(
      "delete from auth_throttle where window_start < now() - $1 * interval '1 millisecond'",
      [windowMs],
    );
  }
  if (row && Number(row.attempts) > limit) throw exhausted(Number(row.retry_ms));
}

/** Counts a sign-in attempt (SignUp, Login, StartDemo) against the client's address. */
export const countAddressAttempt = (
  q: Queryable,
  address: string,
  limits: ThrottleLimits,
): Promise<void> => countAttempt(q, addressKey(address), limits.perAddress, limits.windowMs);

/** Throws `resource_exhausted` when the key has used up its window, without counting. */
export async function checkAttempts(
  q: Queryable,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const [row] = await q.query<{ attempts: number; retry_ms: number }>(
    `select attempts, (extract(epoch from (window_start - now())) * 1000 + $2)::float8 as retry_ms
       from auth_throttle
      where key = $1 and window_start > now() - $2 * interval '1 millisecond'`,
    [key, windowMs],
  );
  if (row && Number(row.attempts) >= limit) throw exhausted(Number(row.retry_ms));
}

export async function clearAttempts(q: Queryable, key: string): Promise<void> {
  await q.query("delete from auth_throttle where key = $1", [key]);
}

/**
 * Sign-in throttling: fixed-window counters in the database, so every server
 * process behind a load balancer counts the same attempts.
 *
 * - Every SignUp, Login and StartDemo counts against the client's address
 *   (against spraying many emails from one address).
 * - Every Login counts against its (email, address) pair, before the password
 *   is checked, with the strict limit; a successful one clears its pair.
 * - Every Login the pair lets through also counts against the email from all
 *   addresses. Past that limit only addresses that have not failed for the
 *   email in this window get an attempt: a stranger who knows the email
 *   cannot lock its owner out, while guessing from many addresses costs an
 *   address per guess (docs/decisions.md, issue 27).
 *
 * Each count is one statement that increments and returns the new count, so
 * parallel attempts each see their own number (no read-then-write race).
 * Known and unknown emails are counted alike, so the limits tell nothing
 * about which emails have accounts. Over a limit the call fails with
 * `resource_exhausted`, a message saying when to try again and a
 * `Retry-After` header (seconds).
 */
import { RetryLaterError } from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";
import { addressGroup } from "./address-group.ts";

export interface ThrottleLimits {
  readonly windowMs: number;
  /** Sign-in attempts (SignUp, Login, StartDemo) per client address per window. */
  readonly perAddress: number;
  /** Login attempts on one email from one client address per window (a success clears them). */
  readonly perEmail: number;
  /**
   * Login attempts on one email from all addresses per window; past it, an address that has
   * already failed for the email in this window waits, a fresh one still gets its attempt.
   */
  readonly perEmailAllAddresses: number;
}

export const defaultThrottle: ThrottleLimits = {
  windowMs: 15 * 60_000,
  perAddress: 100,
  perEmail: 10,
  perEmailAllAddresses: 10,
};

/**
 * An address counts with its group (an IPv6 address with its /64, address-group.ts). What a
 * proxy forwards may be anything, so the key keeps a bounded prefix (a key must fit its index).
 */
const maxAddressLength = 100;
const boundedAddress = (address: string) => addressGroup(address).slice(0, maxAddressLength);
export const addressKey = (address: string) => `address:${boundedAddress(address)}`;
/** Of an email that passed the sign-up rules (rules.ts): at most 254 characters. */
export const emailKey = (email: string) => `email:${email.toLowerCase()}`;
/**
 * Logins on one email from one address. The email (no whitespace, rules.ts) comes first and
 * ends at the first space, so no other email and address give the same key.
 */
export const emailAddressKey = (email: string, address: string) =>
  `login:${email.toLowerCase()} ${boundedAddress(address)}`;

function exhausted(retryMs: number): RetryLaterError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  return new RetryLaterError(`too many sign-in attempts; try again in ${seconds} s`, seconds);
}

interface Counted {
  /** Attempts in the window, this one included. */
  readonly attempts: number;
  /** Until the window ends. */
  readonly retryMs: number;
}

/**
 * Counts one attempt against the key and answers the new count: one statement, so attempts
 * in parallel each get their own number, on PGlite and Postgres alike.
 */
async function bump(q: Queryable, key: string, windowMs: number): Promise<Counted> {
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
  return { attempts: Number(row?.attempts ?? 1), retryMs: Number(row?.retry_ms ?? windowMs) };
}

/** Counts one attempt; throws `resource_exhausted` when it is over the limit. */
export async function countAttempt(
  q: Queryable,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const counted = await bump(q, key, windowMs);
  if (counted.attempts > limit) throw exhausted(counted.retryMs);
}

/** Counts a sign-in attempt (SignUp, Login, StartDemo) against the client's address. */
export const countAddressAttempt = (
  q: Queryable,
  address: string,
  limits: ThrottleLimits,
): Promise<void> => countAttempt(q, addressKey(address), limits.perAddress, limits.windowMs);

/**
 * Counts a Login on `email` from `address` before its password is checked; throws
 * `resource_exhausted` when the pair is over its limit, or when the email is over its limit
 * from all addresses and this address has already failed for it in this window (a success
 * clears the pair, so an earlier attempt still counted is a failure, or one still running).
 */
export async function countLoginAttempt(
  q: Queryable,
  email: string,
  address: string,
  limits: ThrottleLimits,
): Promise<void> {
  const { windowMs } = limits;
  const pair = await bump(q, emailAddressKey(email, address), windowMs);
  if (pair.attempts > limits.perEmail) throw exhausted(pair.retryMs);
  // Only attempts the pair let through count for the email: one address alone adds at most
  // its own limit, so it cannot put the email over the limit of all addresses by itself.
  const all = await bump(q, emailKey(email), windowMs);
  if (all.attempts > limits.perEmailAllAddresses && pair.attempts > 1) {
    throw exhausted(Math.min(pair.retryMs, all.retryMs));
  }
}

/**
 * After a successful Login: the attempts of this address on the email were its owner's (it
 * knew the password), so its pair is cleared and the email gets back what the pair had added
 * to it (at most the pair's limit: the pair refused the rest before they reached the email).
 * One statement, so a success racing another from the same address gives back once.
 */
export async function loginSucceeded(
  q: Queryable,
  email: string,
  address: string,
  limits: ThrottleLimits,
): Promise<void> {
  await q.query(
    `with cleared as (
       delete from auth_throttle where key = $1
       returning attempts, window_start
     )
     update auth_throttle set attempts = greatest(attempts - coalesce(
         (select least(attempts, $3) from cleared
           where window_start > now() - $4 * interval '1 millisecond'), 0), 0)
      where key = $2 and window_start > now() - $4 * interval '1 millisecond'`,
    [emailAddressKey(email, address), emailKey(email), limits.perEmail, limits.windowMs],
  );
}

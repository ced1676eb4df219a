/**
 * Sign-in throttling under attack (issue 27, findings 1 and 6): attempts are counted before the
 * password is checked, so a parallel burst gets no more guesses than the limit; and the limit of
 * an email across addresses bars only addresses that have failed for it, so a stranger who
 * knows the email cannot lock its owner out. Each test speaks from its own addresses (the
 * server trusts X-Forwarded-For), so the tests share one server without sharing counters.
 */
import { describe, expect, it } from "vitest";
import { loginEnv, signUp, uniqueEmail } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { useTestServer } from "../support/fixtures.ts";
import type { TestServer } from "../support/server.ts";

// Small email limits: every checked attempt costs a scrypt, and the machine is shared.
const limits = { windowMs: 60_000, perAddress: 60, perEmail: 3, perEmailAllAddresses: 3 };

async function from(t: TestServer, address: string, method: string, body: unknown) {
  const res = await fetch(`${t.url}/hivekeep.v1.AuthService/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify(body),
  });
  const reply = (await res.json()) as { code?: string; message?: string; sessionToken?: string };
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: reply };
}

const login = (t: TestServer, address: string, email: string, password: string) =>
  from(t, address, "Login", { email, password });

const inParallel = <T>(n: number, f: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => f(i)));

const statuses = (replies: readonly { status: number }[]) => {
  const seen: Record<number, number> = {};
  for (const r of replies) seen[r.status] = (seen[r.status] ?? 0) + 1;
  return seen;
};

/** A distinct address per test and role (TEST-NET-2, RFC 5737). */
let nextHost = 1;
const freshAddress = () => `198.51.100.${nextHost++}`;

describe.each(databaseKinds)("sign-in throttle under attack on %s", (kind) => {
  const t = useTestServer(
    kind,
    { ...loginEnv, HIVEKEEP_TRUST_PROXY: "true" },
    { throttle: limits },
  );

  it("50 parallel wrong passwords from one address: the limit is checked, the rest wait", async () => {
    const a = await signUp(t);
    const attacker = freshAddress();
    const replies = await inParallel(50, (i) => login(t, attacker, a.email, `wrong ${i}`));
    expect(statuses(replies)).toEqual({ 401: 3, 429: 47 });
    for (const r of replies.filter((r) => r.status === 429)) {
      expect(r.body.code).toBe("resource_exhausted");
      expect(r.body.message).toMatch(/^too many sign-in attempts; try again in \d+ s$/);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
    expect((await login(t, attacker, a.email, a.password)).status).toBe(429);
  });

  it("a right password inside a parallel burst gets no session past the limit", async () => {
    const a = await signUp(t);
    const attacker = freshAddress();
    const first = await inParallel(2, (i) => login(t, attacker, a.email, `wrong ${i}`));
    expect(statuses(first)).toEqual({ 401: 2 });
    // One attempt is left for this address: of the 41 sent at once, one is checked.
    const burst = inParallel(40, (i) => login(t, attacker, a.email, `guess ${i}`));
    const right = login(t, attacker, a.email, a.password);
    const replies = [...(await burst), await right];
    expect(replies.filter((r) => r.status !== 429)).toHaveLength(1);
    expect(replies.filter((r) => r.body.sessionToken !== undefined).length).toBeLessThanOrEqual(1);
  });

  it("after a stranger used up the email's limit, its owner logs in from another address", async () => {
    const a = await signUp(t);
    const stranger = freshAddress();
    const guesses = await inParallel(3, (i) => login(t, stranger, a.email, `wrong ${i}`));
    expect(statuses(guesses)).toEqual({ 401: 3 });
    expect((await login(t, stranger, a.email, "wrong again")).status).toBe(429);
    // The owner, from an address that has not failed, gets in; the stranger's does not.
    const owner = freshAddress();
    const signedIn = await login(t, owner, a.email, a.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.sessionToken).toMatch(/^hks_/);
    expect((await login(t, stranger, a.email, a.password)).status).toBe(429);
    // Signing in again from there works too: a success clears its address's attempts.
    expect((await login(t, owner, a.email, a.password)).status).toBe(200);
  });

  it("past the email's limit of all addresses, an address that failed waits, a fresh one gets its attempt", async () => {
    const a = await signUp(t);
    const many = Array.from({ length: 5 }, freshAddress);
    // One guess each: 5 on the email in all, over its limit of 3; each address had none before.
    for (const address of many) {
      expect((await login(t, address, a.email, "guess")).status).toBe(401);
    }
    // Each of them has failed: it waits, although it used 1 of its own 3.
    for (const address of many.slice(0, 2)) {
      const r = await login(t, address, a.email, a.password);
      expect(r.status).toBe(429);
      expect(r.body.message).toMatch(/^too many sign-in attempts; try again in \d+ s$/);
    }
    // A fresh address sending a burst gets one attempt, not three.
    const fresh = freshAddress();
    const burst = await inParallel(5, (i) => login(t, fresh, a.email, `guess ${i}`));
    expect(statuses(burst)).toEqual({ 401: 1, 429: 4 });
    // An unknown email is treated the same way.
    const nobody = uniqueEmail("nobody");
    const seen = [];
    for (const address of [...many, fresh])
      seen.push((await login(t, address, nobody, "x")).status);
    expect(seen).toEqual(Array(6).fill(401));
    expect((await login(t, many[0] as string, nobody, "x")).status).toBe(429);
    // The owner still gets in from an address of its own.
    expect((await login(t, freshAddress(), a.email, a.password)).status).toBe(200);
  });

  it("one address spraying many emails stops at its own limit, in parallel too", async () => {
    const sprayer = freshAddress();
    // StartDemo counts like a Login (and fails at once here: demo sessions are off).
    const demos = inParallel(57, () => from(t, sprayer, "StartDemo", {}));
    const logins = inParallel(3, () => login(t, sprayer, uniqueEmail("sprayed"), "Winter2026"));
    const replies = [...(await demos), ...(await logins)];
    expect(replies.filter((r) => r.status === 429)).toHaveLength(0);
    const over = await inParallel(5, () => login(t, sprayer, uniqueEmail("sprayed"), "x"));
    expect(statuses(over)).toEqual({ 429: 5 });
  });
});

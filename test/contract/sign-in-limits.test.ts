/**
 * Sign-in throttling (DESIGN.md §5): attempts are counted per client address
 * and failed logins per email, in the database (so every server process
 * counts the same), and over the limit the answer is resource_exhausted with
 * a Retry-After hint. Unknown emails are throttled exactly like known ones.
 */
import { describe, expect, it } from "vitest";
import { loginEnv, signUp, uniqueEmail } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { callOk, expectError, useTestServer } from "../support/fixtures.ts";
import type { TestServer } from "../support/server.ts";

async function loginRaw(t: TestServer, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/hivekeep.v1.AuthService/Login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const reply = (await res.json()) as { code?: string; message: string };
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: reply };
}

describe.each(databaseKinds)("sign-in limits on %s", (kind) => {
  describe("per email", () => {
    const t = useTestServer(kind, loginEnv, {
      throttle: { windowMs: 60_000, perAddress: 10_000, perEmail: 3, perEmailAllAddresses: 3 },
    });

    it("after 3 failed logins even the right password waits, with a retry hint", async () => {
      const a = await signUp(t);
      for (let i = 0; i < 3; i++) {
        const r = await loginRaw(t, { email: a.email, password: `wrong ${i}` });
        expect(r.status).toBe(401);
      }
      const limited = await loginRaw(t, { email: a.email.toUpperCase(), password: a.password });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe("resource_exhausted");
      expect(limited.body.message).toMatch(/^too many sign-in attempts; try again in \d+ s$/);
      const seconds = Number(limited.retryAfter);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
      // The session that existed keeps working; only signing in waits.
      await callOk(a.t, "ApiaryService/ListApiaries", {});
      // Another email is not affected.
      const b = await signUp(t);
      await callOk(t, "AuthService/Login", { email: b.email, password: b.password });
    });

    it("an unknown email is throttled exactly like a known one", async () => {
      const known = await signUp(t);
      const unknown = uniqueEmail("nobody");
      const seen = [];
      for (const email of [known.email, unknown]) {
        const replies = [];
        for (let i = 0; i < 4; i++) {
          const r = await loginRaw(t, { email, password: "guess" });
          replies.push([r.status, r.body.code, r.body.message.replace(/\d+ s$/, "N s")]);
        }
        seen.push(replies);
      }
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[0]?.map((r) => r[0])).toEqual([401, 401, 401, 429]);
    });

    it("a successful login clears the failures of its email", async () => {
      const a = await signUp(t);
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 2; i++) {
          expect((await loginRaw(t, { email: a.email, password: "wrong" })).status).toBe(401);
        }
        expect((await loginRaw(t, { email: a.email, password: a.password })).status).toBe(200);
      }
    });

    it("the window ends", async () => {
      const a = await signUp(t);
      for (let i = 0; i < 3; i++) await loginRaw(t, { email: a.email, password: "wrong" });
      expect((await loginRaw(t, { email: a.email, password: a.password })).status).toBe(429);
      // Every counter of this email: from all addresses, and from this one.
      await t.server.db.query(
        "update auth_throttle set window_start = now() - interval '61 seconds' where key = $1 or key like $2",
        [`email:${a.email.toLowerCase()}`, `login:${a.email.toLowerCase()} %`],
      );
      expect((await loginRaw(t, { email: a.email, password: a.password })).status).toBe(200);
    });
  });

  describe("per address", () => {
    const t = useTestServer(kind, loginEnv, {
      throttle: { windowMs: 60_000, perAddress: 4, perEmail: 100, perEmailAllAddresses: 100 },
    });

    it("SignUp, Login and StartDemo all count; the fifth attempt waits", async () => {
      const a = await signUp(t);
      await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
      expectError(await t.call("AuthService/Login", { email: a.email, password: "no" }), 401);
      expectError(await t.call("AuthService/StartDemo", {}), 400);
      const limited = expectError(
        await t.call("AuthService/SignUp", {
          email: uniqueEmail(),
          password: "long enough",
          organizationName: "Late",
        }),
        429,
      );
      expect(limited.code).toBe("resource_exhausted");
      expectError(await t.call("AuthService/Login", { email: a.email, password: a.password }), 429);
      // Requests with a token are not sign-in attempts.
      await callOk(a.t, "ApiaryService/ListApiaries", {});
      // X-Forwarded-For is not trusted unless HIVEKEEP_TRUST_PROXY says so.
      const forwarded = await loginRaw(
        t,
        { email: a.email, password: a.password },
        { "x-forwarded-for": "203.0.113.9" },
      );
      expect(forwarded.status).toBe(429);
    });
  });

  describe("an email that cannot be an account's", () => {
    const t = useTestServer(kind, loginEnv, {
      throttle: { windowMs: 60_000, perAddress: 3, perEmail: 100, perEmailAllAddresses: 100 },
    });

    it("is answered like a wrong password before anything is counted", async () => {
      const a = await signUp(t);
      for (const email of [
        "",
        "not an email",
        `${"x".repeat(3_000)}@example.org`,
        "a\u0000@b.org",
      ]) {
        const r = expectError(await t.call("AuthService/Login", { email, password: "guess" }), 401);
        expect(r).toEqual({ code: "unauthenticated", message: "email or password is wrong" });
      }
      // The sign-up counted once; two attempts are left.
      await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
      await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
      expectError(await t.call("AuthService/Login", { email: a.email, password: a.password }), 429);
    });
  });

  describe("behind a trusted proxy", () => {
    const t = useTestServer(
      kind,
      { ...loginEnv, HIVEKEEP_TRUST_PROXY: "true" },
      { throttle: { windowMs: 60_000, perAddress: 2, perEmail: 100, perEmailAllAddresses: 100 } },
    );

    it("counts each forwarded client address on its own", async () => {
      const a = await signUp(t);
      // The proxy adds the address it sees last; what comes before, the client wrote.
      const as = (ip: string, forged = "203.0.113.7") =>
        loginRaw(
          t,
          { email: a.email, password: a.password },
          { "x-forwarded-for": `${forged}, ${ip}` },
        );
      expect((await as("198.51.100.1")).status).toBe(200);
      expect((await as("198.51.100.1", "203.0.113.8")).status).toBe(200);
      expect((await as("198.51.100.1", "203.0.113.9")).status).toBe(429);
      expect((await as("198.51.100.2")).status).toBe(200);
    });

    it("counts the addresses of one IPv6 /64 together", async () => {
      const a = await signUp(t);
      const as = (ip: string) =>
        loginRaw(t, { email: a.email, password: a.password }, { "x-forwarded-for": ip });
      expect((await as("2001:db8:5:6::1")).status).toBe(200);
      expect((await as("2001:db8:5:6::2")).status).toBe(200);
      expect((await as("2001:db8:5:6:ffff::3")).status).toBe(429);
      expect((await as("2001:db8:5:7::1")).status).toBe(200);
    });
  });
});

/**
 * Bad input to AuthService (issue 13), on every database: every string field of every request,
 * sent with a NUL (U+0000) and a 100,000-character value (60,000 for a sign-in method, whose
 * request is at most 64 KiB; the other fields valid; a lone
 * surrogate is refused by the JSON parser already), answers a Connect error with the field's code (never `internal`), quotes at most a short
 * prefix of what was sent, and writes nothing. The fields are enumerated from the proto
 * descriptors, so a new field without a row here fails.
 *
 * - An id gets the shape check Push uses (`isEntityId`): a malformed one is unknown, `not_found`.
 * - A stored text (an email, a name) passes the text rules of a pushed change (`isStorableText`).
 * - Login answers every email that cannot be an account's as it answers a wrong password,
 *   before anything touches the database.
 * - A token is only ever hashed: a bad one is unknown.
 */
import { randomBytes } from "node:crypto";
import { AuthService } from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Account,
  invite,
  loginEnv,
  relaxedThrottle,
  signUp,
  uniqueEmail,
} from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { useTestServer } from "../support/fixtures.ts";
import type { TestServer } from "../support/server.ts";

const badValues: [string, string][] = [
  ["NUL", "bad\u0000value"],
  ["100,000 characters", "x".repeat(100_000)],
];

/** `<Method> <field>` → the code a bad value answers (password: see `password`). */
const expected: Record<string, string> = {
  "SignUp email": "invalid_argument",
  "SignUp password": "password",
  "SignUp organizationName": "invalid_argument",
  "SignUp invitationToken": "failed_precondition",
  "Login email": "unauthenticated",
  "Login password": "unauthenticated",
  "Login invitationToken": "failed_precondition",
  "Login organizationId": "not_found",
  "SwitchOrganization organizationId": "not_found",
  "CreateApiKey name": "invalid_argument",
  "RevokeApiKey id": "not_found",
  "CreateInvitation email": "invalid_argument",
  "RevokeInvitation id": "not_found",
  "RemoveMember userId": "not_found",
};

/** The methods called before sign-in, whose whole request is at most 64 KiB. */
const signInMethods = new Set(["SignUp", "Login", "StartDemo"]);

const stringFields = AuthService.methods.flatMap((m) =>
  m.input.fields
    .filter((f) => f.fieldKind === "scalar" && f.scalar === 9 /* string */)
    .map((f) => `${m.name} ${f.localName}`),
);

const tables = ["users", "organizations", "memberships", "sessions", "api_keys", "invitations"];

describe.each(databaseKinds)("AuthService bad input on %s", (kind) => {
  const t = useTestServer(kind, loginEnv, { throttle: relaxedThrottle });
  let owner: Account;
  beforeAll(async () => {
    owner = await signUp(t);
  });

  it("has a row for every string field of every request", () => {
    expect(stringFields.sort()).toEqual(Object.keys(expected).sort());
  });

  /** A valid request of the method, and the server view to send it with. */
  function validRequest(method: string): { t: TestServer; body: Record<string, unknown> } {
    switch (method) {
      case "SignUp":
        return {
          t,
          body: { email: uniqueEmail(), password: "correct horse battery", organizationName: "O" },
        };
      case "Login":
        return { t, body: { email: owner.email, password: owner.password } };
      default:
        return { t: owner.t, body: {} };
    }
  }

  const counts = async () =>
    Promise.all(
      tables.map(
        async (table) =>
          (await t.server.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]?.n,
      ),
    );

  it.each(Object.keys(expected))("%s: a bad value is the caller's error", async (field) => {
    const [method = "", name = ""] = field.split(" ");
    for (const [what, badValue] of badValues) {
      // A sign-in request is read up to 64 KiB (auth-edge.test.ts): its long value stays within.
      const value = signInMethods.has(method) ? badValue.slice(0, 60_000) : badValue;
      const { t: as, body } = validRequest(method);
      // A sign-up with a bad password creates an account (or not) on its own email.
      const before = field === "SignUp password" ? undefined : await counts();
      const r = await as.call(`AuthService/${method}`, { ...body, [name]: value });
      const code = expected[field];
      if (code === "password") {
        // A password is hashed, never stored: any text is one, up to 1,024 characters.
        if (value.length > 1024) expect(r.body.code, what).toBe("invalid_argument");
        else expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(200);
        continue;
      }
      expect(r.status, `${what}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(500);
      expect(Object.keys(r.body).sort()).toEqual(["code", "message"]);
      expect(r.body.code, what).toBe(code);
      expect(r.body.message.length, what).toBeLessThan(300);
      // Nothing written, but what a failed sign-in counts (sessions of Login are not made).
      expect(await counts(), what).toEqual(before);
    }
  });

  it("a 3,000-character email never reaches the throttle table", async () => {
    // Random, so that it does not compress into the index.
    const email = `${randomBytes(1_500).toString("hex")}@example.org`;
    const r = await t.call("AuthService/Login", { email, password: "whatever it is" });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ code: "unauthenticated", message: "email or password is wrong" });
    const rows = await t.server.db.query("select key from auth_throttle where length(key) > 300");
    expect(rows).toEqual([]);
  });

  it("a malformed member, key or invitation id is not_found, well-formed unknown ones too", async () => {
    const invited = await invite(owner);
    expect(invited.token).toMatch(/^hki_[A-Za-z0-9_-]{43}$/);
    for (const [method, body] of [
      ["RemoveMember", { userId: "no-such-user" }],
      ["RevokeApiKey", { id: "no-such-key" }],
      ["RevokeInvitation", { id: "no-such-invitation" }],
      ["RevokeInvitation", { id: "01890000-0000-7000-8000-000000000000" }],
    ] as const) {
      const r = await owner.t.call(`AuthService/${method}`, body);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("not_found");
    }
  });

  it("RevokeInvitation: an empty id is invalid_argument, another organization's not_found, a member's call permission_denied", async () => {
    const inv = await invite(owner);
    const invitations = (await owner.t.call("AuthService/ListInvitations", {})).body.invitations;
    const id = invitations.find((i: { email: string }) => i.email === inv.email).id;
    const empty = await owner.t.call("AuthService/RevokeInvitation", { id: "" });
    expect(empty.body.code).toBe("invalid_argument");
    const stranger = await signUp(t);
    const foreign = await stranger.t.call("AuthService/RevokeInvitation", { id });
    expect(foreign.body).toEqual({ code: "not_found", message: `invitation "${id}" not found` });
    const other = await invite(owner);
    const member = await signUp(t, { email: other.email, invitationToken: other.token });
    const denied = await member.t.call("AuthService/RevokeInvitation", { id });
    expect(denied.body.code).toBe("permission_denied");
    // All three left it open.
    const after = (await owner.t.call("AuthService/ListInvitations", {})).body.invitations;
    expect(after.map((i: { id: string }) => i.id)).toContain(id);
  });
});

describe.each(databaseKinds)("a forwarded client address on %s", (kind) => {
  const t = useTestServer(
    kind,
    { ...loginEnv, HIVEKEEP_TRUST_PROXY: "true" },
    { throttle: relaxedThrottle },
  );

  it("of 3,000 characters is counted, not a 500", async () => {
    const r = await t.call(
      "AuthService/Login",
      { email: uniqueEmail(), password: "whatever it is" },
      { "x-forwarded-for": randomBytes(1_500).toString("hex") },
    );
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("unauthenticated");
  });
});

/**
 * Hosted mode (HIVEKEEP_AUTH=login, contract §5, DESIGN.md §5): accounts,
 * sessions, API keys, invitations, members, sign-in throttling, and the
 * bearer token on every request. Single-user mode is covered at the end.
 */

import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { SyncService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import {
  type Account,
  invite,
  loginEnv,
  relaxedThrottle,
  signUp,
  uniqueEmail,
} from "../support/accounts.ts";
import { databaseKinds, lastingDatabase } from "../support/databases.ts";
import { callOk, expectError, newApiary, useTestServer } from "../support/fixtures.ts";
import { startTestServer } from "../support/server.ts";

const readsAndWrites: [string, Record<string, unknown>][] = [
  ["ApiaryService/ListApiaries", {}],
  ["ApiaryService/CreateApiary", { name: "x" }],
  ["SyncService/Pull", { cursor: "" }],
  ["AuthService/WhoAmI", {}],
  ["AuthService/CreateApiKey", { name: "k" }],
  ["StatsService/GetDashboard", {}],
];

describe.each(databaseKinds)("hosted mode on %s", (kind) => {
  const t = useTestServer(kind, loginEnv, { throttle: relaxedThrottle });

  describe("bearer tokens", () => {
    it.each(readsAndWrites)("%s without a token is unauthenticated (401)", async (path, body) => {
      const e = expectError(await t.call(path, body), 401);
      expect(e.code).toBe("unauthenticated");
      expect(e.message).toMatch(/Authorization: Bearer/);
    });

    it.each([
      ["an unknown session token", "Bearer hks_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
      ["an unknown API key", "Bearer hk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
      ["a token of no known kind", "Bearer something-else"],
      ["another scheme", "Basic dXNlcjpwYXNz"],
      ["an empty bearer", "Bearer "],
    ])("%s is unauthenticated", async (_what, header) => {
      const r = await t.call("ApiaryService/ListApiaries", {}, { authorization: header });
      expect(expectError(r, 401).code).toBe("unauthenticated");
    });

    it("works over the binary protocol too, and a stream checks it before it starts", async () => {
      const a = await signUp(t);
      const apiary = await newApiary(a.t, "Binary");
      const sync = a.t.client(SyncService);
      const pulled = await sync.pull({ cursor: "" });
      expect(pulled.changes.some((c) => c.entityId === apiary)).toBe(true);
      const anonymous = createClient(
        SyncService,
        createConnectTransport({ baseUrl: t.url, httpVersion: "1.1" }),
      );
      await expect(anonymous.pull({ cursor: "" })).rejects.toMatchObject({ code: 16 });
      const stream = anonymous.subscribe({ cursor: "" });
      await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: 16 });
    });
  });

  describe("SignUp, Login, Logout, WhoAmI", () => {
    it("SignUp creates an organization, its owner and a session", async () => {
      const email = uniqueEmail("Owner");
      const r = await callOk(t, "AuthService/SignUp", {
        email,
        password: "a long password",
        organizationName: "  Heather Hill Apiaries ",
      });
      expect(r.sessionToken).toMatch(/^hks_[A-Za-z0-9_-]{43}$/);
      expect(r.user).toEqual({ id: expect.any(String), email });
      expect(r.organization).toEqual({ id: expect.any(String), name: "Heather Hill Apiaries" });
      const ttl = Date.parse(r.expiresAt) - Date.now();
      expect(ttl).toBeGreaterThan(719 * 3_600_000);
      expect(ttl).toBeLessThanOrEqual(720 * 3_600_000);
      const me = await callOk(t.as(r.sessionToken), "AuthService/WhoAmI", {});
      expect(me).toEqual({
        user: r.user,
        organization: r.organization,
        role: "ROLE_OWNER",
        authMode: "AUTH_MODE_LOGIN",
        organizations: [r.organization],
      });
    });

    it.each([
      [{ email: "not-an-email", password: "long enough", organizationName: "O" }, /email/],
      [{ email: "a@example.org", password: "short", organizationName: "O" }, /at least 8/],
      [{ email: "b@example.org", password: "x".repeat(1025), organizationName: "O" }, /at most/],
      [{ email: "c@example.org", password: "long enough", organizationName: "  " }, /organization/],
      [{ email: "c@example.org", password: "long enough" }, /organizationName/],
    ])("SignUp %j is invalid_argument", async (body, message) => {
      const e = expectError(await t.call("AuthService/SignUp", body), 400);
      expect(e.code).toBe("invalid_argument");
      expect(e.message).toMatch(message);
    });

    it("SignUp of a taken email (any case) is already_exists and creates nothing", async () => {
      const a = await signUp(t);
      const before = await t.server.db.query("select count(*)::int as n from organizations");
      const e = expectError(
        await t.call("AuthService/SignUp", {
          email: a.email.toUpperCase(),
          password: "another password",
          organizationName: "Second",
        }),
        409,
      );
      expect(e.code).toBe("already_exists");
      expect(await t.server.db.query("select count(*)::int as n from organizations")).toEqual(
        before,
      );
    });

    it("Login answers a new session; a wrong password and an unknown email look the same", async () => {
      const a = await signUp(t);
      const r = await callOk(t, "AuthService/Login", {
        email: ` ${a.email.toUpperCase()} `,
        password: a.password,
      });
      expect(r.sessionToken).not.toBe(a.token);
      expect(r.user.id).toBe(a.userId);
      expect(r.organization.id).toBe(a.organizationId);
      await callOk(t.as(r.sessionToken), "ApiaryService/ListApiaries", {});

      const wrong = expectError(
        await t.call("AuthService/Login", { email: a.email, password: "not it at all" }),
        401,
      );
      const unknown = expectError(
        await t.call("AuthService/Login", { email: uniqueEmail(), password: "not it at all" }),
        401,
      );
      const empty = expectError(await t.call("AuthService/Login", {}), 401);
      expect(wrong).toEqual({ code: "unauthenticated", message: "email or password is wrong" });
      expect(unknown).toEqual(wrong);
      expect(empty).toEqual(wrong);
    });

    it("Logout revokes only this session, at once", async () => {
      const a = await signUp(t);
      const second = await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
      expect(await callOk(a.t, "AuthService/Logout", {})).toEqual({});
      expect(expectError(await a.t.call("ApiaryService/ListApiaries", {}), 401).code).toBe(
        "unauthenticated",
      );
      expectError(await a.t.call("AuthService/Logout", {}), 401);
      await callOk(t.as(second.sessionToken), "ApiaryService/ListApiaries", {});
    });

    it("an expired session is unauthenticated", async () => {
      const a = await signUp(t);
      await callOk(a.t, "ApiaryService/ListApiaries", {});
      await t.server.db.query(
        "update sessions set expires_at = now() - interval '1 second' where user_id = $1",
        [a.userId],
      );
      expect(expectError(await a.t.call("ApiaryService/ListApiaries", {}), 401).code).toBe(
        "unauthenticated",
      );
    });

    it("secrets are stored only as hashes, passwords with scrypt", async () => {
      const a = await signUp(t);
      const key = await callOk(a.t, "AuthService/CreateApiKey", { name: "scale" });
      const inv = await invite(a);
      const dump = JSON.stringify([
        await t.server.db.query("select * from users where id = $1", [a.userId]),
        await t.server.db.query("select * from sessions where user_id = $1", [a.userId]),
        await t.server.db.query("select * from api_keys where user_id = $1", [a.userId]),
        await t.server.db.query("select * from invitations where created_by = $1", [a.userId]),
      ]);
      for (const secret of [a.password, a.token, key.apiKey, inv.token]) {
        expect(dump).not.toContain(secret);
        expect(dump).not.toContain(secret.slice(8));
      }
      const [user] = await t.server.db.query<{ password_hash: string }>(
        "select password_hash from users where id = $1",
        [a.userId],
      );
      expect(user?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    });
  });

  describe("API keys", () => {
    it("CreateApiKey shows the secret once; the key works like a session; ListApiKeys shows no secret", async () => {
      const a = await signUp(t);
      const created = await callOk(a.t, "AuthService/CreateApiKey", { name: " Scale 1 " });
      expect(created.apiKey).toMatch(/^hk_[A-Za-z0-9_-]{43}$/);
      expect(created.key).toEqual({
        id: expect.any(String),
        name: "Scale 1",
        prefix: created.apiKey.slice(0, 9),
        createdAt: expect.any(String),
        user: { id: a.userId, email: a.email },
      });
      const listed = await callOk(a.t, "AuthService/ListApiKeys", {});
      expect(listed.keys).toEqual([created.key]);
      expect(JSON.stringify(listed)).not.toContain(created.apiKey.slice(9));

      const scale = t.as(created.apiKey);
      const apiary = await newApiary(scale, "Posted by the scale");
      const seen = await callOk(a.t, "ApiaryService/GetApiary", { id: apiary });
      expect(seen.apiary.name).toBe("Posted by the scale");
      const [used] = (await callOk(a.t, "AuthService/ListApiKeys", {})).keys;
      expect(Date.parse(used.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(used.createdAt));
      expect((await callOk(scale, "AuthService/WhoAmI", {})).user.id).toBe(a.userId);
    });

    it("RevokeApiKey stops the key at once; unknown and others' keys are not_found", async () => {
      const a = await signUp(t);
      const created = await callOk(a.t, "AuthService/CreateApiKey", { name: "old" });
      const b = await signUp(t);
      const foreign = expectError(
        await b.t.call("AuthService/RevokeApiKey", { id: created.key.id }),
        404,
      );
      expect(foreign.code).toBe("not_found");
      await callOk(t.as(created.apiKey), "ApiaryService/ListApiaries", {});
      expect(await callOk(a.t, "AuthService/RevokeApiKey", { id: created.key.id })).toEqual({});
      expect(
        expectError(await t.as(created.apiKey).call("ApiaryService/ListApiaries", {}), 401).code,
      ).toBe("unauthenticated");
      expect((await callOk(a.t, "AuthService/ListApiKeys", {})).keys).toBeUndefined();
      expectError(await a.t.call("AuthService/RevokeApiKey", { id: created.key.id }), 404);
      expectError(await a.t.call("AuthService/RevokeApiKey", { id: "" }), 400);
    });

    it("CreateApiKey needs a name", async () => {
      const a = await signUp(t);
      expect(expectError(await a.t.call("AuthService/CreateApiKey", { name: " " }), 400).code).toBe(
        "invalid_argument",
      );
    });

    it("Logout with an API key is failed_precondition and leaves the key working", async () => {
      const a = await signUp(t);
      const { apiKey } = await callOk(a.t, "AuthService/CreateApiKey", { name: "k" });
      expectError(await t.as(apiKey).call("AuthService/Logout", {}), 400);
      await callOk(t.as(apiKey), "ApiaryService/ListApiaries", {});
    });
  });

  describe("invitations and members", () => {
    async function team(): Promise<{ owner: Account; member: Account }> {
      const owner = await signUp(t, { organizationName: "Team" });
      const inv = await invite(owner);
      const member = await signUp(t, { email: inv.email, invitationToken: inv.token });
      return { owner, member };
    }

    it("an invited person signs up into the inviting organization as a member", async () => {
      const owner = await signUp(t, { organizationName: "Linden Bees" });
      const email = uniqueEmail("helper");
      const r = await callOk(owner.t, "AuthService/CreateInvitation", {
        email,
        role: "ROLE_MEMBER",
      });
      expect(r.invitation).toEqual({
        id: expect.any(String),
        email,
        role: "ROLE_MEMBER",
        token: expect.stringMatching(/^hki_/),
        expiresAt: expect.any(String),
      });
      const apiary = await newApiary(owner.t, "Shared");
      const member = await signUp(t, {
        email: email.toUpperCase(),
        invitationToken: r.invitation.token,
        organizationName: "",
      });
      expect(member.organizationId).toBe(owner.organizationId);
      const me = await callOk(member.t, "AuthService/WhoAmI", {});
      expect(me.role).toBe("ROLE_MEMBER");
      expect(me.organization.name).toBe("Linden Bees");
      expect((await callOk(member.t, "ApiaryService/GetApiary", { id: apiary })).apiary.name).toBe(
        "Shared",
      );
      const members = await callOk(member.t, "AuthService/ListMembers", {});
      expect(
        members.members.map((m: { user: { id: string }; role: string }) => [m.user.id, m.role]),
      ).toEqual([
        [owner.userId, "ROLE_OWNER"],
        [member.userId, "ROLE_MEMBER"],
      ]);
    });

    it("an invitation works once, only for its email, and not after it expires", async () => {
      const owner = await signUp(t);
      const inv = await invite(owner);
      const wrongEmail = expectError(
        await t.call("AuthService/SignUp", {
          email: uniqueEmail(),
          password: "long enough",
          invitationToken: inv.token,
        }),
        400,
      );
      expect(wrongEmail.code).toBe("failed_precondition");
      await signUp(t, { email: inv.email, invitationToken: inv.token });
      const again = await invite(owner);
      await t.server.db.query("update invitations set expires_at = now() where email = $1", [
        again.email,
      ]);
      expectError(
        await t.call("AuthService/SignUp", {
          email: again.email,
          password: "long enough",
          invitationToken: again.token,
        }),
        400,
      );
      // Nothing was half-written: the refused sign-ups left no user behind.
      const users = await t.server.db.query("select 1 from users where lower(email) = lower($1)", [
        again.email,
      ]);
      expect(users).toEqual([]);
    });

    it("an existing user joins with Login and the invitation; Login picks an organization", async () => {
      const owner = await signUp(t, { organizationName: "Inviting" });
      const other = await signUp(t, { organizationName: "Own" });
      const inv = await invite(owner, "ROLE_OWNER", other.email);
      const joined = await callOk(t, "AuthService/Login", {
        email: other.email,
        password: other.password,
        invitationToken: inv.token,
      });
      expect(joined.organization).toEqual({ id: owner.organizationId, name: "Inviting" });
      expect((await callOk(t.as(joined.sessionToken), "AuthService/WhoAmI", {})).role).toBe(
        "ROLE_OWNER",
      );
      const first = await callOk(t, "AuthService/Login", {
        email: other.email,
        password: other.password,
      });
      expect(first.organization.id).toBe(other.organizationId);
      const chosen = await callOk(t, "AuthService/Login", {
        email: other.email,
        password: other.password,
        organizationId: owner.organizationId,
      });
      expect(chosen.organization.id).toBe(owner.organizationId);
      const stranger = await signUp(t);
      expectError(
        await t.call("AuthService/Login", {
          email: other.email,
          password: other.password,
          organizationId: stranger.organizationId,
        }),
        404,
      );
    });

    it("only owners invite and remove; inviting a member again is already_exists", async () => {
      const { owner, member } = await team();
      const byMember = expectError(
        await member.t.call("AuthService/CreateInvitation", { email: uniqueEmail() }),
        403,
      );
      expect(byMember.code).toBe("permission_denied");
      expectError(await member.t.call("AuthService/RemoveMember", { userId: owner.userId }), 403);
      expect(
        expectError(
          await owner.t.call("AuthService/CreateInvitation", { email: member.email }),
          409,
        ).code,
      ).toBe("already_exists");
      expectError(await owner.t.call("AuthService/CreateInvitation", { email: "nope" }), 400);
      expectError(
        await owner.t.call("AuthService/CreateInvitation", { email: uniqueEmail(), role: 7 }),
        400,
      );
    });

    it("a removed member's sessions and API keys stop working for the organization at once", async () => {
      const { owner, member } = await team();
      const { apiKey } = await callOk(member.t, "AuthService/CreateApiKey", { name: "phone" });
      const sync = member.t.client(SyncService);
      await sync.pull({ cursor: "" });
      expect(await callOk(owner.t, "AuthService/RemoveMember", { userId: member.userId })).toEqual(
        {},
      );
      expectError(await member.t.call("ApiaryService/ListApiaries", {}), 401);
      expectError(await t.as(apiKey).call("ApiaryService/ListApiaries", {}), 401);
      await expect(sync.pull({ cursor: "" })).rejects.toMatchObject({ code: 16 });
      const members = await callOk(owner.t, "AuthService/ListMembers", {});
      expect(members.members.map((m: { user: { id: string } }) => m.user.id)).toEqual([
        owner.userId,
      ]);
      // Their account still exists, but no longer reaches this organization.
      const again = expectError(
        await t.call("AuthService/Login", { email: member.email, password: member.password }),
        403,
      );
      expect(again.code).toBe("permission_denied");
    });

    it("the last owner cannot be removed; unknown members are not_found", async () => {
      const { owner, member } = await team();
      const e = expectError(
        await owner.t.call("AuthService/RemoveMember", { userId: owner.userId }),
        400,
      );
      expect(e.code).toBe("failed_precondition");
      const outsider = await signUp(t);
      expectError(await owner.t.call("AuthService/RemoveMember", { userId: outsider.userId }), 404);
      expectError(await owner.t.call("AuthService/RemoveMember", { userId: "" }), 400);
      await callOk(member.t, "AuthService/WhoAmI", {});
    });
  });

  describe("SwitchOrganization", () => {
    /** Ana owns "Ana's bees" and is invited into "Club" as a member. */
    async function twoOrganizations() {
      const ana = await signUp(t, { organizationName: "Ana's bees" });
      const club = await signUp(t, { organizationName: "Club" });
      const inv = await invite(club, "ROLE_MEMBER", ana.email);
      await callOk(t, "AuthService/Login", {
        email: ana.email,
        password: ana.password,
        invitationToken: inv.token,
      });
      return { ana, club };
    }

    it("WhoAmI lists every organization of the user, in the order joined", async () => {
      const { ana, club } = await twoOrganizations();
      const me = await callOk(ana.t, "AuthService/WhoAmI", {});
      expect(me.organization).toEqual({ id: ana.organizationId, name: "Ana's bees" });
      expect(me.organizations).toEqual([
        { id: ana.organizationId, name: "Ana's bees" },
        { id: club.organizationId, name: "Club" },
      ]);
      // An API key belongs to one organization and names only that one.
      const { apiKey } = await callOk(ana.t, "AuthService/CreateApiKey", { name: "scale" });
      expect((await callOk(t.as(apiKey), "AuthService/WhoAmI", {})).organizations).toEqual([
        { id: ana.organizationId, name: "Ana's bees" },
      ]);
    });

    it("gives a session in another organization of the user and ends the calling one", async () => {
      const { ana, club } = await twoOrganizations();
      const clubApiary = await newApiary(club.t, "Club meadow");
      const r = await callOk(ana.t, "AuthService/SwitchOrganization", {
        organizationId: club.organizationId,
      });
      expect(r.sessionToken).toMatch(/^hks_[A-Za-z0-9_-]{43}$/);
      expect(r.organization).toEqual({ id: club.organizationId, name: "Club" });
      expect(Date.parse(r.expiresAt) - Date.now()).toBeGreaterThan(719 * 3_600_000);
      const switched = t.as(r.sessionToken);
      const me = await callOk(switched, "AuthService/WhoAmI", {});
      expect(me.user.id).toBe(ana.userId);
      expect(me.organization.id).toBe(club.organizationId);
      expect(me.role).toBe("ROLE_MEMBER");
      expect(
        (await callOk(switched, "ApiaryService/GetApiary", { id: clubApiary })).apiary.name,
      ).toBe("Club meadow");
      expect(expectError(await ana.t.call("AuthService/WhoAmI", {}), 401).code).toBe(
        "unauthenticated",
      );
      // And back again, as owner of the first.
      const back = await callOk(switched, "AuthService/SwitchOrganization", {
        organizationId: ana.organizationId,
      });
      expect((await callOk(t.as(back.sessionToken), "AuthService/WhoAmI", {})).role).toBe(
        "ROLE_OWNER",
      );
    });

    it("another organization, an unknown or empty id is refused and the session lives on", async () => {
      const { ana } = await twoOrganizations();
      const stranger = await signUp(t, { organizationName: "Not Ana's" });
      for (const organizationId of [
        stranger.organizationId,
        "00000000-0000-7000-8000-00000000dead",
      ]) {
        const e = expectError(
          await ana.t.call("AuthService/SwitchOrganization", { organizationId }),
          404,
        );
        expect(e.code).toBe("not_found");
      }
      expectError(await ana.t.call("AuthService/SwitchOrganization", { organizationId: "" }), 400);
      await callOk(ana.t, "AuthService/WhoAmI", {});
    });

    it("a member removed from an organization can no longer switch to it", async () => {
      const { ana, club } = await twoOrganizations();
      await callOk(club.t, "AuthService/RemoveMember", { userId: ana.userId });
      expectError(
        await ana.t.call("AuthService/SwitchOrganization", { organizationId: club.organizationId }),
        404,
      );
      expect((await callOk(ana.t, "AuthService/WhoAmI", {})).organizations).toEqual([
        { id: ana.organizationId, name: "Ana's bees" },
      ]);
    });

    it("an API key cannot switch (failed_precondition)", async () => {
      const { ana, club } = await twoOrganizations();
      const { apiKey } = await callOk(ana.t, "AuthService/CreateApiKey", { name: "scale" });
      const e = expectError(
        await t.as(apiKey).call("AuthService/SwitchOrganization", {
          organizationId: club.organizationId,
        }),
        400,
      );
      expect(e.code).toBe("failed_precondition");
      expect(e.message).toMatch(/API key/);
    });
  });

  it("StartDemo without HIVEKEEP_DEMO is failed_precondition", async () => {
    const e = expectError(await t.call("AuthService/StartDemo", {}), 400);
    expect(e.code).toBe("failed_precondition");
    expect(e.message).toMatch(/HIVEKEEP_DEMO/);
  });
});

describe.each(databaseKinds)("hosted mode settings on %s", (kind) => {
  it("sessions last HIVEKEEP_SESSION_TTL", async () => {
    const t = await startTestServer(kind, { ...loginEnv, HIVEKEEP_SESSION_TTL: "2h" });
    try {
      const a = await signUp(t);
      const r = await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
      const ttl = Date.parse(r.expiresAt) - Date.now();
      expect(ttl).toBeGreaterThan(7_100_000);
      expect(ttl).toBeLessThanOrEqual(7_200_000);
    } finally {
      await t.stop();
    }
  });

  // The database is chosen by env (see lastingDatabase).
  const restart = (env: Record<string, string>) =>
    startTestServer("pglite", { ...loginEnv, ...env }, { throttle: relaxedThrottle });

  it("HIVEKEEP_SIGNUP=closed refuses to start until someone could sign in", async () => {
    const database = await lastingDatabase(kind);
    try {
      await expect(restart({ ...database.env, HIVEKEEP_SIGNUP: "closed" })).rejects.toThrow(
        /HIVEKEEP_SIGNUP=closed, but no account exists yet/,
      );
      const open = await restart(database.env);
      const owner = await signUp(open);
      const inv = await invite(owner);
      await open.stop();

      const t = await restart({ ...database.env, HIVEKEEP_SIGNUP: "closed" });
      try {
        const e = expectError(
          await t.call("AuthService/SignUp", {
            email: uniqueEmail(),
            password: "long enough",
            organizationName: "New",
          }),
          403,
        );
        expect(e).toEqual({
          code: "permission_denied",
          message: "sign-up is closed on this server; ask an organization owner for an invitation",
        });
        const member = await signUp(t, { email: inv.email, invitationToken: inv.token });
        expect(member.organizationId).toBe(owner.organizationId);
        await callOk(t, "AuthService/Login", { email: owner.email, password: owner.password });
      } finally {
        await t.stop();
      }
    } finally {
      await database.drop();
    }
  });
});

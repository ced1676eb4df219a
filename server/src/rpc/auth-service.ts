/**
 * AuthService (DESIGN.md §5). In login mode: accounts, sessions, API keys,
 * invitations and members. In single-user mode only WhoAmI answers; the rest
 * is `failed_precondition`, because there is nothing to sign in to.
 *
 * Nothing here tells whether an email has an account: a failed Login says the
 * same and costs the same time for an unknown email as for a wrong password.
 * SignUp cannot hide a taken email without an email round trip; it is
 * throttled per address like Login (docs/decisions.md).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { isEntityId, isStorableText, quote } from "@hivekeep/client-core/core";
import { invalidArgument, readOnlyError } from "@hivekeep/client-core/ops";
import {
  type ApiKey,
  ApiKeySchema,
  AuthMode,
  type AuthService,
  InvitationSchema,
  MemberSchema,
  Role as ProtoRole,
} from "@hivekeep/proto";
import * as store from "../auth/auth-store.ts";
import { invitationTtlMs, isEmailAddress } from "../auth/rules.ts";
import {
  hashPassword,
  hashToken,
  invitationPrefix,
  newToken,
  verifyPassword,
} from "../auth/secrets.ts";
import {
  addressKey,
  checkAttempts,
  clearAttempts,
  countAttempt,
  emailKey,
} from "../auth/throttle.ts";
import type { Queryable } from "../db/db.ts";
import { type Caller, callerOf, clientAddressKey, type Role } from "./context.ts";
import type { AuthSettings, Deps } from "./deps.ts";

const minPassword = 8;
const maxPassword = 1024;
const maxName = 200;

function loginMode(deps: Deps): AuthSettings {
  const auth = deps.auth;
  if (auth?.mode !== "login") {
    throw new ConnectError(
      "this server runs without sign-in (HIVEKEEP_AUTH=none); no account is needed",
      Code.FailedPrecondition,
    );
  }
  return auth;
}

function checkedEmail(raw: string): string {
  const email = raw.trim();
  if (!isEmailAddress(email)) {
    throw invalidArgument("email must be an email address like name@example.org");
  }
  return email;
}

/** A stored name: the text rules of a pushed change (client-core), at most `maxName` characters. */
function checkedName(raw: string, what: string): string {
  if (!isStorableText(raw)) {
    throw invalidArgument(`${what} must be well-formed Unicode text without U+0000`);
  }
  const name = raw.trim();
  if (name === "") throw invalidArgument(`${what} must not be empty`);
  if (name.length > maxName) throw invalidArgument(`${what} must be at most ${maxName} characters`);
  return name;
}

/** "<what> "<id>" not found<where>", the id quoted as every echoed input is (core's quote). */
const notFound = (what: string, id: string, where = "") =>
  new ConnectError(`${what} ${quote(id)} not found${where}`, Code.NotFound);

/**
 * An id a request names, with the shape check Push uses: a malformed one names nothing, so it is
 * `not_found`, and never reaches the database.
 */
function checkedId(id: string, field: string, what: string, where = ""): string {
  if (id === "") throw invalidArgument(`${field} must not be empty`);
  if (!isEntityId(id)) throw notFound(what, id, where);
  return id;
}

function checkedNewPassword(password: string): string {
  if (password.length < minPassword) {
    throw invalidArgument(`password must be at least ${minPassword} characters`);
  }
  if (password.length > maxPassword) {
    throw invalidArgument(`password must be at most ${maxPassword} characters`);
  }
  return password;
}

const yours = " among yours";

const wrongCredentials = () => new ConnectError("email or password is wrong", Code.Unauthenticated);

const badInvitation = () =>
  new ConnectError(
    "the invitation is unknown, used, expired, or for another email",
    Code.FailedPrecondition,
  );

const ownerOnly = (caller: Caller, what: string) => {
  if (caller.role !== "owner") {
    throw new ConnectError(`only an owner can ${what}`, Code.PermissionDenied);
  }
};

function roleOf(role: Role): ProtoRole {
  return role === "owner" ? ProtoRole.OWNER : ProtoRole.MEMBER;
}

function apiKeyToProto(row: store.ApiKeyRow): ApiKey {
  return create(ApiKeySchema, {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: timestampFromDate(row.created_at),
    ...(row.last_used_at ? { lastUsedAt: timestampFromDate(row.last_used_at) } : {}),
  });
}

function sessionCredential(caller: Caller, method: "Logout" | "SwitchOrganization"): string {
  const credential = caller.credential;
  if (credential?.kind !== "session") {
    throw new ConnectError(
      method === "Logout"
        ? "Logout ends a session; an API key is revoked with RevokeApiKey"
        : "SwitchOrganization needs a session; an API key belongs to one organization",
      Code.FailedPrecondition,
    );
  }
  return credential.tokenHash;
}

/** A signed-in person's session (not an API key, not the demo) may switch organizations. */
const canSwitch = (caller: Caller): boolean =>
  caller.credential?.kind === "session" && !caller.demo;

export function authService(deps: Deps): ServiceImpl<typeof AuthService> {
  const { db } = deps;
  const address = (ctx: HandlerContext) => addressKey(ctx.values.get(clientAddressKey));

  const signedIn = (
    user: store.UserRow,
    org: store.OrganizationRow,
    session: { token: string; expiresAt: Date },
  ) => ({
    sessionToken: session.token,
    expiresAt: timestampFromDate(session.expiresAt),
    user: { id: user.id, email: user.email },
    organization: { id: org.id, name: org.name },
  });

  return {
    async signUp(req, ctx) {
      const auth = loginMode(deps);
      await countAttempt(db, address(ctx), auth.throttle.perAddress, auth.throttle.windowMs);
      const email = checkedEmail(req.email);
      const password = checkedNewPassword(req.password);
      const invited = req.invitationToken !== "";
      if (!invited && auth.signup === "closed") {
        throw new ConnectError(
          "sign-up is closed on this server; ask an organization owner for an invitation",
          Code.PermissionDenied,
        );
      }
      const orgName = invited ? "" : checkedName(req.organizationName, "organizationName");
      const passwordHash = await hashPassword(password);
      return db.transaction(async (tx) => {
        const userId = deps.newId();
        const user = await store.insertUser(tx, { id: userId, email, passwordHash });
        if (!user) {
          throw new ConnectError(
            "this email cannot sign up; if it is yours, log in instead",
            Code.AlreadyExists,
          );
        }
        let org: store.OrganizationRow | undefined;
        if (invited) {
          const invitation = await store.takeInvitation(tx, req.invitationToken, email, userId);
          if (!invitation) throw badInvitation();
          await store.addMembership(tx, invitation.organization_id, userId, invitation.role);
          org = await store.organizationById(tx, invitation.organization_id);
        } else {
          org = await store.insertOrganization(tx, { id: deps.newId(), name: orgName });
          await store.addMembership(tx, org.id, userId, "owner");
        }
        if (!org) throw badInvitation();
        const session = await store.createSession(tx, {
          organizationId: org.id,
          userId,
          ttlMs: auth.sessionTtlMs,
        });
        return signedIn(user, org, session);
      });
    },

    async login(req, ctx) {
      const auth = loginMode(deps);
      const { perAddress, perEmail, windowMs } = auth.throttle;
      const email = req.email.trim();
      // No account has an email that is not one (SignUp checks): answered like a wrong
      // password, before anything touches the database.
      if (!isEmailAddress(email)) throw wrongCredentials();
      await countAttempt(db, address(ctx), perAddress, windowMs);
      await checkAttempts(db, emailKey(email), perEmail, windowMs);
      const user = await store.userByEmail(db, email);
      const ok = await verifyPassword(req.password, user?.password_hash);
      if (!ok || !user) {
        await countAttempt(db, emailKey(email), Number.MAX_SAFE_INTEGER, windowMs);
        throw wrongCredentials();
      }
      await clearAttempts(db, emailKey(email));
      return db.transaction(async (tx) => {
        let organizationId: string | undefined;
        if (req.invitationToken !== "") {
          const invitation = await store.takeInvitation(tx, req.invitationToken, email, user.id);
          if (!invitation) throw badInvitation();
          await store.addMembership(tx, invitation.organization_id, user.id, invitation.role);
          organizationId = invitation.organization_id;
        } else if (req.organizationId !== "") {
          const id = checkedId(req.organizationId, "organizationId", "organization", yours);
          if (!(await store.membership(tx, id, user.id))) throw notFound("organization", id, yours);
          organizationId = id;
        } else {
          organizationId = (await store.firstOrganizationOf(tx, user.id))?.id;
        }
        const org =
          organizationId === undefined
            ? undefined
            : await store.organizationById(tx, organizationId);
        if (!org) {
          throw new ConnectError(
            "this account is not a member of any organization; ask an owner for an invitation",
            Code.PermissionDenied,
          );
        }
        const session = await store.createSession(tx, {
          organizationId: org.id,
          userId: user.id,
          ttlMs: auth.sessionTtlMs,
        });
        return signedIn(user, org, session);
      });
    },

    async logout(_req, ctx) {
      loginMode(deps);
      await store.revokeSession(db, sessionCredential(callerOf(ctx), "Logout"));
      return {};
    },

    async whoAmI(_req, ctx) {
      const caller = callerOf(ctx);
      const [user, org, all] = await Promise.all([
        store.userById(db, caller.userId),
        store.organizationById(db, caller.organizationId),
        // Only a session may switch: an API key or a demo session names its own organization.
        canSwitch(caller) ? store.organizationsOf(db, caller.userId) : undefined,
      ]);
      const organization = { id: caller.organizationId, name: org?.name ?? "" };
      return {
        user: { id: caller.userId, email: user?.email ?? "" },
        organization,
        role: roleOf(caller.role),
        authMode: deps.auth?.mode === "login" ? AuthMode.LOGIN : AuthMode.NONE,
        demo: caller.demo,
        organizations: all?.map((o) => ({ id: o.id, name: o.name })) ?? [organization],
      };
    },

    async switchOrganization(req, ctx) {
      const auth = loginMode(deps);
      const caller = callerOf(ctx);
      const tokenHash = sessionCredential(caller, "SwitchOrganization");
      if (caller.demo) throw readOnlyError("SwitchOrganization");
      const id = checkedId(req.organizationId, "organizationId", "organization", yours);
      return db.transaction(async (tx) => {
        const mine = await store.organizationsOf(tx, caller.userId);
        const org = mine.find((o) => o.id === id);
        if (!org) throw notFound("organization", id, yours);
        const session = await store.createSession(tx, {
          organizationId: org.id,
          userId: caller.userId,
          ttlMs: auth.sessionTtlMs,
        });
        // One session per sign-in: the one switched from ends, as with Logout.
        await store.revokeSession(tx, tokenHash);
        return {
          sessionToken: session.token,
          expiresAt: timestampFromDate(session.expiresAt),
          organization: { id: org.id, name: org.name },
        };
      });
    },

    async startDemo(_req, ctx) {
      const auth = loginMode(deps);
      await countAttempt(db, address(ctx), auth.throttle.perAddress, auth.throttle.windowMs);
      if (!auth.demo) {
        throw new ConnectError(
          "demo sessions are not enabled on this server (HIVEKEEP_DEMO)",
          Code.FailedPrecondition,
        );
      }
      const demo = await auth.demo();
      const session = await store.createSession(db, {
        organizationId: demo.organizationId,
        userId: demo.userId,
        ttlMs: Math.min(auth.sessionTtlMs, 24 * 3_600_000),
        demo: true,
      });
      return { sessionToken: session.token, expiresAt: timestampFromDate(session.expiresAt) };
    },

    async createApiKey(req, ctx) {
      loginMode(deps);
      const caller = callerOf(ctx);
      const name = checkedName(req.name, "name");
      const { secret, key } = await store.createApiKey(db, {
        organizationId: caller.organizationId,
        userId: caller.userId,
        id: deps.newId(),
        name,
      });
      return { apiKey: secret, key: apiKeyToProto(key) };
    },

    async listApiKeys(_req, ctx) {
      loginMode(deps);
      const caller = callerOf(ctx);
      const rows = await store.listApiKeys(db, caller.organizationId, caller.userId);
      return { keys: rows.map(apiKeyToProto) };
    },

    async revokeApiKey(req, ctx) {
      loginMode(deps);
      const caller = callerOf(ctx);
      const id = checkedId(req.id, "id", "API key");
      if (!(await store.revokeApiKey(db, caller, id))) throw notFound("API key", id);
      return {};
    },

    async createInvitation(req, ctx) {
      loginMode(deps);
      const caller = callerOf(ctx);
      ownerOnly(caller, "invite members");
      const email = checkedEmail(req.email);
      if (req.role !== ProtoRole.UNSPECIFIED && !(req.role in ProtoRole)) {
        throw invalidArgument(`role ${req.role} is not a Role`);
      }
      const role: Role = req.role === ProtoRole.OWNER ? "owner" : "member";
      const token = newToken(invitationPrefix);
      const invitation = await db.transaction(async (tx: Queryable) => {
        const existing = await store.userByEmail(tx, email);
        if (existing && (await store.membership(tx, caller.organizationId, existing.id))) {
          throw new ConnectError(`${email} is already a member`, Code.AlreadyExists);
        }
        return store.insertInvitation(tx, {
          organizationId: caller.organizationId,
          id: deps.newId(),
          email,
          role,
          tokenHash: hashToken(token),
          createdBy: caller.userId,
          ttlMs: invitationTtlMs,
        });
      });
      return {
        invitation: create(InvitationSchema, {
          id: invitation.id,
          email: invitation.email,
          role: roleOf(invitation.role),
          token,
          expiresAt: timestampFromDate(invitation.expires_at),
        }),
      };
    },

    async listMembers(_req, ctx) {
      loginMode(deps);
      const caller = callerOf(ctx);
      const rows = await store.listMembers(db, caller.organizationId);
      return {
        members: rows.map((m) =>
          create(MemberSchema, {
            user: { id: m.user_id, email: m.email },
            role: roleOf(m.role),
            joinedAt: timestampFromDate(m.created_at),
          }),
        ),
      };
    },

    async removeMember(req, ctx) {
      loginMode(deps);
      const caller = callerOf(ctx);
      ownerOnly(caller, "remove members");
      const userId = checkedId(req.userId, "userId", "member");
      await db.transaction(async (tx) => {
        const owners = await store.ownerCount(tx, caller.organizationId);
        const role = await store.membership(tx, caller.organizationId, userId);
        if (!role) throw notFound("member", userId);
        if (role === "owner" && owners <= 1) {
          throw new ConnectError(
            "an organization needs an owner: invite another owner before removing the last one",
            Code.FailedPrecondition,
          );
        }
        await store.removeMember(tx, caller.organizationId, userId);
      });
      return {};
    },
  };
}

/**
 * Signing in (DESIGN.md §5): sign-up, login, logout, switching organization, the demo session,
 * and who the caller is.
 *
 * Nothing here tells whether an email has an account: a failed Login says the
 * same and costs the same time for an unknown email as for a wrong password.
 * SignUp cannot hide a taken email without an email round trip; it is
 * throttled per address like Login (docs/decisions.md).
 */
import { DomainError } from "@hivekeep/client-core/core";
import { readOnlyError } from "@hivekeep/client-core/ops";
import {
  addMembership,
  firstOrganizationOf,
  insertOrganization,
  insertUser,
  membership,
  type OrganizationRow,
  organizationById,
  organizationsOf,
  type UserRow,
  userByEmail,
  userById,
} from "./account-store.ts";
import type { Caller } from "./caller.ts";
import { acceptInvitation, badInvitation } from "./invitations.ts";
import {
  canSwitch,
  checkedEmail,
  checkedId,
  checkedName,
  checkedNewPassword,
  isEmailAddress,
  notFoundIn,
  sessionCredential,
  yours,
} from "./rules.ts";
import { hashPassword, verifyPassword } from "./secrets.ts";
import { createSession, type NewSession, revokeSession } from "./session-store.ts";
import { type AuthEnv, loginSettings } from "./settings.ts";
import { countAddressAttempt, countLoginAttempt, loginSucceeded } from "./throttle.ts";

/** A new session, with the user and organization it is for. */
export interface SignedIn {
  readonly user: UserRow;
  readonly organization: OrganizationRow;
  readonly session: NewSession;
}

/** Demo sessions end within a day, whatever the session lifetime. */
const maxDemoSessionMs = 24 * 3_600_000;

const wrongCredentials = () => new DomainError("unauthenticated", "email or password is wrong");

/**
 * SignUp: a new account with a new organization it owns, or, with an invitation token, joining
 * the inviting organization. `address` is the client's network address (throttled).
 */
export async function signUp(
  env: AuthEnv,
  address: string,
  req: { email: string; password: string; invitationToken: string; organizationName: string },
): Promise<SignedIn> {
  const auth = loginSettings(env);
  const { db } = env;
  await countAddressAttempt(db, address, auth.throttle);
  const email = checkedEmail(req.email);
  const password = checkedNewPassword(req.password);
  const invited = req.invitationToken !== "";
  if (!invited && auth.signup === "closed") {
    throw new DomainError(
      "permission_denied",
      "sign-up is closed on this server; ask an organization owner for an invitation",
    );
  }
  const orgName = invited ? "" : checkedName(req.organizationName, "organizationName");
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const userId = env.newId();
    const user = await insertUser(tx, { id: userId, email, passwordHash });
    if (!user) {
      throw new DomainError(
        "already_exists",
        "this email cannot sign up; if it is yours, log in instead",
      );
    }
    let org: OrganizationRow | undefined;
    if (invited) {
      const joined = await acceptInvitation(tx, req.invitationToken, email, userId);
      org = await organizationById(tx, joined);
    } else {
      org = await insertOrganization(tx, { id: env.newId(), name: orgName });
      await addMembership(tx, org.id, userId, "owner");
    }
    if (!org) throw badInvitation();
    const session = await createSession(tx, {
      organizationId: org.id,
      userId,
      ttlMs: auth.sessionTtlMs,
    });
    return { user, organization: org, session };
  });
}

/**
 * Login: a session in the organization the invitation joins, the one named, or the one joined
 * first. The attempt counts against the address, and against the email from this address and
 * from all addresses, before the password is checked (throttle.ts).
 */
export async function login(
  env: AuthEnv,
  address: string,
  req: { email: string; password: string; invitationToken: string; organizationId: string },
): Promise<SignedIn> {
  const auth = loginSettings(env);
  const { db } = env;
  const email = req.email.trim();
  // No account has an email that is not one (SignUp checks): answered like a wrong
  // password, before anything touches the database.
  if (!isEmailAddress(email)) throw wrongCredentials();
  await countAddressAttempt(db, address, auth.throttle);
  await countLoginAttempt(db, email, address, auth.throttle);
  const user = await userByEmail(db, email);
  const ok = await verifyPassword(req.password, user?.password_hash);
  if (!ok || !user) throw wrongCredentials();
  await loginSucceeded(db, email, address, auth.throttle);
  return db.transaction(async (tx) => {
    let organizationId: string | undefined;
    if (req.invitationToken !== "") {
      organizationId = await acceptInvitation(tx, req.invitationToken, email, user.id);
    } else if (req.organizationId !== "") {
      const id = checkedId(req.organizationId, "organizationId", "organization", yours);
      if (!(await membership(tx, id, user.id))) throw notFoundIn("organization", id, yours);
      organizationId = id;
    } else {
      organizationId = (await firstOrganizationOf(tx, user.id))?.id;
    }
    const org =
      organizationId === undefined ? undefined : await organizationById(tx, organizationId);
    if (!org) {
      throw new DomainError(
        "permission_denied",
        "this account is not a member of any organization; ask an owner for an invitation",
      );
    }
    const session = await createSession(tx, {
      organizationId: org.id,
      userId: user.id,
      ttlMs: auth.sessionTtlMs,
    });
    return { user, organization: org, session };
  });
}

/** Logout: ends the caller's session. */
export async function logout(env: AuthEnv, caller: Caller): Promise<void> {
  loginSettings(env);
  await revokeSession(env.db, sessionCredential(caller, "Logout"));
}

export interface Identity {
  readonly email: string;
  readonly organization: OrganizationRow;
  /** The organizations the caller may switch to; only its own when it may not switch. */
  readonly organizations: readonly OrganizationRow[];
}

/** WhoAmI: answers in single-user mode too (the local owner). */
export async function whoAmI(env: AuthEnv, caller: Caller): Promise<Identity> {
  const [user, org, all] = await Promise.all([
    userById(env.db, caller.userId),
    organizationById(env.db, caller.organizationId),
    // Only a session may switch: an API key or a demo session names its own organization.
    canSwitch(caller) ? organizationsOf(env.db, caller.userId) : undefined,
  ]);
  const organization = { id: caller.organizationId, name: org?.name ?? "" };
  return { email: user?.email ?? "", organization, organizations: all ?? [organization] };
}

/** SwitchOrganization: a new session in another of the caller's organizations. */
export async function switchOrganization(
  env: AuthEnv,
  caller: Caller,
  organizationId: string,
): Promise<{ organization: OrganizationRow; session: NewSession }> {
  const auth = loginSettings(env);
  const tokenHash = sessionCredential(caller, "SwitchOrganization");
  if (caller.demo) throw readOnlyError("SwitchOrganization");
  const id = checkedId(organizationId, "organizationId", "organization", yours);
  return env.db.transaction(async (tx) => {
    const mine = await organizationsOf(tx, caller.userId);
    const org = mine.find((o) => o.id === id);
    if (!org) throw notFoundIn("organization", id, yours);
    const session = await createSession(tx, {
      organizationId: org.id,
      userId: caller.userId,
      ttlMs: auth.sessionTtlMs,
    });
    // One session per sign-in: the one switched from ends, as with Logout.
    await revokeSession(tx, tokenHash);
    return { organization: org, session };
  });
}

/** StartDemo: a read-only session in the shared demo organization, once it is seeded. */
export async function startDemo(env: AuthEnv, address: string): Promise<NewSession> {
  const auth = loginSettings(env);
  await countAddressAttempt(env.db, address, auth.throttle);
  if (!auth.demo) {
    throw new DomainError(
      "precondition",
      "demo sessions are not enabled on this server (HIVEKEEP_DEMO)",
    );
  }
  const demo = await auth.demo();
  return createSession(env.db, {
    organizationId: demo.organizationId,
    userId: demo.userId,
    ttlMs: Math.min(auth.sessionTtlMs, maxDemoSessionMs),
    demo: true,
  });
}

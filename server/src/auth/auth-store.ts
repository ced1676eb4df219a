/**
 * The SQL of hosted mode: users, organizations, memberships, sessions, API
 * keys and invitations. Times come from the database clock (now()), so every
 * server process agrees on expiry. Secrets arrive here already hashed, except
 * where a function creates one and returns it once.
 */
import type { Queryable } from "../db/db.ts";
import type { Caller, Credential, Role } from "../rpc/context.ts";
import { apiKeyPrefix, hashToken, newToken, sessionPrefix, visiblePrefix } from "./secrets.ts";

export interface UserRow {
  readonly id: string;
  readonly email: string;
  readonly password_hash: string | null;
}

export interface OrganizationRow {
  readonly id: string;
  readonly name: string;
}

/**
 * The caller a bearer token stands for, or undefined when the token is
 * unknown, revoked, expired, or its user is no longer a member of the
 * organization (so removing a member stops their tokens at once).
 */
export async function callerForToken(q: Queryable, token: string): Promise<Caller | undefined> {
  const kind = token.startsWith(sessionPrefix)
    ? "session"
    : token.startsWith(apiKeyPrefix)
      ? "apiKey"
      : undefined;
  return kind && callerFor(q, { kind, tokenHash: hashToken(token) });
}

/** Whether the caller's credential still works (long streams check it now and then). */
export async function credentialValid(q: Queryable, caller: Caller): Promise<boolean> {
  const credential = caller.credential;
  if (credential === undefined || credential.kind === "local") return true;
  return (await callerFor(q, credential)) !== undefined;
}

type TokenCredential = Extract<Credential, { tokenHash: string }>;

async function callerFor(q: Queryable, credential: TokenCredential): Promise<Caller | undefined> {
  if (credential.kind === "session") {
    const [row] = await q.query<{
      organization_id: string;
      user_id: string;
      role: Role;
      demo: boolean;
    }>(
      `select s.organization_id, s.user_id, m.role, (s.demo or o.demo) as demo
         from sessions s
         join memberships m on m.organization_id = s.organization_id and m.user_id = s.user_id
         join organizations o on o.id = s.organization_id
        where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now()`,
      [credential.tokenHash],
    );
    return row && callerOfRow(row, credential);
  }
  const [row] = await q.query<{
    organization_id: string;
    user_id: string;
    id: string;
    role: Role;
    demo: boolean;
    fresh: boolean;
  }>(
    `select k.organization_id, k.user_id, k.id, m.role, o.demo,
            coalesce(k.last_used_at > now() - interval '1 minute', false) as fresh
       from api_keys k
       join memberships m on m.organization_id = k.organization_id and m.user_id = k.user_id
       join organizations o on o.id = k.organization_id
      where k.key_hash = $1 and k.revoked_at is null`,
    [credential.tokenHash],
  );
  if (!row) return undefined;
  // "Last used" is kept to the minute: a scale posting every few seconds
  // does not turn every read into a write.
  if (!row.fresh) {
    await q.query(
      "update api_keys set last_used_at = now() where organization_id = $1 and id = $2",
      [row.organization_id, row.id],
    );
  }
  return callerOfRow(row, credential);
}

const callerOfRow = (
  row: { organization_id: string; user_id: string; role: Role; demo: boolean },
  credential: TokenCredential,
): Caller => ({
  organizationId: row.organization_id,
  userId: row.user_id,
  role: row.role,
  demo: row.demo,
  credential,
});

export async function userByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow & Record<string, unknown>>(
    "select id, email, password_hash from users where lower(email) = lower($1)",
    [email],
  );
  return row;
}

/** Inserts a user; undefined when the email is taken (case-insensitively). */
export async function insertUser(
  q: Queryable,
  user: { id: string; email: string; passwordHash: string },
): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow & Record<string, unknown>>(
    `insert into users (id, email, password_hash) values ($1, $2, $3)
     on conflict do nothing returning id, email, password_hash`,
    [user.id, user.email, user.passwordHash],
  );
  return row;
}

export async function insertOrganization(
  q: Queryable,
  org: { id: string; name: string; demo?: boolean },
): Promise<OrganizationRow> {
  const [row] = await q.query<OrganizationRow & Record<string, unknown>>(
    "insert into organizations (id, name, demo) values ($1, $2, $3) returning id, name",
    [org.id, org.name, org.demo ?? false],
  );
  if (!row) throw new Error("insert into organizations returned nothing");
  return row;
}

export async function organizationById(
  q: Queryable,
  id: string,
): Promise<OrganizationRow | undefined> {
  const [row] = await q.query<OrganizationRow & Record<string, unknown>>(
    "select id, name from organizations where id = $1",
    [id],
  );
  return row;
}

export async function userById(q: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow & Record<string, unknown>>(
    "select id, email, password_hash from users where id = $1",
    [id],
  );
  return row;
}

/** Adds the membership; an existing one keeps its role. */
export async function addMembership(
  q: Queryable,
  organizationId: string,
  userId: string,
  role: Role,
): Promise<void> {
  await q.query(
    `insert into memberships (organization_id, user_id, role) values ($1, $2, $3)
     on conflict (organization_id, user_id) do nothing`,
    [organizationId, userId, role],
  );
}

export async function membership(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<Role | undefined> {
  const [row] = await q.query<{ role: Role }>(
    "select role from memberships where organization_id = $1 and user_id = $2",
    [organizationId, userId],
  );
  return row?.role;
}

/** The organization a user signs in to by default: the one joined first. */
export async function firstOrganizationOf(
  q: Queryable,
  userId: string,
): Promise<OrganizationRow | undefined> {
  const [row] = await q.query<OrganizationRow & Record<string, unknown>>(
    `select o.id, o.name from memberships m join organizations o on o.id = m.organization_id
      where m.user_id = $1 and not o.demo
      order by m.created_at, o.id limit 1`,
    [userId],
  );
  return row;
}

/** Every organization of a user but the demo, in the order joined (the first is the default). */
export async function organizationsOf(q: Queryable, userId: string): Promise<OrganizationRow[]> {
  return q.query<OrganizationRow & Record<string, unknown>>(
    `select o.id, o.name from memberships m join organizations o on o.id = m.organization_id
      where m.user_id = $1 and not o.demo
      order by m.created_at, o.id`,
    [userId],
  );
}

/** Creates a session and returns its token (the only time it exists in clear). */
export async function createSession(
  q: Queryable,
  s: { organizationId: string; userId: string; ttlMs: number; demo?: boolean },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken(sessionPrefix);
  const [row] = await q.query<{ expires_at: Date }>(
    `insert into sessions (token_hash, organization_id, user_id, demo, expires_at)
     values ($1, $2, $3, $4, now() + $5 * interval '1 millisecond') returning expires_at`,
    [hashToken(token), s.organizationId, s.userId, s.demo ?? false, s.ttlMs],
  );
  if (!row) throw new Error("insert into sessions returned nothing");
  // Expired sessions of this user are of no further use.
  await q.query("delete from sessions where user_id = $1 and expires_at < now()", [s.userId]);
  return { token, expiresAt: row.expires_at };
}

export async function revokeSession(q: Queryable, tokenHash: string): Promise<void> {
  await q.query(
    "update sessions set revoked_at = now() where token_hash = $1 and revoked_at is null",
    [tokenHash],
  );
}

export interface ApiKeyRow {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly created_at: Date;
  readonly last_used_at: Date | null;
}

export async function createApiKey(
  q: Queryable,
  k: { organizationId: string; userId: string; id: string; name: string },
): Promise<{ secret: string; key: ApiKeyRow }> {
  const secret = newToken(apiKeyPrefix);
  const [row] = await q.query<ApiKeyRow & Record<string, unknown>>(
    `insert into api_keys (organization_id, id, user_id, name, prefix, key_hash)
     values ($1, $2, $3, $4, $5, $6) returning id, name, prefix, created_at, last_used_at`,
    [k.organizationId, k.id, k.userId, k.name, visiblePrefix(secret), hashToken(secret)],
  );
  if (!row) throw new Error("insert into api_keys returned nothing");
  return { secret, key: row };
}

/** The caller's live keys in the organization, newest first. */
export async function listApiKeys(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<ApiKeyRow[]> {
  return q.query<ApiKeyRow & Record<string, unknown>>(
    `select id, name, prefix, created_at, last_used_at from api_keys
      where organization_id = $1 and user_id = $2 and revoked_at is null
      order by created_at desc, id desc`,
    [organizationId, userId],
  );
}

/**
 * Revokes a live key of the organization: the caller's own, or any key when
 * the caller is an owner. False when there is no such key for this caller.
 */
export async function revokeApiKey(q: Queryable, caller: Caller, id: string): Promise<boolean> {
  const rows = await q.query(
    `update api_keys set revoked_at = now()
      where organization_id = $1 and id = $2 and revoked_at is null
        and (user_id = $3 or $4::boolean)
      returning id`,
    [caller.organizationId, id, caller.userId, caller.role === "owner"],
  );
  return rows.length > 0;
}

export interface MemberRow {
  readonly user_id: string;
  readonly email: string;
  readonly role: Role;
  readonly created_at: Date;
}

export async function listMembers(q: Queryable, organizationId: string): Promise<MemberRow[]> {
  return q.query<MemberRow & Record<string, unknown>>(
    `select m.user_id, u.email, m.role, m.created_at from memberships m
       join users u on u.id = m.user_id
      where m.organization_id = $1
      order by m.created_at, u.email`,
    [organizationId],
  );
}

/**
 * Removes a member and revokes their sessions and API keys of this
 * organization in the same transaction (the caller passes one).
 */
export async function removeMember(
  tx: Queryable,
  organizationId: string,
  userId: string,
): Promise<void> {
  await tx.query("delete from memberships where organization_id = $1 and user_id = $2", [
    organizationId,
    userId,
  ]);
  await tx.query(
    `update sessions set revoked_at = now()
      where organization_id = $1 and user_id = $2 and revoked_at is null`,
    [organizationId, userId],
  );
  await tx.query(
    `update api_keys set revoked_at = now()
      where organization_id = $1 and user_id = $2 and revoked_at is null`,
    [organizationId, userId],
  );
  await tx.query(
    `update invitations set expires_at = now()
      where organization_id = $1 and created_by = $2 and accepted_at is null and expires_at > now()`,
    [organizationId, userId],
  );
}

/** Locks the organization's memberships for a change that must keep an owner. */
export async function ownerCount(tx: Queryable, organizationId: string): Promise<number> {
  const rows = await tx.query<{ user_id: string }>(
    `select user_id from memberships where organization_id = $1 and role = 'owner' for update`,
    [organizationId],
  );
  return rows.length;
}

export interface InvitationRow {
  readonly organization_id: string;
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  readonly expires_at: Date;
}

export async function insertInvitation(
  q: Queryable,
  inv: {
    organizationId: string;
    id: string;
    email: string;
    role: Role;
    tokenHash: string;
    /** undefined: issued by an operator. */
    createdBy: string | undefined;
    ttlMs: number;
  },
): Promise<InvitationRow> {
  const [row] = await q.query<InvitationRow & Record<string, unknown>>(
    `insert into invitations (organization_id, id, email, role, token_hash, created_by, expires_at)
     values ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 millisecond')
     returning organization_id, id, email, role, expires_at`,
    [
      inv.organizationId,
      inv.id,
      inv.email,
      inv.role,
      inv.tokenHash,
      inv.createdBy ?? null,
      inv.ttlMs,
    ],
  );
  if (!row) throw new Error("insert into invitations returned nothing");
  return row;
}

/**
 * Takes an open invitation for this email (marks it accepted, in the caller's
 * transaction); undefined when the token is unknown, used, expired, or was
 * issued to another email.
 */
export async function takeInvitation(
  tx: Queryable,
  token: string,
  email: string,
  userId: string,
): Promise<InvitationRow | undefined> {
  const [row] = await tx.query<InvitationRow & Record<string, unknown>>(
    `update invitations set accepted_at = now(), accepted_by = $3
      where token_hash = $1 and lower(email) = lower($2)
        and accepted_at is null and expires_at > now()
      returning organization_id, id, email, role, expires_at`,
    [hashToken(token), email, userId],
  );
  return row;
}

/** An open invitation of this token and email, without taking it. */
export async function openInvitation(
  q: Queryable,
  token: string,
  email: string,
): Promise<InvitationRow | undefined> {
  const [row] = await q.query<InvitationRow & Record<string, unknown>>(
    `select organization_id, id, email, role, expires_at from invitations
      where token_hash = $1 and lower(email) = lower($2)
        and accepted_at is null and expires_at > now()`,
    [hashToken(token), email],
  );
  return row;
}

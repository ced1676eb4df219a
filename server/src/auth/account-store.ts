/**
 * The SQL of accounts: users, organizations and memberships.
 */
import type { Queryable } from "../db/db.ts";
import { credentialChannel, credentialPayload } from "../store/feed-notifier.ts";
import type { Role } from "./caller.ts";

export interface UserRow {
  readonly id: string;
  readonly email: string;
  readonly password_hash: string | null;
}

export interface OrganizationRow {
  readonly id: string;
  readonly name: string;
}

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
 * Ends a membership (members.ts also ends what it carried, in the same transaction). Every token
 * of the user there stops with it (caller-store.ts joins the membership), so the user's streams
 * hear of it on commit; the revocations that follow send the same notification, which Postgres
 * delivers once per transaction.
 */
export async function removeMembership(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<void> {
  await q.query(
    `with removed as (delete from memberships where organization_id = $1 and user_id = $2)
     select pg_notify($3, $4)`,
    [organizationId, userId, credentialChannel, credentialPayload(organizationId, userId)],
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

/**
 * The SQL of invitations. Times come from the database clock (now()); the token arrives hashed,
 * or is hashed here before it is looked up.
 */
import type { Queryable } from "../db/db.ts";
import type { Role } from "./caller.ts";
import { hashToken } from "./secrets.ts";

export interface InvitationRow {
  readonly organization_id: string;
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  readonly expires_at: Date;
}

/** An invitation to issue (invitations.ts adds its token and lifetime). */
export interface NewInvitation {
  readonly organizationId: string;
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  /** undefined: issued by an operator. */
  readonly createdBy: string | undefined;
}

export async function insertInvitation(
  q: Queryable,
  inv: NewInvitation & { tokenHash: string; ttlMs: number },
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

/**
 * Ends the open invitations a member issued in an organization (the member was removed). Every
 * way an invitation ends goes through the functions below, which set `expires_at` to now: an
 * ended invitation is one past its time, to `takeInvitation` and every list alike.
 */
export async function expireInvitationsBy(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<void> {
  await q.query(
    `update invitations set expires_at = now()
      where organization_id = $1 and created_by = $2 and accepted_at is null and expires_at > now()`,
    [organizationId, userId],
  );
}

/**
 * Ends the open invitations addressed to an email (any case) in an organization: the person was
 * removed (else an invitation still open for them would bring them back), or joined with one of
 * them (a member has no use for the others, and they would outlive a later removal).
 */
export async function expireInvitationsFor(
  q: Queryable,
  organizationId: string,
  email: string,
): Promise<void> {
  await q.query(
    `update invitations set expires_at = now()
      where organization_id = $1 and lower(email) = lower($2)
        and accepted_at is null and expires_at > now()`,
    [organizationId, email],
  );
}

/** Ends one open invitation of the organization; false when there is no open one by that id. */
export async function revokeInvitation(
  q: Queryable,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const rows = await q.query(
    `update invitations set expires_at = now()
      where organization_id = $1 and id = $2 and accepted_at is null and expires_at > now()
      returning id`,
    [organizationId, id],
  );
  return rows.length > 0;
}

/** An open invitation as owners see it: never its token. */
export interface OpenInvitationRow extends InvitationRow {
  readonly created_at: Date;
  /** null: issued by an operator (pnpm invite). */
  readonly created_by: string | null;
  readonly created_by_email: string | null;
}

/** The organization's open invitations, newest first. */
export async function listOpenInvitations(
  q: Queryable,
  organizationId: string,
): Promise<OpenInvitationRow[]> {
  return q.query<OpenInvitationRow & Record<string, unknown>>(
    `select i.organization_id, i.id, i.email, i.role, i.expires_at, i.created_at, i.created_by,
            u.email as created_by_email
       from invitations i left join users u on u.id = i.created_by
      where i.organization_id = $1 and i.accepted_at is null and i.expires_at > now()
      order by i.created_at desc, i.id desc`,
    [organizationId],
  );
}

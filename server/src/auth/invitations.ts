/**
 * Invitations: an owner (or the operator's `pnpm invite`) issues one for an email and a role;
 * SignUp or Login with its token joins the organization. Owners list the open ones and revoke
 * them; joining with one ends the others open for the same email there. The token exists in clear only in
 * what issueInvitation returns; the table keeps its hash.
 */
import { DomainError } from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";
import { addMembership, membership, userByEmail } from "./account-store.ts";
import type { Caller, Role } from "./caller.ts";
import {
  expireInvitationsFor,
  type InvitationRow,
  insertInvitation,
  listOpenInvitations,
  type NewInvitation,
  type OpenInvitationRow,
  revokeInvitation as revokeOpenInvitation,
  takeInvitation,
} from "./invitation-store.ts";
import { checkedEmail, checkedId, notFoundIn, ownerOnly, personOnly } from "./rules.ts";
import { hashToken, invitationPrefix, newToken } from "./secrets.ts";
import { type AuthEnv, loginSettings } from "./settings.ts";

/** How long an invitation can be used. */
export const invitationTtlMs = 7 * 86_400_000;

export interface IssuedInvitation {
  readonly invitation: InvitationRow;
  /** The token in clear, for the invited person (the only time it exists so). */
  readonly token: string;
}

/** Writes a new invitation with a fresh token (`pnpm invite` too). */
export async function issueInvitation(q: Queryable, inv: NewInvitation): Promise<IssuedInvitation> {
  const token = newToken(invitationPrefix);
  const invitation = await insertInvitation(q, {
    ...inv,
    tokenHash: hashToken(token),
    ttlMs: invitationTtlMs,
  });
  return { invitation, token };
}

/** CreateInvitation: an owner invites an email that is not yet a member. */
export async function createInvitation(
  env: AuthEnv,
  caller: Caller,
  req: { email: string; role: Role },
): Promise<IssuedInvitation> {
  loginSettings(env);
  ownerOnly(caller, "invite members");
  personOnly(caller, "create invitations");
  const email = checkedEmail(req.email);
  return env.db.transaction(async (tx) => {
    const existing = await userByEmail(tx, email);
    if (existing && (await membership(tx, caller.organizationId, existing.id))) {
      throw new DomainError("already_exists", `${email} is already a member`);
    }
    return issueInvitation(tx, {
      organizationId: caller.organizationId,
      id: env.newId(),
      email,
      role: req.role,
      createdBy: caller.userId,
    });
  });
}

/** ListInvitations: the organization's open invitations, for owners. */
export async function listInvitations(env: AuthEnv, caller: Caller): Promise<OpenInvitationRow[]> {
  loginSettings(env);
  ownerOnly(caller, "see invitations");
  return listOpenInvitations(env.db, caller.organizationId);
}

/** RevokeInvitation: an owner ends an open invitation; its token is then like a used one. */
export async function revokeInvitation(env: AuthEnv, caller: Caller, rawId: string): Promise<void> {
  loginSettings(env);
  ownerOnly(caller, "revoke invitations");
  personOnly(caller, "revoke invitations");
  const id = checkedId(rawId, "id", "invitation");
  if (!(await revokeOpenInvitation(env.db, caller.organizationId, id))) {
    throw notFoundIn("invitation", id);
  }
}

/** One message for every invitation that cannot be used: it tells nothing about which it was. */
export const badInvitation = (): DomainError =>
  new DomainError("precondition", "the invitation is unknown, used, expired, or for another email");

/**
 * Takes an open invitation for this email and user (in the caller's transaction) and makes the
 * user a member with its role; returns the organization joined. The other invitations open for
 * the email there end with it: kept, they would let the person back in after a removal.
 */
export async function acceptInvitation(
  tx: Queryable,
  token: string,
  email: string,
  userId: string,
): Promise<string> {
  const invitation = await takeInvitation(tx, token, email, userId);
  if (!invitation) throw badInvitation();
  await expireInvitationsFor(tx, invitation.organization_id, invitation.email);
  await addMembership(tx, invitation.organization_id, userId, invitation.role);
  return invitation.organization_id;
}

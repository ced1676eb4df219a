/**
 * Invitations: an owner (or the operator's `pnpm invite`) issues one for an email and a role;
 * SignUp or Login with its token joins the organization. The token exists in clear only in
 * what issueInvitation returns; the table keeps its hash.
 */
import { DomainError } from "@hivekeep/client-core/core";
import type { Queryable } from "../db/db.ts";
import { addMembership, membership, userByEmail } from "./account-store.ts";
import type { Caller, Role } from "./caller.ts";
import {
  type InvitationRow,
  insertInvitation,
  type NewInvitation,
  takeInvitation,
} from "./invitation-store.ts";
import { checkedEmail, ownerOnly } from "./rules.ts";
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

/** One message for every invitation that cannot be used: it tells nothing about which it was. */
export const badInvitation = (): DomainError =>
  new DomainError("precondition", "the invitation is unknown, used, expired, or for another email");

/**
 * Takes an open invitation for this email and user (in the caller's transaction) and makes the
 * user a member with its role; returns the organization joined.
 */
export async function acceptInvitation(
  tx: Queryable,
  token: string,
  email: string,
  userId: string,
): Promise<string> {
  const invitation = await takeInvitation(tx, token, email, userId);
  if (!invitation) throw badInvitation();
  await addMembership(tx, invitation.organization_id, userId, invitation.role);
  return invitation.organization_id;
}

/**
 * The members of the caller's organization: anyone lists them; an owner removes one, and the
 * removal ends everything the membership carried (sessions, API keys, open invitations the
 * member issued) and every invitation still open for the member's email, in the same
 * transaction, so their tokens stop at once and no invitation brings them back.
 */
import {
  type MemberRow,
  membership,
  listMembers as membersOf,
  ownerCount,
  removeMembership,
  userById,
} from "./account-store.ts";
import { revokeApiKeysOf } from "./api-key-store.ts";
import type { Caller } from "./caller.ts";
import { expireInvitationsBy, expireInvitationsFor } from "./invitation-store.ts";
import { checkedId, checkRemovable, notFoundIn, ownerOnly } from "./rules.ts";
import { revokeSessionsOf } from "./session-store.ts";
import { type AuthEnv, loginSettings } from "./settings.ts";

export async function listMembers(env: AuthEnv, caller: Caller): Promise<MemberRow[]> {
  loginSettings(env);
  return membersOf(env.db, caller.organizationId);
}

export async function removeMember(env: AuthEnv, caller: Caller, rawUserId: string): Promise<void> {
  loginSettings(env);
  ownerOnly(caller, "remove members");
  const userId = checkedId(rawUserId, "userId", "member");
  const org = caller.organizationId;
  await env.db.transaction(async (tx) => {
    const owners = await ownerCount(tx, org);
    const role = await membership(tx, org, userId);
    if (!role) throw notFoundIn("member", userId);
    checkRemovable(role, owners);
    await removeMembership(tx, org, userId);
    await revokeSessionsOf(tx, org, userId);
    await revokeApiKeysOf(tx, org, userId);
    await expireInvitationsBy(tx, org, userId);
    const user = await userById(tx, userId);
    if (user) await expireInvitationsFor(tx, org, user.email);
  });
}

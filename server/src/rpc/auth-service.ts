/**
 * AuthService (DESIGN.md §5), the RPC shell over server/src/auth: each method decodes its
 * request, calls the rule, and encodes the answer. The rules throw DomainError; the error
 * interceptor (client-core's one mapping) turns it into a Connect code. In single-user mode
 * only WhoAmI answers; the rest is `failed_precondition` (auth/settings.ts).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { invalidArgument } from "@hivekeep/client-core/ops";
import {
  type ApiKey,
  ApiKeySchema,
  AuthMode,
  type AuthService,
  InvitationSchema,
  MemberSchema,
  Role as ProtoRole,
} from "@hivekeep/proto";
import * as accounts from "../auth/accounts.ts";
import type { ApiKeyRow } from "../auth/api-key-store.ts";
import * as apiKeys from "../auth/api-keys.ts";
import type { Role } from "../auth/caller.ts";
import * as invitations from "../auth/invitations.ts";
import * as members from "../auth/members.ts";
import type { NewSession } from "../auth/session-store.ts";
import { callerOf, clientAddressKey } from "./context.ts";
import type { Deps } from "./deps.ts";

function roleToProto(role: Role): ProtoRole {
  return role === "owner" ? ProtoRole.OWNER : ProtoRole.MEMBER;
}

/** A role a request names; unset is a member. */
function roleFromProto(role: ProtoRole): Role {
  if (role !== ProtoRole.UNSPECIFIED && !(role in ProtoRole)) {
    throw invalidArgument(`role ${role} is not a Role`);
  }
  return role === ProtoRole.OWNER ? "owner" : "member";
}

function apiKeyToProto(row: ApiKeyRow): ApiKey {
  return create(ApiKeySchema, {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: timestampFromDate(row.created_at),
    user: { id: row.user_id, email: row.user_email },
    ...(row.last_used_at ? { lastUsedAt: timestampFromDate(row.last_used_at) } : {}),
  });
}

const sessionToProto = (session: NewSession) => ({
  sessionToken: session.token,
  expiresAt: timestampFromDate(session.expiresAt),
});

const signedInToProto = ({ user, organization, session }: accounts.SignedIn) => ({
  ...sessionToProto(session),
  user: { id: user.id, email: user.email },
  organization: { id: organization.id, name: organization.name },
});

export function authService(deps: Deps): ServiceImpl<typeof AuthService> {
  const address = (ctx: HandlerContext) => ctx.values.get(clientAddressKey);

  return {
    async signUp(req, ctx) {
      return signedInToProto(await accounts.signUp(deps, address(ctx), req));
    },

    async login(req, ctx) {
      return signedInToProto(await accounts.login(deps, address(ctx), req));
    },

    async logout(_req, ctx) {
      await accounts.logout(deps, callerOf(ctx));
      return {};
    },

    async whoAmI(_req, ctx) {
      const caller = callerOf(ctx);
      const me = await accounts.whoAmI(deps, caller);
      return {
        user: { id: caller.userId, email: me.email },
        organization: { id: me.organization.id, name: me.organization.name },
        role: roleToProto(caller.role),
        authMode: deps.auth?.mode === "login" ? AuthMode.LOGIN : AuthMode.NONE,
        demo: caller.demo,
        organizations: me.organizations.map((o) => ({ id: o.id, name: o.name })),
      };
    },

    async switchOrganization(req, ctx) {
      const { organization, session } = await accounts.switchOrganization(
        deps,
        callerOf(ctx),
        req.organizationId,
      );
      return {
        ...sessionToProto(session),
        organization: { id: organization.id, name: organization.name },
      };
    },

    async startDemo(_req, ctx) {
      return sessionToProto(await accounts.startDemo(deps, address(ctx)));
    },

    async createApiKey(req, ctx) {
      const { secret, key } = await apiKeys.createApiKey(deps, callerOf(ctx), req.name);
      return { apiKey: secret, key: apiKeyToProto(key) };
    },

    async listApiKeys(_req, ctx) {
      return { keys: (await apiKeys.listApiKeys(deps, callerOf(ctx))).map(apiKeyToProto) };
    },

    async revokeApiKey(req, ctx) {
      await apiKeys.revokeApiKey(deps, callerOf(ctx), req.id);
      return {};
    },

    async createInvitation(req, ctx) {
      const role = roleFromProto(req.role);
      const { invitation, token } = await invitations.createInvitation(deps, callerOf(ctx), {
        email: req.email,
        role,
      });
      return {
        invitation: create(InvitationSchema, {
          id: invitation.id,
          email: invitation.email,
          role: roleToProto(invitation.role),
          token,
          expiresAt: timestampFromDate(invitation.expires_at),
        }),
      };
    },

    async listInvitations(_req, ctx) {
      const rows = await invitations.listInvitations(deps, callerOf(ctx));
      return {
        invitations: rows.map((i) =>
          create(InvitationSchema, {
            id: i.id,
            email: i.email,
            role: roleToProto(i.role),
            createdAt: timestampFromDate(i.created_at),
            expiresAt: timestampFromDate(i.expires_at),
            ...(i.created_by
              ? { invitedBy: { id: i.created_by, email: i.created_by_email ?? "" } }
              : {}),
          }),
        ),
      };
    },

    async revokeInvitation(req, ctx) {
      await invitations.revokeInvitation(deps, callerOf(ctx), req.id);
      return {};
    },

    async listMembers(_req, ctx) {
      const rows = await members.listMembers(deps, callerOf(ctx));
      return {
        members: rows.map((m) =>
          create(MemberSchema, {
            user: { id: m.user_id, email: m.email },
            role: roleToProto(m.role),
            joinedAt: timestampFromDate(m.created_at),
          }),
        ),
      };
    },

    async removeMember(req, ctx) {
      await members.removeMember(deps, callerOf(ctx), req.userId);
      return {};
    },
  };
}

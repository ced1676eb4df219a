/**
 * Hosted-mode helpers: accounts made through the real AuthService over HTTP,
 * each with a view of the server that sends its token.
 */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { TestServer } from "./server.ts";

export const loginEnv = { HIVEKEEP_AUTH: "login" } as const;

/** Generous limits for suites that sign up many accounts from one address. */
export const relaxedThrottle = {
  windowMs: 60_000,
  perAddress: 10_000,
  perEmail: 100,
  perEmailAllAddresses: 100,
} as const;

export interface Account {
  readonly email: string;
  readonly password: string;
  readonly token: string;
  readonly userId: string;
  readonly organizationId: string;
  /** The server as this account sees it (every request carries its token). */
  readonly t: TestServer;
}

export const uniqueEmail = (name = "beekeeper") =>
  `${name}-${randomUUID().slice(0, 8)}@example.org`;

export async function signUp(
  t: TestServer,
  opts: { email?: string; organizationName?: string; invitationToken?: string } = {},
): Promise<Account> {
  const email = opts.email ?? uniqueEmail();
  const password = "correct horse battery";
  const r = await t.call("AuthService/SignUp", {
    email,
    password,
    organizationName: opts.organizationName ?? "Bees & Co",
    ...(opts.invitationToken ? { invitationToken: opts.invitationToken } : {}),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return {
    email,
    password,
    token: r.body.sessionToken,
    userId: r.body.user.id,
    organizationId: r.body.organization.id,
    t: t.as(r.body.sessionToken),
  };
}

/** An owner invites an email; the invited person signs up with the token. */
export async function invite(
  owner: Account,
  role: "ROLE_OWNER" | "ROLE_MEMBER" = "ROLE_MEMBER",
  email = uniqueEmail("invited"),
): Promise<{ email: string; token: string }> {
  const r = await owner.t.call("AuthService/CreateInvitation", { email, role });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { email, token: r.body.invitation.token };
}

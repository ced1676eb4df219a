/**
 * Single-user mode (HIVEKEEP_AUTH=none, contract §5.8): no header is needed,
 * WhoAmI names the local owner, and the account operations say there is
 * nothing to sign in to.
 */
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { callOk, expectError, useTestServer } from "../support/fixtures.ts";

describe.each(databaseKinds)("AuthService without login on %s", (kind) => {
  const t = useTestServer(kind);

  it("WhoAmI answers the local owner in AUTH_MODE_NONE", async () => {
    const me = await callOk(t, "AuthService/WhoAmI", {});
    expect(me).toEqual({
      user: { id: "00000000-0000-7000-8000-000000000002", email: "local@hivekeep.invalid" },
      organization: { id: "00000000-0000-7000-8000-000000000001", name: "My apiaries" },
      role: "ROLE_OWNER",
      authMode: "AUTH_MODE_NONE",
      organizations: [{ id: "00000000-0000-7000-8000-000000000001", name: "My apiaries" }],
    });
  });

  it("a bearer header is ignored", async () => {
    const r = await t.call("ApiaryService/ListApiaries", {}, { authorization: "Bearer hks_nope" });
    expect(r.status).toBe(200);
  });

  it.each([
    ["SignUp", { email: "a@example.org", password: "long enough", organizationName: "O" }],
    ["Login", { email: "a@example.org", password: "long enough" }],
    ["Logout", {}],
    ["StartDemo", {}],
    ["CreateApiKey", { name: "k" }],
    ["ListApiKeys", {}],
    ["RevokeApiKey", { id: "x" }],
    ["CreateInvitation", { email: "a@example.org" }],
    ["ListInvitations", {}],
    ["RevokeInvitation", { id: "x" }],
    ["ListMembers", {}],
    ["RemoveMember", { userId: "x" }],
    ["SwitchOrganization", { organizationId: "x" }],
  ])("%s is failed_precondition", async (method, body) => {
    const e = expectError(await t.call(`AuthService/${method}`, body), 400);
    expect(e.code).toBe("failed_precondition");
    expect(e.message).toMatch(/HIVEKEEP_AUTH=none/);
  });
});

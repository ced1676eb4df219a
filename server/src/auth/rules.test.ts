import { DomainError } from "@hivekeep/client-core/core";
import { describe, expect, it } from "vitest";
import type { Caller } from "./caller.ts";
import {
  canSwitch,
  checkedEmail,
  checkedId,
  checkedName,
  checkedNewPassword,
  checkRemovable,
  isEmailAddress,
  ownerOnly,
  sessionCredential,
  yours,
} from "./rules.ts";

/** `[code, field, message]` of the DomainError `fn` throws; fails when it throws none. */
function refusal(fn: () => unknown): [string, string | undefined, string] {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return [e.code, e.field, e.message];
    throw e;
  }
  throw new Error("expected a DomainError");
}

const id = "0190a000-0000-7000-8000-000000000001";
const caller = (over: Partial<Caller> = {}): Caller => ({
  organizationId: "0190a000-0000-7000-8000-0000000000aa",
  userId: id,
  role: "member",
  demo: false,
  ...over,
});

describe("input rules", () => {
  it("an email is trimmed and must look like one", () => {
    expect(checkedEmail("  ana@example.org ")).toBe("ana@example.org");
    expect(refusal(() => checkedEmail("ana@example"))).toEqual([
      "invalid",
      "email",
      "email must be an email address like name@example.org",
    ]);
    expect(isEmailAddress(`${"a".repeat(243)}@example.org`)).toBe(false);
    expect(isEmailAddress("a\u0000b@example.org")).toBe(false);
  });

  it("a name is trimmed, not empty, at most 200 characters, storable text", () => {
    expect(checkedName("  Hill farm ", "organizationName")).toBe("Hill farm");
    expect(checkedName("x".repeat(200), "name")).toBe("x".repeat(200));
    expect(refusal(() => checkedName("   ", "organizationName"))).toEqual([
      "invalid",
      "organizationName",
      "organizationName must not be empty",
    ]);
    expect(refusal(() => checkedName("x".repeat(201), "name"))).toEqual([
      "invalid",
      "name",
      "name must be at most 200 characters",
    ]);
    expect(refusal(() => checkedName("a\u0000", "name"))).toEqual([
      "invalid",
      "name",
      "name must be well-formed Unicode text without U+0000",
    ]);
  });

  it("a new password has 8 to 1024 characters, kept as given", () => {
    expect(checkedNewPassword(" 8 chars")).toBe(" 8 chars");
    expect(refusal(() => checkedNewPassword("7 chars"))).toEqual([
      "invalid",
      "password",
      "password must be at least 8 characters",
    ]);
    expect(refusal(() => checkedNewPassword("p".repeat(1025)))).toEqual([
      "invalid",
      "password",
      "password must be at most 1024 characters",
    ]);
  });

  it("an id is required, and a malformed one names nothing (not_found)", () => {
    expect(checkedId(id, "userId", "member")).toBe(id);
    expect(refusal(() => checkedId("", "userId", "member"))).toEqual([
      "invalid",
      "userId",
      "userId must not be empty",
    ]);
    expect(refusal(() => checkedId("no such/id", "organizationId", "organization", yours))).toEqual(
      ["not_found", undefined, 'organization "no such/id" not found among yours'],
    );
  });
});

describe("who may do what", () => {
  it("only an owner invites or removes members", () => {
    expect(ownerOnly(caller({ role: "owner" }), "invite members")).toBeUndefined();
    expect(refusal(() => ownerOnly(caller(), "remove members"))).toEqual([
      "permission_denied",
      undefined,
      "only an owner can remove members",
    ]);
  });

  it("the last owner cannot be removed; a member or one of several owners can", () => {
    expect(checkRemovable("member", 1)).toBeUndefined();
    expect(checkRemovable("owner", 2)).toBeUndefined();
    expect(refusal(() => checkRemovable("owner", 1))).toEqual([
      "precondition",
      undefined,
      "an organization needs an owner: invite another owner before removing the last one",
    ]);
  });

  it("Logout and SwitchOrganization act on a session, not an API key or a local caller", () => {
    const session = caller({ credential: { kind: "session", tokenHash: "h1" } });
    expect(sessionCredential(session, "Logout")).toBe("h1");
    const key = caller({ credential: { kind: "apiKey", tokenHash: "h2" } });
    expect(refusal(() => sessionCredential(key, "Logout"))).toEqual([
      "precondition",
      undefined,
      "Logout ends a session; an API key is revoked with RevokeApiKey",
    ]);
    expect(refusal(() => sessionCredential(caller(), "SwitchOrganization"))).toEqual([
      "precondition",
      undefined,
      "SwitchOrganization needs a session; an API key belongs to one organization",
    ]);
  });

  it("only a signed-in person's session may switch organizations", () => {
    const session = { kind: "session", tokenHash: "h" } as const;
    expect(canSwitch(caller({ credential: session }))).toBe(true);
    expect(canSwitch(caller({ credential: session, demo: true }))).toBe(false);
    expect(canSwitch(caller({ credential: { kind: "apiKey", tokenHash: "h" } }))).toBe(false);
    expect(canSwitch(caller({ credential: { kind: "local" } }))).toBe(false);
    expect(canSwitch(caller())).toBe(false);
  });
});

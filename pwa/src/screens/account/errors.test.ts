import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { authFailure, invitationFromLocation, looksLikeEmail } from "./errors.ts";

const err = (message: string, code: Code) => new ConnectError(message, code);

describe("authFailure", () => {
  it("says offline first, whatever the error", () => {
    expect(authFailure(err("email or password is wrong", Code.Unauthenticated), false)).toEqual({
      key: "offline",
    });
  });

  it.each([
    ["email or password is wrong", Code.Unauthenticated, { key: "wrongCredentials" }],
    [
      "the token is unknown, expired or revoked; sign in again",
      Code.Unauthenticated,
      { key: "sessionEnded" },
    ],
    [
      "too many sign-in attempts; try again in 42 s",
      Code.ResourceExhausted,
      { key: "tooMany", seconds: 42 },
    ],
    [
      "this email cannot sign up; if it is yours, log in instead",
      Code.AlreadyExists,
      { key: "emailTaken" },
    ],
    ["a@example.org is already a member", Code.AlreadyExists, { key: "alreadyMember" }],
    [
      "the invitation is unknown, used, expired, or for another email",
      Code.FailedPrecondition,
      { key: "badInvitation" },
    ],
    [
      "demo sessions are not enabled on this server (HIVEKEEP_DEMO)",
      Code.FailedPrecondition,
      { key: "demoUnavailable" },
    ],
    [
      "an organization needs an owner: invite another owner before removing the last one",
      Code.FailedPrecondition,
      { key: "lastOwner" },
    ],
    [
      "this server runs without sign-in (HIVEKEEP_AUTH=none); no account is needed",
      Code.FailedPrecondition,
      { key: "notHosted" },
    ],
    [
      "sign-up is closed on this server; ask an organization owner for an invitation",
      Code.PermissionDenied,
      { key: "signupClosed" },
    ],
    [
      "this account is not a member of any organization; ask an owner for an invitation",
      Code.PermissionDenied,
      { key: "noOrganization" },
    ],
    [
      "a demo session is read-only: CreateApiKey is not allowed",
      Code.PermissionDenied,
      { key: "readOnly" },
    ],
    ["only an owner can invite members", Code.PermissionDenied, { key: "ownerOnly" }],
    ["organization x not found among yours", Code.NotFound, { key: "notFound" }],
    [
      "email must be an email address like name@example.org",
      Code.InvalidArgument,
      { key: "invalidEmail" },
    ],
    ["password must be at least 8 characters", Code.InvalidArgument, { key: "passwordLength" }],
    ["Failed to fetch", Code.Unknown, { key: "unreachable" }],
    ["upstream down", Code.Unavailable, { key: "unreachable" }],
    [
      "name must not be empty",
      Code.InvalidArgument,
      { key: "other", message: "name must not be empty" },
    ],
  ] as const)("%s (%s)", (message, code, expected) => {
    expect(authFailure(err(message, code), true)).toEqual(expected);
  });
});

describe("invitationFromLocation", () => {
  it("reads the token from the fragment of /join only", () => {
    expect(invitationFromLocation({ pathname: "/join", hash: "#hki_abc-DEF_1" })).toBe(
      "hki_abc-DEF_1",
    );
    expect(invitationFromLocation({ pathname: "/join", hash: "" })).toBeUndefined();
    expect(invitationFromLocation({ pathname: "/join", hash: "#" })).toBeUndefined();
    expect(invitationFromLocation({ pathname: "/hives", hash: "#hki_abc" })).toBeUndefined();
  });
});

describe("looksLikeEmail", () => {
  it("accepts addresses and refuses the rest", () => {
    expect(looksLikeEmail(" ana@example.org ")).toBe(true);
    expect(looksLikeEmail("ana@example")).toBe(false);
    expect(looksLikeEmail("ana example.org")).toBe(false);
  });
});

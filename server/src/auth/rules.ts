/**
 * The pure rules of hosted mode, shared by the account operations (accounts.ts, members.ts,
 * invitations.ts, api-keys.ts) and the operator's commands: what a request's fields must be,
 * and what a caller may do. They throw DomainError; client-core's one mapping turns it into a
 * Connect code.
 */
import {
  DomainError,
  invalid,
  isEntityId,
  isStorableText,
  quote,
} from "@hivekeep/client-core/core";
import type { Caller, Role } from "./caller.ts";

const minPassword = 8;
const maxPassword = 1024;
const maxName = 200;

/**
 * An address with one @ and a dot in the domain; at most 254 characters (RFC 5321); text the
 * database can store (no U+0000: client-core's rule for every stored text).
 */
export function isEmailAddress(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && isStorableText(email);
}

/** The email of a new account or invitation, trimmed. */
export function checkedEmail(raw: string): string {
  const email = raw.trim();
  if (!isEmailAddress(email)) {
    throw invalid("email", "email must be an email address like name@example.org");
  }
  return email;
}

/** A stored name: the text rules of a pushed change (client-core), at most `maxName` characters. */
export function checkedName(raw: string, field: string): string {
  if (!isStorableText(raw)) {
    throw invalid(field, `${field} must be well-formed Unicode text without U+0000`);
  }
  const name = raw.trim();
  if (name === "") throw invalid(field, `${field} must not be empty`);
  if (name.length > maxName) throw invalid(field, `${field} must be at most ${maxName} characters`);
  return name;
}

export function checkedNewPassword(password: string): string {
  if (password.length < minPassword) {
    throw invalid("password", `password must be at least ${minPassword} characters`);
  }
  if (password.length > maxPassword) {
    throw invalid("password", `password must be at most ${maxPassword} characters`);
  }
  return password;
}

/** Where an organization a request names is looked for: the caller's own. */
export const yours = " among yours";

/** "<what> "<id>" not found<where>", the id quoted as every echoed input is (core's quote). */
export const notFoundIn = (what: string, id: string, where = ""): DomainError =>
  new DomainError("not_found", `${what} ${quote(id)} not found${where}`);

/**
 * An id a request names, with the shape check Push uses: a malformed one names nothing, so it is
 * `not_found`, and never reaches the database.
 */
export function checkedId(id: string, field: string, what: string, where = ""): string {
  if (id === "") throw invalid(field, `${field} must not be empty`);
  if (!isEntityId(id)) throw notFoundIn(what, id, where);
  return id;
}

/** Inviting and removing members is an owner's: `what` names the act in the message. */
export function ownerOnly(caller: Caller, what: string): void {
  if (caller.role !== "owner") {
    throw new DomainError("permission_denied", `only an owner can ${what}`);
  }
}

/**
 * Minting and ending credentials is a person's, through a session: an API key may not create or
 * revoke keys or invitations. A leaked key then cannot make itself a successor that outlives
 * its revocation, and no key has children to orphan. `what` names the act in the message.
 */
export function personOnly(caller: Caller, what: string): void {
  if (caller.credential?.kind === "apiKey") {
    throw new DomainError(
      "permission_denied",
      `an API key cannot ${what}; sign in with a session to do it`,
    );
  }
}

/**
 * An organization keeps an owner: the last one cannot be removed. `role` is the member's,
 * `owners` how many the organization has (counted under lock).
 */
export function checkRemovable(role: Role, owners: number): void {
  if (role === "owner" && owners <= 1) {
    throw new DomainError(
      "precondition",
      "an organization needs an owner: invite another owner before removing the last one",
    );
  }
}

/**
 * The session token (hashed) behind a call that acts on its own session: Logout ends it,
 * SwitchOrganization replaces it. An API key or a local caller has none.
 */
export function sessionCredential(caller: Caller, method: "Logout" | "SwitchOrganization"): string {
  const credential = caller.credential;
  if (credential?.kind !== "session") {
    throw new DomainError(
      "precondition",
      method === "Logout"
        ? "Logout ends a session; an API key is revoked with RevokeApiKey"
        : "SwitchOrganization needs a session; an API key belongs to one organization",
    );
  }
  return credential.tokenHash;
}

/** A signed-in person's session (not an API key, not the demo) may switch organizations. */
export const canSwitch = (caller: Caller): boolean =>
  caller.credential?.kind === "session" && !caller.demo;

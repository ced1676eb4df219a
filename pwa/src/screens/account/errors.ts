/**
 * What went wrong with a call to the server's AuthService, as one of a few things the user can
 * act on (the server's messages are English; the app says them in the chosen language).
 */
import { Code, ConnectError } from "@connectrpc/connect";

export type AuthFailure =
  | { readonly key: "offline" }
  | { readonly key: "unreachable" }
  | { readonly key: "wrongCredentials" }
  | { readonly key: "tooMany"; readonly seconds: number }
  | { readonly key: "emailTaken" }
  | { readonly key: "badInvitation" }
  | { readonly key: "signupClosed" }
  | { readonly key: "noOrganization" }
  | { readonly key: "demoUnavailable" }
  | { readonly key: "notHosted" }
  | { readonly key: "sessionEnded" }
  | { readonly key: "ownerOnly" }
  | { readonly key: "readOnly" }
  | { readonly key: "alreadyMember" }
  | { readonly key: "lastOwner" }
  | { readonly key: "notFound" }
  | { readonly key: "invalidEmail" }
  | { readonly key: "passwordLength" }
  | { readonly key: "other"; readonly message: string };

/** Sorts a failed AuthService call; `online` is what the browser says (navigator.onLine). */
export function authFailure(err: unknown, online: boolean): AuthFailure {
  if (!online) return { key: "offline" };
  const e = ConnectError.from(err);
  const m = e.rawMessage;
  switch (e.code) {
    case Code.Unavailable:
    case Code.Unknown:
    case Code.DeadlineExceeded:
    case Code.Canceled:
      return { key: "unreachable" };
    case Code.Unauthenticated:
      return /email or password/i.test(m) ? { key: "wrongCredentials" } : { key: "sessionEnded" };
    case Code.ResourceExhausted: {
      const seconds = Number(/(\d+)\s*s\b/.exec(m)?.[1] ?? 60);
      return { key: "tooMany", seconds };
    }
    case Code.AlreadyExists:
      return /already a member/i.test(m) ? { key: "alreadyMember" } : { key: "emailTaken" };
    case Code.FailedPrecondition:
      if (/invitation/i.test(m)) return { key: "badInvitation" };
      if (/demo/i.test(m)) return { key: "demoUnavailable" };
      if (/owner/i.test(m)) return { key: "lastOwner" };
      if (/HIVEKEEP_AUTH=none/.test(m)) return { key: "notHosted" };
      break;
    case Code.PermissionDenied:
      if (/sign-up is closed/i.test(m)) return { key: "signupClosed" };
      if (/not a member of any organization/i.test(m)) return { key: "noOrganization" };
      if (/read-only/i.test(m)) return { key: "readOnly" };
      if (/owner/i.test(m)) return { key: "ownerOnly" };
      break;
    case Code.NotFound:
      return { key: "notFound" };
    case Code.InvalidArgument:
      if (/^email/i.test(m)) return { key: "invalidEmail" };
      if (/^password/i.test(m)) return { key: "passwordLength" };
      break;
  }
  return { key: "other", message: m || e.message };
}

/** A plausible email address (the server checks for real). */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** The invitation token of an invitation link (`/join#<token>`), if this is one. */
export function invitationFromLocation(loc: {
  pathname: string;
  hash: string;
}): string | undefined {
  if (loc.pathname !== "/join") return undefined;
  const token = decodeURIComponent(loc.hash.replace(/^#/, "")).trim();
  return token === "" ? undefined : token;
}

/** Rules of hosted mode shared by the RPCs and the operator's commands. */

import { isStorableText } from "@hivekeep/client-core/core";

/**
 * An address with one @ and a dot in the domain; at most 254 characters (RFC 5321); text the
 * database can store (no U+0000: client-core's rule for every stored text).
 */
export function isEmailAddress(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && isStorableText(email);
}

/** How long an invitation can be used. */
export const invitationTtlMs = 7 * 86_400_000;

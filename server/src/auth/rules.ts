/** Rules of hosted mode shared by the RPCs and the operator's commands. */

/** An address with one @ and a dot in the domain; at most 254 characters (RFC 5321). */
export function isEmailAddress(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

/** How long an invitation can be used. */
export const invitationTtlMs = 7 * 86_400_000;

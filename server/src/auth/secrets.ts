/**
 * Secrets of hosted mode. Tokens are 256 random bits with a fixed prefix that
 * says what they are (`hks_` session, `hk_` API key, `hki_` invitation); the
 * database keeps only their SHA-256 (a slow hash adds nothing to 256 bits of
 * entropy). Passwords are hashed with scrypt and compared in constant time.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

export const sessionPrefix = "hks_";
export const apiKeyPrefix = "hk_";
export const invitationPrefix = "hki_";

export function newToken(prefix: string): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The non-secret start of an API key that ListApiKeys shows, e.g. `hk_Ab3dE9`. */
export function visiblePrefix(token: string): string {
  return token.slice(0, apiKeyPrefix.length + 6);
}

// scrypt cost: N=2^15, r=8, p=1 (32 MiB, about 60 ms here), as OWASP recommends.
const cost = { N: 32_768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const keyLength = 32;

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFKC"),
      salt,
      keyLength,
      { N, r, p, maxmem: cost.maxmem },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/** `scrypt$N$r$p$<salt>$<hash>` (base64url), so the cost can rise later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost.N, cost.r, cost.p);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")]
    .map(String)
    .join("$");
}

/** A real hash of nothing anyone knows: unknown emails cost the same time as known ones. */
let decoy: Promise<string> | undefined;

/**
 * Checks a password against a stored hash in constant time. With no stored
 * hash (unknown email, or a user without a password) it does the same work
 * against a decoy and answers false, so timing does not tell the two apart.
 */
export async function verifyPassword(password: string, stored: string | undefined | null) {
  decoy ??= hashPassword(randomBytes(16).toString("hex"));
  const encoded = stored ?? (await decoy);
  const [scheme, n, r, p, salt, hash] = encoded.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), +`${n}`, +`${r}`, +`${p}`);
  const same = actual.length === expected.length && timingSafeEqual(actual, expected);
  return same && stored !== undefined && stored !== null;
}

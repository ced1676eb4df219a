/**
 * Which caller a bearer token stands for: sessions and API keys joined with the membership they
 * act under, so a token stops with its membership. Times come from the database clock (now()),
 * so every server process agrees on expiry.
 */
import type { Queryable } from "../db/db.ts";
import type { Caller, Credential, Role } from "./caller.ts";
import { apiKeyPrefix, hashToken, sessionPrefix } from "./secrets.ts";

/**
 * The caller a bearer token stands for, or undefined when the token is
 * unknown, revoked, expired, or its user is no longer a member of the
 * organization (so removing a member stops their tokens at once).
 */
export async function callerForToken(q: Queryable, token: string): Promise<Caller | undefined> {
  const kind = token.startsWith(sessionPrefix)
    ? "session"
    : token.startsWith(apiKeyPrefix)
      ? "apiKey"
      : undefined;
  return kind && callerFor(q, { kind, tokenHash: hashToken(token) });
}

/**
 * How long the caller's credential has left, in ms by the database's clock: Infinity when it
 * does not expire (an API key, a local caller), undefined when it no longer works (long streams
 * check it now and then).
 */
export async function credentialTimeLeft(
  q: Queryable,
  caller: Caller,
): Promise<number | undefined> {
  const credential = caller.credential;
  if (credential === undefined || credential.kind === "local") return Number.POSITIVE_INFINITY;
  const now = await callerFor(q, credential);
  return now && (now.expiresInMs ?? Number.POSITIVE_INFINITY);
}

type TokenCredential = Extract<Credential, { tokenHash: string }>;

async function callerFor(q: Queryable, credential: TokenCredential): Promise<Caller | undefined> {
  if (credential.kind === "session") {
    const [row] = await q.query<{
      organization_id: string;
      user_id: string;
      role: Role;
      demo: boolean;
      expires_in_ms: number;
    }>(
      `select s.organization_id, s.user_id, m.role, (s.demo or o.demo) as demo,
              (extract(epoch from s.expires_at - now()) * 1000)::float8 as expires_in_ms
         from sessions s
         join memberships m on m.organization_id = s.organization_id and m.user_id = s.user_id
         join organizations o on o.id = s.organization_id
        where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now()`,
      [credential.tokenHash],
    );
    return row && { ...callerOfRow(row, credential), expiresInMs: row.expires_in_ms };
  }
  const [row] = await q.query<{
    organization_id: string;
    user_id: string;
    id: string;
    role: Role;
    demo: boolean;
    fresh: boolean;
  }>(
    `select k.organization_id, k.user_id, k.id, m.role, o.demo,
            coalesce(k.last_used_at > now() - interval '1 minute', false) as fresh
       from api_keys k
       join memberships m on m.organization_id = k.organization_id and m.user_id = k.user_id
       join organizations o on o.id = k.organization_id
      where k.key_hash = $1 and k.revoked_at is null`,
    [credential.tokenHash],
  );
  if (!row) return undefined;
  // "Last used" is kept to the minute: a scale posting every few seconds
  // does not turn every read into a write.
  if (!row.fresh) {
    await q.query(
      "update api_keys set last_used_at = now() where organization_id = $1 and id = $2",
      [row.organization_id, row.id],
    );
  }
  return callerOfRow(row, credential);
}

const callerOfRow = (
  row: { organization_id: string; user_id: string; role: Role; demo: boolean },
  credential: TokenCredential,
): Caller => ({
  organizationId: row.organization_id,
  userId: row.user_id,
  role: row.role,
  demo: row.demo,
  credential,
});

/**
 * The SQL of sessions. Times come from the database clock (now()), so every server process
 * agrees on expiry; a token exists in clear only in what createSession returns.
 */
import type { Queryable } from "../db/db.ts";
import { credentialChannel, credentialPayload } from "../store/feed-notifier.ts";
import { hashToken, newToken, sessionPrefix } from "./secrets.ts";

/** A session just created: its token in clear (the only time it exists so) and its end. */
export interface NewSession {
  readonly token: string;
  readonly expiresAt: Date;
}

/** Creates a session and returns its token. */
export async function createSession(
  q: Queryable,
  s: { organizationId: string; userId: string; ttlMs: number; demo?: boolean },
): Promise<NewSession> {
  const token = newToken(sessionPrefix);
  const [row] = await q.query<{ expires_at: Date }>(
    `insert into sessions (token_hash, organization_id, user_id, demo, expires_at)
     values ($1, $2, $3, $4, now() + $5 * interval '1 millisecond') returning expires_at`,
    [hashToken(token), s.organizationId, s.userId, s.demo ?? false, s.ttlMs],
  );
  if (!row) throw new Error("insert into sessions returned nothing");
  // Expired sessions of this user are of no further use.
  await q.query("delete from sessions where user_id = $1 and expires_at < now()", [s.userId]);
  return { token, expiresAt: row.expires_at };
}

/**
 * Revokes a session. Its streams hear of it on commit (credentialChannel, in the same statement:
 * one round trip, and no revocation without its notification) and end within a moment.
 */
export async function revokeSession(q: Queryable, tokenHash: string): Promise<void> {
  await q.query(
    `with ended as (
       update sessions set revoked_at = now() where token_hash = $1 and revoked_at is null
       returning organization_id, user_id, token_hash)
     select pg_notify($2, organization_id || ':' || user_id || ':' || token_hash) from ended`,
    [tokenHash, credentialChannel],
  );
}

/**
 * Revokes every live session of a user in an organization (the member was removed); their
 * streams hear of it on commit (a data-modifying WITH always runs).
 */
export async function revokeSessionsOf(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<void> {
  await q.query(
    `with ended as (
       update sessions set revoked_at = now()
        where organization_id = $1 and user_id = $2 and revoked_at is null)
     select pg_notify($3, $4)`,
    [organizationId, userId, credentialChannel, credentialPayload(organizationId, userId)],
  );
}

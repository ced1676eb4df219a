/**
 * The SQL of API keys. A key exists in clear only in what createApiKey returns; the table keeps
 * its hash and a visible prefix.
 */
import type { Queryable } from "../db/db.ts";
import { credentialChannel, credentialPayload } from "../store/feed-notifier.ts";
import type { Caller } from "./caller.ts";
import { apiKeyPrefix, hashToken, newToken, visiblePrefix } from "./secrets.ts";

export interface ApiKeyRow {
  readonly id: string;
  /** Whose key it is. */
  readonly user_id: string;
  readonly user_email: string;
  readonly name: string;
  readonly prefix: string;
  readonly created_at: Date;
  readonly last_used_at: Date | null;
}

export async function createApiKey(
  q: Queryable,
  k: { organizationId: string; userId: string; id: string; name: string },
): Promise<{ secret: string; key: ApiKeyRow }> {
  const secret = newToken(apiKeyPrefix);
  const [row] = await q.query<ApiKeyRow & Record<string, unknown>>(
    `with k as (
       insert into api_keys (organization_id, id, user_id, name, prefix, key_hash)
       values ($1, $2, $3, $4, $5, $6)
       returning id, user_id, name, prefix, created_at, last_used_at)
     select k.*, u.email as user_email from k join users u on u.id = k.user_id`,
    [k.organizationId, k.id, k.userId, k.name, visiblePrefix(secret), hashToken(secret)],
  );
  if (!row) throw new Error("insert into api_keys returned nothing");
  return { secret, key: row };
}

/**
 * The live keys of the organization the caller may see, newest first: every one for an owner
 * (who may revoke any), the caller's own for a member.
 */
export async function listApiKeys(q: Queryable, caller: Caller): Promise<ApiKeyRow[]> {
  return q.query<ApiKeyRow & Record<string, unknown>>(
    `select k.id, k.user_id, u.email as user_email, k.name, k.prefix, k.created_at,
            k.last_used_at
       from api_keys k join users u on u.id = k.user_id
      where k.organization_id = $1 and k.revoked_at is null and (k.user_id = $2 or $3::boolean)
      order by k.created_at desc, k.id desc`,
    [caller.organizationId, caller.userId, caller.role === "owner"],
  );
}

/**
 * Revokes a live key of the organization: the caller's own, or any key when
 * the caller is an owner. False when there is no such key for this caller.
 * The key's streams hear of it on commit (credentialChannel, in the same statement).
 */
export async function revokeApiKey(q: Queryable, caller: Caller, id: string): Promise<boolean> {
  const rows = await q.query(
    `with ended as (
       update api_keys set revoked_at = now()
        where organization_id = $1 and id = $2 and revoked_at is null
          and (user_id = $3 or $4::boolean)
        returning organization_id, user_id, key_hash)
     select pg_notify($5, organization_id || ':' || user_id || ':' || key_hash) from ended`,
    [caller.organizationId, id, caller.userId, caller.role === "owner", credentialChannel],
  );
  return rows.length > 0;
}

/**
 * Revokes every live key of a user in an organization (the member was removed); their streams
 * hear of it on commit (a data-modifying WITH always runs).
 */
export async function revokeApiKeysOf(
  q: Queryable,
  organizationId: string,
  userId: string,
): Promise<void> {
  await q.query(
    `with ended as (
       update api_keys set revoked_at = now()
        where organization_id = $1 and user_id = $2 and revoked_at is null)
     select pg_notify($3, $4)`,
    [organizationId, userId, credentialChannel, credentialPayload(organizationId, userId)],
  );
}

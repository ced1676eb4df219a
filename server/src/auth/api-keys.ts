/**
 * API keys: a caller's long-lived tokens for one organization (a scale, a script). Each caller
 * lists their own, an owner every key of the organization, and may revoke anyone's
 * (api-key-store.ts). Only a session mints or revokes keys (rules.ts's personOnly).
 */
import {
  type ApiKeyRow,
  createApiKey as insertApiKey,
  listApiKeys as keysOf,
  revokeApiKey as revokeKey,
} from "./api-key-store.ts";
import type { Caller } from "./caller.ts";
import { checkedId, checkedName, notFoundIn, personOnly } from "./rules.ts";
import { type AuthEnv, loginSettings } from "./settings.ts";

export async function createApiKey(
  env: AuthEnv,
  caller: Caller,
  rawName: string,
): Promise<{ secret: string; key: ApiKeyRow }> {
  loginSettings(env);
  personOnly(caller, "create API keys");
  const name = checkedName(rawName, "name");
  return insertApiKey(env.db, {
    organizationId: caller.organizationId,
    userId: caller.userId,
    id: env.newId(),
    name,
  });
}

export async function listApiKeys(env: AuthEnv, caller: Caller): Promise<ApiKeyRow[]> {
  loginSettings(env);
  return keysOf(env.db, caller);
}

export async function revokeApiKey(env: AuthEnv, caller: Caller, rawId: string): Promise<void> {
  loginSettings(env);
  personOnly(caller, "revoke API keys");
  const id = checkedId(rawId, "id", "API key");
  if (!(await revokeKey(env.db, caller, id))) throw notFoundIn("API key", id);
}

import type { Queryable } from "../db/db.ts";

/**
 * Self-hosted single-user mode (HIVEKEEP_AUTH=none) runs as one fixed
 * organization and user, created on first start. Fixed ids keep device
 * replicas valid across restarts.
 */
export const localOrganizationId = "00000000-0000-7000-8000-000000000001";
export const localUserId = "00000000-0000-7000-8000-000000000002";

/** The caller of every request in single-user mode. */
export const localCaller = {
  organizationId: localOrganizationId,
  userId: localUserId,
  role: "owner",
  demo: false,
} as const;

export async function ensureLocalTenant(q: Queryable): Promise<void> {
  await q.query(
    `insert into organizations (id, name) values ($1, 'My apiaries') on conflict (id) do nothing`,
    [localOrganizationId],
  );
  await q.query(
    `insert into users (id, email) values ($1, 'local@hivekeep.invalid') on conflict (id) do nothing`,
    [localUserId],
  );
  await q.query(
    `insert into memberships (organization_id, user_id, role) values ($1, $2, 'owner')
     on conflict (organization_id, user_id) do nothing`,
    [localOrganizationId, localUserId],
  );
}

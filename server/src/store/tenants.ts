import type { Caller, Role } from "../auth/caller.ts";
import type { Queryable } from "../db/db.ts";

/**
 * Self-hosted single-user mode (HIVEKEEP_AUTH=none) runs as one fixed
 * organization and user, created on first start. Fixed ids keep device
 * replicas valid across restarts.
 */
export const localOrganizationId = "00000000-0000-7000-8000-000000000001";
export const localUserId = "00000000-0000-7000-8000-000000000002";

/** The caller of every request in single-user mode. */
export const localCaller: Caller = {
  organizationId: localOrganizationId,
  userId: localUserId,
  role: "owner",
  demo: false,
};

/** Creates an organization with one member if they do not exist yet (fixed-id tenants). */
export async function ensureTenant(
  q: Queryable,
  t: {
    organizationId: string;
    name: string;
    demo?: boolean;
    userId: string;
    email: string;
    role: Role;
  },
): Promise<void> {
  await q.query(
    "insert into organizations (id, name, demo) values ($1, $2, $3) on conflict (id) do nothing",
    [t.organizationId, t.name, t.demo ?? false],
  );
  await q.query("insert into users (id, email) values ($1, $2) on conflict (id) do nothing", [
    t.userId,
    t.email,
  ]);
  await q.query(
    `insert into memberships (organization_id, user_id, role) values ($1, $2, $3)
     on conflict (organization_id, user_id) do nothing`,
    [t.organizationId, t.userId, t.role],
  );
}

export async function ensureLocalTenant(q: Queryable): Promise<void> {
  await ensureTenant(q, {
    organizationId: localOrganizationId,
    name: "My apiaries",
    userId: localUserId,
    email: "local@hivekeep.invalid",
    role: "owner",
  });
}

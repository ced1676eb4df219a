/**
 * The demo organization behind StartDemo: one shared, read-only organization
 * seeded once with a season of sample data through the same RPC handlers the
 * server runs. Several processes starting at once seed it once: the process
 * whose row in `demo_seed` is inserted does the work, the others wait for
 * `done_at`. A claim older than ten minutes without `done_at` (a process died
 * while seeding) is taken over: the half-seeded rows are wiped and seeding
 * starts again.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { entities } from "@hivekeep/client-core/core";
import type { Deps } from "../rpc/deps.ts";
import { ensureTenant } from "../store/tenants.ts";
import { transportAs } from "./in-process.ts";
import { seedSeason } from "./season.ts";

export const demoOrganizationId = "00000000-0000-7000-8000-00000000d001";
export const demoUserId = "00000000-0000-7000-8000-00000000d002";

export interface DemoTenant {
  readonly organizationId: string;
  readonly userId: string;
}

const staleClaim = "10 minutes";

/**
 * Returns a function that resolves once the demo organization is seeded; the
 * first call starts the work, later calls share it (a failure is retried on
 * the next call).
 */
export function demoPreparer(deps: Deps): () => Promise<DemoTenant> {
  let ready: Promise<DemoTenant> | undefined;
  return () => {
    ready ??= prepare(deps).catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    return ready;
  };
}

async function prepare(deps: Deps): Promise<DemoTenant> {
  const { db } = deps;
  await db.transaction((tx) =>
    ensureTenant(tx, {
      organizationId: demoOrganizationId,
      name: "Demo apiaries",
      demo: true,
      userId: demoUserId,
      email: "demo@hivekeep.invalid",
      role: "member",
    }),
  );
  const tenant = { organizationId: demoOrganizationId, userId: demoUserId };
  for (;;) {
    const claimed = await db.query(
      `insert into demo_seed (organization_id) values ($1)
       on conflict (organization_id) do update set claimed_at = now()
         where demo_seed.done_at is null and demo_seed.claimed_at < now() - interval '${staleClaim}'
       returning claimed_at`,
      [demoOrganizationId],
    );
    if (claimed.length > 0) {
      await seed(deps);
      await db.query("update demo_seed set done_at = now() where organization_id = $1", [
        demoOrganizationId,
      ]);
      deps.log.info("demo organization seeded");
      return tenant;
    }
    const [state] = await db.query<{ done_at: Date | null }>(
      "select done_at from demo_seed where organization_id = $1",
      [demoOrganizationId],
    );
    if (state?.done_at) return tenant;
    await sleep(500, undefined, { signal: deps.shutdown });
  }
}

async function seed(deps: Deps): Promise<void> {
  // A claim taken over from a process that died mid-way: start from nothing.
  await deps.db.transaction(async (tx) => {
    for (const spec of Object.values(entities)) {
      await tx.query(`delete from ${spec.table} where organization_id = $1`, [demoOrganizationId]);
    }
    await tx.query("delete from changes where organization_id = $1", [demoOrganizationId]);
  });
  // Seeded as an owner that is not read-only: the demo sessions are, the seeding is not.
  const transport = transportAs(deps, {
    organizationId: demoOrganizationId,
    userId: demoUserId,
    role: "owner",
    demo: false,
  });
  await seedSeason(transport, { now: new Date(), seed: 7 });
}

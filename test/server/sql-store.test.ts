/** The server's SQL replica store passes the one store suite, on every database. */
import { type Db, migrate, openPostgres } from "@hivekeep/server";
import {
  replicaStoreSuite,
  suiteWallMs,
} from "../../client-core/src/testing/replica-store-suite.ts";
import { ServerClock } from "../../server/src/store/server-clock.ts";
import { sqlStore } from "../../server/src/store/sql-store.ts";
import { ensureLocalTenant, localOrganizationId } from "../../server/src/store/tenants.ts";
import { createScratchDatabase, databaseKinds } from "../support/databases.ts";
import { templatePglite } from "../support/pglite-template.ts";

for (const kind of databaseKinds) {
  replicaStoreSuite(`SQL on ${kind}`, async () => {
    const scratch = kind === "postgres" ? await createScratchDatabase() : undefined;
    const db: Db = scratch ? await openPostgres(scratch.url) : await templatePglite();
    await migrate(db);
    await ensureLocalTenant(db);
    const clock = new ServerClock("suite-server", () => suiteWallMs);
    return {
      store: sqlStore(db, localOrganizationId, { clock }),
      clock,
      async close() {
        await db.close();
        await scratch?.drop();
      },
    };
  });
}

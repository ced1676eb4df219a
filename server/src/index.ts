/** What tests and tools import from the server package. */
export { type Config, loadConfig } from "./config.ts";
export type { Db, Queryable } from "./db/db.ts";
export { migrate } from "./db/migrate.ts";
export { openDb } from "./db/open-db.ts";
export { openPglite, pgliteTemplate } from "./db/pglite.ts";
export { openPostgres } from "./db/postgres.ts";
export { requestJsonOptions } from "./http/rpc-edge.ts";
export { type RunningServer, type StartOptions, StartupError, startServer } from "./server.ts";
export { localOrganizationId, localUserId } from "./store/tenants.ts";

/**
 * `pnpm seed`: fills the configured database (DATABASE_URL or the embedded one
 * in HIVEKEEP_DATA_DIR) with a season of sample data, through the same RPC
 * handlers the server runs, in process. Options: --weeks N, --hives N, --seed N.
 */
import { parseArgs } from "node:util";
import pino from "pino";
import { ConfigError, loadConfig } from "../config.ts";
import { openDb } from "../db/open-db.ts";
import { startFeedNotifier } from "../store/feed-notifier.ts";
import { ensureLocalTenant } from "../store/tenants.ts";
import { inProcessTransport } from "./in-process.ts";
import { seedSeason } from "./season.ts";

const { values } = parseArgs({
  options: {
    weeks: { type: "string", default: "20" },
    hives: { type: "string", default: "8" },
    seed: { type: "string", default: "2026" },
  },
});

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`hivekeep seed: configuration error: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
const log = pino({ level: "warn" });
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await ensureLocalTenant(db);
  const notifier = await startFeedNotifier(db);
  const transport = inProcessTransport(db, notifier, log);
  const started = performance.now();
  const summary = await seedSeason(transport, {
    now: new Date(),
    weeks: Number(values.weeks),
    hivesPerApiary: Number(values.hives),
    seed: Number(values.seed),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`seeded ${db.kind} in ${seconds}s: ${JSON.stringify(summary)}`);
  await notifier.close();
} finally {
  await db.close();
}

/**
 * `pnpm seed`: fills the configured database (DATABASE_URL or the embedded one
 * in HIVEKEEP_DATA_DIR) with a season of sample data, through the same RPC
 * handlers the server runs, in process. Options: --weeks N, --hives N, --seed N, and
 * --scale-days N: three hive scales (issue 29) with N days of 15-minute readings up to now.
 */
import { parseArgs } from "node:util";
import pino from "pino";
import { ConfigError, loadConfig } from "../config.ts";
import { openDb } from "../db/open-db.ts";
import { startFeedNotifier } from "../store/feed-notifier.ts";
import { ensureLocalTenant } from "../store/tenants.ts";
import { inProcessTransport } from "./in-process.ts";
import { seedSeasonScales } from "./scales.ts";
import { seedSeason } from "./season.ts";

const { values } = parseArgs({
  options: {
    weeks: { type: "string", default: "20" },
    hives: { type: "string", default: "8" },
    seed: { type: "string", default: "2026" },
    "scale-days": { type: "string", default: "0" },
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
  const scaleDays = Number(values["scale-days"]);
  const scales =
    scaleDays > 0
      ? await seedSeasonScales(transport, Number(values.hives), {
          now: new Date(),
          days: scaleDays,
          seed: Number(values.seed),
        })
      : undefined;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const readings = scales ? { scales: scales.scales, readings: scales.readings } : {};
  console.log(`seeded ${db.kind} in ${seconds}s: ${JSON.stringify({ ...summary, ...readings })}`);
  await notifier.close();
} finally {
  await db.close();
}

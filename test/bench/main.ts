/**
 * `pnpm bench [--quick] [--only name,…]`: every figure a user or an operator waits for,
 * measured through the real code paths against the best the same machine does with the same
 * work in the same run, on PGlite and, when DATABASE_URL is set, on a fresh database of that
 * Postgres server too (BENCH_DATABASES=pglite or postgres narrows it). Prints a table and writes
 * bench-results.json at the repository root (report.ts has its shape).
 *
 * --quick runs every figure at a smaller size (under three minutes in all: to check that the
 * bench works, not for figures to quote). --only runs the named figures (push, pull and so on;
 * a module runs when one of its figures is named; a name also stands for every figure it begins:
 * `--only scale-account` runs the three scale-account-… figures).
 *
 * A figure is only comparable within one run (the machine's speed varies between runs): read
 * the ratios, never absolute figures across runs.
 */
import { parseArgs } from "node:util";
import { createScratchDatabase } from "../support/databases.ts";
import {
  type BenchContext,
  type BenchRun,
  type Database,
  printTable,
  writeResults,
} from "./report.ts";

type Module = { run(ctx: BenchContext): Promise<BenchRun[]> };
/** Each module and the figures it measures, in the order they run. */
const modules: { figures: string[]; load: () => Promise<Module> }[] = [
  { figures: ["push", "pull"], load: () => import("./push-pull.ts") },
  { figures: ["rpc-create-inspection", "rpc-list"], load: () => import("./rpc.ts") },
  { figures: ["readings-batch-ingest"], load: () => import("./readings.ts") },
  { figures: ["fan-out"], load: () => import("./fan-out.ts") },
  {
    figures: ["initial-sync", "local-write", "hive-page-readings"],
    load: () => import("./device.ts"),
  },
  { figures: ["photo-sync"], load: () => import("./photos.ts") },
  {
    figures: ["scale-account-usable", "scale-account-replica", "scale-account-chart"],
    load: () => import("./scale-account.ts"),
  },
  { figures: ["first-load", "first-load-css"], load: () => import("./first-load.ts") },
  { figures: ["memory-idle", "memory-growth"], load: () => import("./memory.ts") },
];

const { values } = parseArgs({
  options: { quick: { type: "boolean", default: false }, only: { type: "string" } },
});
const only = values.only?.split(",");
const wanted = (kind: Database) =>
  !process.env.BENCH_DATABASES || process.env.BENCH_DATABASES.split(",").includes(kind);
const databases: Database[] = ["pglite" as const, "postgres" as const].filter(
  (d) => wanted(d) && (d === "pglite" || !!process.env.DATABASE_URL),
);

const started = performance.now();
const runs: BenchRun[] = [];
const failures: string[] = [];
for (const database of databases) {
  for (const module of modules) {
    if (only && !module.figures.some((f) => only.some((o) => f.startsWith(o)))) continue;
    // Every module gets a database of its own: nothing one leaves behind weighs on the next.
    const scratch = database === "postgres" ? await createScratchDatabase() : undefined;
    const label = `${module.figures.join(", ")} on ${database}`;
    const start = performance.now();
    try {
      const { run } = await module.load();
      const measured = await run({ database, databaseUrl: scratch?.url, quick: values.quick });
      runs.push(...measured.filter((r) => !only || only.some((o) => r.name.startsWith(o))));
      console.log(`${label}: ${Math.round((performance.now() - start) / 1000)} s`);
    } catch (err) {
      failures.push(`${label}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      console.error(`${label} FAILED:`, err);
    } finally {
      await scratch?.drop();
    }
  }
}

printTable(runs);
const file = writeResults(runs, {
  quick: values.quick,
  seconds: Math.round((performance.now() - started) / 1000),
  failures,
});
console.log(`written to ${file} (${Math.round((performance.now() - started) / 1000)} s)`);
if (failures.length > 0) {
  console.error(`${failures.length} module(s) failed:\n${failures.join("\n")}`);
  process.exitCode = 1;
}

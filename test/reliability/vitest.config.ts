/**
 * The reliability suite (`pnpm test:reliability`): hostile input (fuzz), faults (killed
 * servers, terminated database connections, dropped clients) and load. Kept out of
 * `pnpm test` because it spends minutes on purpose; `.ci/run` runs it on PGlite and on
 * Postgres. Files run one at a time: a load or memory figure must not share the machine
 * with another file's server.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("../..", import.meta.url));

export default defineConfig({
  test: {
    root,
    name: "reliability",
    include: ["test/reliability/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});

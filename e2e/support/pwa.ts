/** The built PWA the server serves; built on demand when pwa/dist is missing. */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export const repoRoot = resolve(import.meta.dirname, "..", "..");
export const pwaDist = join(repoRoot, "pwa", "dist");

/**
 * Builds pwa/dist unless it exists already (`pnpm build` refreshes it); `fresh` builds it
 * anyway (the benchmark measures the code as it is).
 */
export function ensurePwaBuilt(fresh = false): string {
  if (fresh || !existsSync(join(pwaDist, "index.html"))) {
    // Not the test runner's NODE_ENV=test: that would bundle React's development build.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k !== "NODE_ENV" && !k.startsWith("VITEST")),
    );
    execFileSync("pnpm", ["--filter", "@hivekeep/pwa", "build"], {
      cwd: repoRoot,
      env: { ...env, NODE_ENV: "production" },
      stdio: "inherit",
    });
  }
  if (!existsSync(join(pwaDist, "index.html"))) {
    throw new Error(`building the PWA did not produce ${join(pwaDist, "index.html")}`);
  }
  return pwaDist;
}

/**
 * The device harness page (e2e/device-harness): client-core built by Vite, so the browser tests
 * and the benchmark run the device half in Chromium against the real server, which serves the
 * page from the same origin (HIVEKEEP_PWA_DIR). Built once per run.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "vite";

const harnessRoot = resolve(import.meta.dirname, "..", "device-harness");
export const harnessDist = resolve(import.meta.dirname, "..", ".device-harness");

let built: Promise<string> | undefined;

export function buildDeviceHarness(): Promise<string> {
  built ??= (async () => {
    await build({ configFile: join(harnessRoot, "vite.config.ts"), mode: "production" });
    if (!existsSync(join(harnessDist, "index.html"))) {
      throw new Error(`building the device harness did not produce ${harnessDist}/index.html`);
    }
    return harnessDist;
  })();
  return built;
}

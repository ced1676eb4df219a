/** Builds the device harness (e2e/device-harness) for the browser tests and the benchmark. */
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  logLevel: "warn",
  build: { outDir: "../.device-harness", emptyOutDir: true },
});

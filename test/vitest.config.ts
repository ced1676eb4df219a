/**
 * The one test configuration of the workspace (`pnpm test` at the root):
 * unit tests beside the code, the app's component tests (the `.test.tsx` files of pwa/src, in a DOM),
 * integration tests in test/, browser tests in e2e/.
 */
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  test: {
    root,
    // Every core runs test files (Vitest's default leaves one free: one worker on a 2-core CI
    // machine). Each test file has its own database, so files running side by side share nothing.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "client-core/src/**/*.test.ts",
            "server/src/**/*.test.ts",
            "pwa/src/**/*.test.ts",
          ],
          environment: "node",
          // The property tests run hundreds of simulated syncs: 5 s (the default) was passed by
          // one on a machine loaded by other test runs (8.9 s). A passing test returns at once.
          testTimeout: 30_000,
          // expect.poll waits for what it expects up to just under the test's own limit (its
          // default of 1 s failed first on a loaded machine; a passing poll returns at once).
          expect: { poll: { timeout: 4_500 } },
        },
      },
      {
        extends: true,
        test: {
          // The app's screens as a user sees them: Testing Library in happy-dom, on a real device
          // client over fake-indexeddb (pwa/src/testing/render-screen.tsx). No server, no browser.
          name: "components",
          include: ["pwa/src/**/*.test.tsx"],
          environment: "happy-dom",
          setupFiles: ["pwa/src/testing/setup.ts"],
          // A test waits for several things in turn (each up to 4.5 s, as expect.poll: the
          // setup gives Testing Library's findBy and waitFor the same); a passing one returns
          // at once, so the limit only matters on a loaded machine.
          testTimeout: 15_000,
          expect: { poll: { timeout: 4_500 } },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/reliability/**"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 25_000 } },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: { timeout: 50_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});

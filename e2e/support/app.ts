/**
 * What every browser suite shares: Chromium and the real server with the built
 * PWA, started before the suite's tests and stopped after them, and fresh
 * phone-sized pages whose profiles are closed after each test.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startTestServer, type TestServer } from "../../test/support/server.ts";
import {
  type ContextOptions,
  launchChromium,
  newPhoneContext,
  takeCspViolations,
} from "./chromium.ts";
import { ensurePwaBuilt } from "./pwa.ts";

export interface BrowserApp {
  /** The server (PGlite in memory) serving the built PWA. */
  readonly server: TestServer;
  /** A page in a fresh phone-sized profile; uncaught page errors are collected. */
  openPage(
    opts?: ContextOptions,
  ): Promise<{ page: Page; context: BrowserContext; pageErrors: Error[] }>;
  /** Another page in the same profile (a second tab). */
  openTab(context: BrowserContext): Promise<{ page: Page; pageErrors: Error[] }>;
}

/** Call inside a browserSuite; `env` adds server settings (e.g. HIVEKEEP_AUTH). */
export function useBrowserApp(env: Record<string, string> = {}): BrowserApp {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: ensurePwaBuilt(), ...env });
  });
  afterEach(async () => {
    const closing = contexts.splice(0);
    const violations = closing.flatMap((c) => takeCspViolations(c));
    await Promise.all(closing.map((c) => c.close()));
    // The app must work under its Content-Security-Policy: a violation fails the test.
    if (violations.length > 0) {
      throw new Error(`Content-Security-Policy violations:\n${violations.join("\n")}`);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the browser app starts in beforeAll");
    return value;
  };
  const openTab = async (context: BrowserContext) => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const pageErrors: Error[] = [];
    page.on("pageerror", (err) => pageErrors.push(err));
    return { page, pageErrors };
  };
  return {
    get server() {
      return started(server);
    },
    async openPage(opts = {}) {
      const context = await newPhoneContext(started(browser), opts);
      contexts.push(context);
      return { context, ...(await openTab(context)) };
    },
    openTab,
  };
}

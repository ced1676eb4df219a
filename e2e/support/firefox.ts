/**
 * Firefox ESR for the cross-engine browser tests: the Debian package (or HIVEKEEP_FIREFOX),
 * headless, driven over WebDriver BiDi by puppeteer-core (which never downloads a browser).
 * Each profile is a BiDi user context: its own storage and service workers.
 */
import { accessSync, constants } from "node:fs";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { type Engine, type EngineProfile, type EngineTab, requireEngine } from "./engine.ts";

export const firefoxPath = process.env.HIVEKEEP_FIREFOX ?? "/usr/bin/firefox-esr";

function findMissing(): string | undefined {
  try {
    accessSync(firefoxPath, constants.X_OK);
    return undefined;
  } catch {
    return `no Firefox executable at ${firefoxPath} (install the firefox-esr package or set HIVEKEEP_FIREFOX)`;
  }
}

/**
 * Reports every Content-Security-Policy violation of a document on the console, where the
 * profile collects it (BiDi has console events but no bindings puppeteer offers on Firefox).
 */
const cspReporter = `document.addEventListener("securitypolicyviolation", (e) => {
  console.error("[csp] " + e.effectiveDirective + " refused " + (e.blockedURI || "(inline)") +
    " at " + e.sourceFile + ":" + e.lineNumber);
});`;

function tab(page: Page, violations: string[]): EngineTab {
  page.setDefaultTimeout(30_000);
  page.on("console", (m) => {
    const text = m.text();
    if (/^\[csp\] |Content[- ]Security[- ]Policy/.test(text))
      violations.push(`${page.url()}: ${text}`);
  });
  return {
    async goto(url) {
      await page.goto(url);
    },
    async reload() {
      await page.reload();
    },
    run: (expression) => page.evaluate(expression) as Promise<never>,
    async resize(width, height) {
      await page.setViewport({ width, height });
    },
    async screenshot() {
      return Buffer.from(await page.screenshot({ type: "png" }));
    },
    close: () => page.close(),
  };
}

export const firefox: Engine = {
  id: "firefox",
  name: "Firefox ESR",
  missing: findMissing(),
  async launch() {
    requireEngine(firefox);
    const browser: Browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: firefoxPath,
      headless: true,
      defaultViewport: { width: 390, height: 844 },
    });
    return {
      async newProfile(): Promise<EngineProfile> {
        const context = await browser.createBrowserContext();
        const violations: string[] = [];
        return {
          async newTab() {
            const page = await context.newPage();
            await page.setViewport({ width: 390, height: 844 });
            await page.evaluateOnNewDocument(cspReporter);
            return tab(page, violations);
          },
          takeCspViolations: () => violations.splice(0),
          close: () => context.close(),
        };
      },
      close: () => browser.close(),
    };
  },
};

/**
 * Real Chromium for the browser tests: the Debian package (or HIVEKEEP_CHROMIUM),
 * driven by playwright-core. Browsers are never downloaded. Without Chromium the
 * suites are skipped with a reason, except under CI, where they fail.
 */
import { accessSync, constants } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { describe } from "vitest";

export const chromiumPath = process.env.HIVEKEEP_CHROMIUM ?? "/usr/bin/chromium";

const ci = !!process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";

function findMissing(): string | undefined {
  try {
    accessSync(chromiumPath, constants.X_OK);
    return undefined;
  } catch {
    return `no Chromium executable at ${chromiumPath} (install the chromium package or set HIVEKEEP_CHROMIUM)`;
  }
}

/** Why the browser tests cannot run here, or undefined when they can. */
export const chromiumMissing = findMissing();

/**
 * describe() for a suite that needs Chromium: skipped with a printed reason when
 * it is missing, unless CI is set; then the suite runs and launchChromium() fails.
 */
export function browserSuite(name: string, body: () => void): void {
  if (chromiumMissing && !ci) {
    console.warn(`[e2e] skipping "${name}": ${chromiumMissing}`);
    describe.skip(`${name} (skipped: ${chromiumMissing})`, body);
    return;
  }
  describe(name, body);
}

export async function launchChromium(): Promise<Browser> {
  if (chromiumMissing) {
    const why = ci ? " (CI is set, so they may not be skipped)" : "";
    throw new Error(`Chromium is required for the browser tests${why}: ${chromiumMissing}`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** The two screens every screen of the app must look right on. */
export const screenSizes = {
  /** A typical phone (390×844 CSS pixels), touch. */
  phone: {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  },
  /** A laptop or desktop window (1280×800). */
  desktop: {
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
  },
} as const;
export type ScreenSize = keyof typeof screenSizes;

export interface ContextOptions {
  readonly serviceWorkers?: "allow" | "block";
  /** Default phone. */
  readonly size?: ScreenSize;
  /** The browser's locale (and so the app's language), e.g. "de-DE"; default en-US. */
  readonly locale?: string;
}

/**
 * A fresh profile with the screen of a typical phone, or the size and locale asked for. Every
 * Content-Security-Policy violation in it is recorded (`cspViolations`), so the browser tests
 * fail on one instead of an app that quietly lost a script, style, image or connection.
 */
export async function newPhoneContext(
  browser: Browser,
  opts: ContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...screenSizes[opts.size ?? "phone"],
    locale: opts.locale ?? "en-US",
    serviceWorkers: opts.serviceWorkers ?? "allow",
  });
  await watchCsp(context);
  return context;
}

const seenViolations = new WeakMap<BrowserContext, string[]>();
const cspBinding = "__hivekeepCspViolation";

/**
 * Records the CSP violations of every page of the context: the documents' `securitypolicyviolation`
 * events, and the console's "Refused to …" / "Content Security Policy" errors (which also come
 * from workers, where no init script runs).
 */
async function watchCsp(context: BrowserContext): Promise<void> {
  const seen: string[] = [];
  seenViolations.set(context, seen);
  await context.exposeBinding(cspBinding, ({ page }, text: string) => {
    seen.push(`${page?.url() ?? "?"}: ${text}`);
  });
  await context.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) => {
      window.${cspBinding}(\`\${e.effectiveDirective} refused \${e.blockedURI || "(inline)"} at \${e.sourceFile}:\${e.lineNumber}\`);
    });`,
  });
  context.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|^Refused to /.test(text)) seen.push(`console: ${text}`);
  });
}

/** The CSP violations seen in the context since the last call (empty: none), and forgets them. */
export function takeCspViolations(context: BrowserContext): string[] {
  return seenViolations.get(context)?.splice(0) ?? [];
}

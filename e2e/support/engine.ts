/**
 * What the cross-engine browser tests (e2e/engines.test.ts) need of a browser, so one scenario
 * runs in Firefox ESR (WebDriver BiDi) and WebKitGTK (classic WebDriver) alike: tabs in one
 * profile, script run in a tab, navigation and screenshots. Nothing engine-specific (locators,
 * network emulation, init scripts) is assumed: going offline is a proxy the test cuts, and the
 * app is driven through the DOM by the small in-page helpers below.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe } from "vitest";
import { repoRoot } from "./pwa.ts";

/** A tab of a browser profile. */
export interface EngineTab {
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Runs a JavaScript expression in the page (awaiting a promise) and returns its JSON value. */
  run<T>(expression: string): Promise<T>;
  /** Resizes the page (the viewport) to width × height CSS px, as far as the engine can. */
  resize(width: number, height: number): Promise<void>;
  /** A PNG of what the tab shows. */
  screenshot(): Promise<Buffer>;
  close(): Promise<void>;
}

/** One profile (storage, service workers, Web Locks shared by its tabs). */
export interface EngineProfile {
  newTab(): Promise<EngineTab>;
  /** CSP violations seen in the profile's pages since the last call, where the engine can tell. */
  takeCspViolations(): string[];
  close(): Promise<void>;
}

export interface EngineBrowser {
  /** A fresh profile with a phone-sized (390×844) window. */
  newProfile(): Promise<EngineProfile>;
  close(): Promise<void>;
}

export interface Engine {
  /** As in test names and screenshot files, e.g. "firefox". */
  readonly id: string;
  readonly name: string;
  /** Why the engine cannot run here, or undefined when it can. */
  readonly missing: string | undefined;
  launch(): Promise<EngineBrowser>;
}

export const ci = !!process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";

/**
 * describe() for one engine: skipped with a printed reason when it is missing, unless CI is
 * set; then the suite runs and fails on launch, as the Chromium suites do.
 */
export function engineSuite(engine: Engine, body: () => void): void {
  const name = `in ${engine.name}`;
  if (engine.missing && !ci) {
    console.warn(`[e2e] skipping "${name}": ${engine.missing}`);
    describe.skip(`${name} (skipped: ${engine.missing})`, body);
    return;
  }
  describe(name, body);
}

/** The launch error when the engine is missing (CI runs the suite anyway, and fails here). */
export function requireEngine(engine: Engine): void {
  if (engine.missing) {
    const why = ci ? " (CI is set, so they may not be skipped)" : "";
    throw new Error(`${engine.name} is required for the engine tests${why}: ${engine.missing}`);
  }
}

export const screenshotDir = join(repoRoot, "e2e", "screenshots");

/** Saves a screenshot of the tab as e2e/screenshots/engines-<engine>-<name>.png. */
export async function saveScreenshot(engine: Engine, tab: EngineTab, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  writeFileSync(join(screenshotDir, `engines-${engine.id}-${name}.png`), await tab.screenshot());
}

/**
 * In-page helpers, defined on first use in each document as `window.__hk`: the control a
 * visible label names, a button or link by its text or accessible label, typing into a
 * React-controlled input (the native value setter, then an input event), and the page's text.
 */
const pageHelpers = `({
  visible(el) {
    return !!el && el.getClientRects().length > 0;
  },
  text() {
    return document.body ? document.body.innerText : "";
  },
  has(text) {
    return this.text().includes(text);
  },
  heading() {
    const h = document.querySelector("h1");
    return h ? h.textContent.trim() : "";
  },
  control(label) {
    const labels = [...document.querySelectorAll("label")].filter((l) => this.visible(l));
    const l =
      labels.find((l) => l.textContent.trim() === label) ??
      labels.find((l) => l.textContent.trim().startsWith(label));
    const el = l && (l.control ?? (l.htmlFor ? document.getElementById(l.htmlFor) : null));
    if (!el) throw new Error("no control labelled " + label);
    return el;
  },
  fill(label, value) {
    const el = this.control(label);
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement : HTMLInputElement;
    Object.getOwnPropertyDescriptor(proto.prototype, "value").set.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  },
  clickable(name) {
    const all = [...document.querySelectorAll("a, button")].filter((e) => this.visible(e));
    const named = (e) => (e.getAttribute("aria-label") ?? e.textContent).trim();
    return all.find((e) => named(e) === name) ?? null;
  },
  click(name) {
    const el = this.clickable(name);
    if (!el) throw new Error("nothing to click named " + name);
    el.click();
    return true;
  },
})`;

/** An expression run with the in-page helpers as `hk`. */
export function withHelpers(expression: string): string {
  return `((hk) => (${expression}))(window.__hk ??= ${pageHelpers})`;
}

/**
 * Polls an expression (with the helpers as `hk`; a promise is awaited) in the tab until it is
 * truthy; errors thrown in
 * the page count as not yet (the document may be loading). Fails after `timeout` ms, naming
 * `what` and the page's heading.
 */
export async function waitFor(
  tab: EngineTab,
  expression: string,
  what: string,
  timeout = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  let last = "";
  for (;;) {
    try {
      if (await tab.run<boolean>(`Promise.resolve(${withHelpers(expression)}).then((v) => !!v)`))
        return;
      last = "";
    } catch (err) {
      last = ` (last error: ${(err as Error).message})`;
    }
    if (Date.now() > deadline) {
      const heading = await tab.run<string>(withHelpers("hk.heading()")).catch(() => "?");
      throw new Error(`timed out waiting for ${what} (heading "${heading}")${last}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs an expression with the helpers as `hk` and returns its value. */
export function act<T>(tab: EngineTab, expression: string): Promise<T> {
  return tab.run<T>(withHelpers(expression));
}

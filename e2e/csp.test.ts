/**
 * The app under its Content-Security-Policy (issue 27, finding 7): it starts with no violation,
 * the browser tests' watcher records one (so every browser test fails on a violation: see
 * support/app.ts), an injected inline script does not run, and no other site can frame it.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite, takeCspViolations } from "./support/chromium.ts";
import { heading } from "./support/field.ts";
import { repoRoot } from "./support/pwa.ts";

browserSuite("PWA: Content-Security-Policy", () => {
  const app = useBrowserApp();

  it("refuses an injected inline script, and the watcher records the violation", async () => {
    const { page, context, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await heading(page, "Overview").waitFor();
    // To look at: the app as it renders under the policy (styles, icons, fonts all loaded).
    await page.screenshot({ path: join(repoRoot, "e2e", "screenshots", "csp-overview.png") });
    expect(takeCspViolations(context)).toEqual([]);

    // What an XSS would do: add a script of its own to the page.
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.injectedRan = true;";
      document.body.append(script);
    });
    // Seen twice: the document's securitypolicyviolation event and Chromium's console error.
    const seen: string[] = [];
    await expect
      .poll(() => {
        seen.push(...takeCspViolations(context));
        return [
          seen.some((v) => !v.startsWith("console:") && v.includes("script-src")),
          seen.some((v) => v.startsWith("console:") && v.includes("Content Security Policy")),
        ];
      })
      .toEqual([true, true]);
    expect(await page.evaluate(() => "injectedRan" in window)).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it("cannot be framed by another site", async () => {
    const { page, context } = await app.openPage();
    // A foreign page (another origin: 127.0.0.1 against the server's localhost, or the other way
    // round, is no matter: frame-ancestors 'none' refuses every parent) framing the app.
    await page.setContent(`<iframe src="${app.server.url}/settings"></iframe>`);
    await expect.poll(() => takeCspViolations(context).join("\n")).toMatch(/frame-ancestors/);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    const framed = await frame?.evaluate(() => document.body?.textContent ?? "").catch(() => "");
    expect(framed ?? "").not.toContain("Settings");
  });
});

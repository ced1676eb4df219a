/**
 * Hosted mode (HIVEKEEP_AUTH=login) in real Chromium: the sign-in screen, sign
 * up, log in, sign out, a wrong password, the read-only demo, and a revoked
 * session sending the app back to sign-in.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { startTestServer } from "../test/support/server.ts";
import { apiaryItem, useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { ensurePwaBuilt } from "./support/pwa.ts";

const screenshots = join(import.meta.dirname, "screenshots");

browserSuite("PWA: sign-in (hosted mode)", () => {
  const app = useBrowserApp({ HIVEKEEP_AUTH: "login", HIVEKEEP_DEMO: "true" });
  const apiariesHeading = (page: Page) => page.getByRole("heading", { name: "Apiaries" });
  const signInTab = (page: Page, name: "Log in" | "Sign up") => page.getByRole("tab", { name });
  const account = (page: Page) => page.getByRole("region", { name: "Account" });
  const email = (page: Page) => page.getByLabel("Email");
  const password = (page: Page) => page.getByLabel("Password");

  async function logIn(page: Page, who: string, secret: string): Promise<void> {
    await signInTab(page, "Log in").click();
    await email(page).fill(who);
    await password(page).fill(secret);
    await page.getByRole("button", { name: "Log in" }).click();
  }

  it("shows the sign-in screen, and the app only after sign-in", async () => {
    const { page, pageErrors } = await app.openPage();
    const res = await page.goto(app.server.url);
    expect(res?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: "Hivekeep" }).waitFor();
    await signInTab(page, "Log in").waitFor();
    expect(await signInTab(page, "Log in").getAttribute("aria-selected")).toBe("true");
    await email(page).waitFor();
    await password(page).waitFor();
    await page.getByRole("button", { name: "Try the demo" }).waitFor();
    expect(await apiariesHeading(page).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);

    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "sign-in-phone.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("signs up, adds an apiary, signs out, and logs in again", async () => {
    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);

    // Sign up: the organization is created and the (empty) list shows.
    await signInTab(page, "Sign up").click();
    await email(page).fill("ada@example.org");
    await password(page).fill("correct horse battery");
    await page.getByLabel("Organization name").fill("Lovelace Apiaries");
    await page.getByRole("button", { name: "Create account" }).click();

    await apiariesHeading(page).waitFor();
    await account(page).filter({ hasText: "Lovelace Apiaries" }).waitFor();
    expect(await account(page).textContent()).toContain("ada@example.org");
    await page.getByText("No apiaries yet").waitFor();
    const token = await page.evaluate(() => localStorage.getItem("hivekeep.sessionToken"));
    expect(token).toBeTruthy();

    // The feed stream carries the token too, and pokes this page.
    const subscribes: (string | undefined)[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/hivekeep.v1.SyncService/Subscribe")) {
        subscribes.push(r.headers().authorization);
      }
    });

    // Adding through the form.
    await page.getByLabel("Name", { exact: true }).fill("Orchard hill");
    await page.getByLabel("Address").fill("Old orchard, north gate");
    await page.getByRole("button", { name: "Add apiary" }).click();
    await apiaryItem(page, "Orchard hill").waitFor();
    await page.getByText("Added “Orchard hill”.").waitFor();

    const listed = await app.server.as(token ?? "").call("ApiaryService/ListApiaries", {});
    expect(listed.status).toBe(200);
    expect(listed.body.apiaries).toEqual([
      expect.objectContaining({ name: "Orchard hill", address: "Old orchard, north gate" }),
    ]);

    // A reload stays signed in.
    await page.reload();
    await apiaryItem(page, "Orchard hill").waitFor();
    await expect.poll(() => subscribes.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(subscribes[0]).toBe(`Bearer ${token}`);
    await page.waitForTimeout(500);
    const written = await app.server
      .as(token ?? "")
      .call("ApiaryService/CreateApiary", { name: "Heath meadow" });
    expect(written.status).toBe(200);
    await apiaryItem(page, "Heath meadow").waitFor({ timeout: 10_000 });

    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "signed-in-phone.png"), fullPage: true });

    // Sign out: back to sign-in, the token is gone and no longer valid.
    await page.getByRole("button", { name: "Sign out" }).click();
    await signInTab(page, "Log in").waitFor();
    expect(await apiariesHeading(page).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("hivekeep.sessionToken"))).toBeNull();
    const after = await app.server.as(token ?? "").call("ApiaryService/ListApiaries", {});
    expect(after.status).toBe(401);

    // Log in again with the same credentials.
    await logIn(page, "ada@example.org", "correct horse battery");
    await apiaryItem(page, "Orchard hill").waitFor();
    await account(page).filter({ hasText: "Lovelace Apiaries" }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("shows the server's message for a wrong password, and stays on sign-in", async () => {
    const signedUp = await app.server.call("AuthService/SignUp", {
      email: "grace@example.org",
      password: "a long good password",
      organizationName: "Hopper Hives",
    });
    expect(signedUp.status).toBe(200);

    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await logIn(page, "grace@example.org", "not the password");
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/email or password is wrong/i);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "sign-in-error-phone.png"), fullPage: true });
    expect(await page.getByRole("button", { name: "Log in" }).isEnabled()).toBe(true);
    expect(await apiariesHeading(page).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("hivekeep.sessionToken"))).toBeNull();

    // A sign-up refused by the server shows its message the same way.
    await signInTab(page, "Sign up").click();
    expect(await page.getByRole("alert").count()).toBe(0);
    await password(page).fill("another long password");
    await page.getByLabel("Organization name").fill("Second yard");
    await page.getByRole("button", { name: "Create account" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /log in instead/i })
      .waitFor();
    await page.screenshot({ path: join(screenshots, "sign-up-error-phone.png"), fullPage: true });

    // The right password works.
    await logIn(page, "grace@example.org", "a long good password");
    await account(page).filter({ hasText: "Hopper Hives" }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("tries the demo: seeded apiaries, read only", async () => {
    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await page.getByRole("button", { name: "Try the demo" }).click();

    // The first StartDemo seeds a season of sample data (several seconds).
    await page.getByText("Demo — read only").waitFor({ timeout: 45_000 });
    await apiaryItem(page, "Home garden").waitFor();
    await apiaryItem(page, "Orchard hill").waitFor();
    expect(await account(page).textContent()).toContain("Demo apiaries");
    expect(await page.getByRole("button", { name: "Add apiary" }).count()).toBe(0);
    expect(await page.getByLabel("Name", { exact: true }).count()).toBe(0);

    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "demo-phone.png"), fullPage: true });

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Try the demo" }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("says so when the server offers no demo", async () => {
    const noDemo = await startTestServer("pglite", {
      HIVEKEEP_PWA_DIR: ensurePwaBuilt(),
      HIVEKEEP_AUTH: "login",
    });
    try {
      const { page, pageErrors } = await app.openPage();
      await page.goto(noDemo.url);
      await page.getByRole("button", { name: "Try the demo" }).click();
      await page.getByText("The demo is not available on this server.").waitFor();
      expect(await page.getByRole("button", { name: "Try the demo" }).count()).toBe(0);
      expect(await page.getByRole("alert").count()).toBe(0);
      // Logging in still works there.
      await page.getByRole("button", { name: "Log in" }).waitFor();
      expect(pageErrors).toEqual([]);
    } finally {
      await noDemo.stop();
    }
  });

  it("returns to sign-in when the session is revoked elsewhere", async () => {
    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await logIn(page, "ada@example.org", "correct horse battery");
    await apiaryItem(page, "Orchard hill").waitFor();
    const token = await page.evaluate(() => localStorage.getItem("hivekeep.sessionToken"));
    expect(token).toBeTruthy();

    // Ended from another device; the next call from this page is unauthenticated.
    const ended = await app.server.as(token ?? "").call("AuthService/Logout", {});
    expect(ended.status).toBe(200);
    await page.getByLabel("Name", { exact: true }).fill("Linden alley");
    await page.getByRole("button", { name: "Add apiary" }).click();

    await signInTab(page, "Log in").waitFor();
    expect(await apiariesHeading(page).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("hivekeep.sessionToken"))).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});

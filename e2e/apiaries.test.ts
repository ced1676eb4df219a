/**
 * The built PWA in real Chromium against the real server (PGlite in memory):
 * the app shell, the apiary list and form, the SPA fallback, the web manifest
 * and the service worker that lets the shell open offline.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { apiaryItem, useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";

const screenshots = join(import.meta.dirname, "screenshots");

browserSuite("PWA: apiaries", () => {
  const app = useBrowserApp();

  it("loads the app shell and lists an apiary created through the API", async () => {
    const created = await app.server.call("ApiaryService/CreateApiary", {
      name: "Home yard",
      address: "12 Linden Lane",
    });
    expect(created.status).toBe(200);

    const { page, pageErrors } = await app.openPage();
    const res = await page.goto(app.server.url);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe("Hivekeep");
    await page.getByRole("heading", { level: 1, name: "Hivekeep" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Online" }).waitFor();

    const item = apiaryItem(page, "Home yard");
    await item.waitFor();
    expect(await item.textContent()).toContain("12 Linden Lane");
    expect(await item.textContent()).toContain("No hives");
    // Single-user mode: no sign-in and no account.
    expect(await page.getByRole("tab", { name: "Log in" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("adds an apiary through the form, and the server has it", async () => {
    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await apiaryItem(page, "Home yard").waitFor();

    await page.getByLabel("Name", { exact: true }).fill("Orchard hill");
    await page.getByLabel("Address").fill("Old orchard, north gate");
    await page.getByRole("button", { name: "Add apiary" }).click();

    await apiaryItem(page, "Orchard hill").waitFor();
    await page.getByText("Added “Orchard hill”.").waitFor();
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("");

    const listed = await app.server.call("ApiaryService/ListApiaries", {});
    expect(listed.status).toBe(200);
    expect(listed.body.apiaries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Orchard hill", address: "Old orchard, north gate" }),
      ]),
    );

    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "apiaries-phone.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("shows an apiary written elsewhere without a reload (Subscribe over connect-web, HTTP/1.1)", async () => {
    const { page, pageErrors } = await app.openPage();
    // Count the Subscribe streams the page opens.
    let streams = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/hivekeep.v1.SyncService/Subscribe")) streams += 1;
    });
    await page.goto(app.server.url);
    await apiaryItem(page, "Home yard").waitFor();
    await expect.poll(() => streams, { timeout: 10_000 }).toBeGreaterThan(0);
    // Give the stream time to settle on the feed's position before the write.
    await page.waitForTimeout(500);

    const written = await app.server.call("ApiaryService/CreateApiary", { name: "Heath meadow" });
    expect(written.status).toBe(200);
    await apiaryItem(page, "Heath meadow").waitFor({ timeout: 10_000 });
    expect(streams).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it("serves the app shell for a deep link (SPA fallback)", async () => {
    // No service worker: the answer must come from the server itself.
    const { page } = await app.openPage({ serviceWorkers: "block" });
    const res = await page.goto(`${app.server.url}/apiaries/xyz`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-type"]).toMatch(/^text\/html/);
    await page.getByRole("heading", { level: 1, name: "Hivekeep" }).waitFor();
    await apiaryItem(page, "Home yard").waitFor();
  });

  it("serves a web manifest that names Hivekeep, with icons", async () => {
    const { page } = await app.openPage({ serviceWorkers: "block" });
    await page.goto(app.server.url);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBeTruthy();
    const manifestUrl = new URL(href ?? "", app.server.url);

    const res = await fetch(manifestUrl);
    expect(res.status).toBe(200);
    const manifest = await res.json();
    expect(manifest).toMatchObject({
      name: "Hivekeep",
      short_name: "Hivekeep",
      display: "standalone",
      start_url: "/",
    });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    const sizes = manifest.icons.map((i: { sizes: string }) => i.sizes);
    expect(sizes).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    for (const icon of manifest.icons as { src: string; type: string }[]) {
      const iconRes = await fetch(new URL(icon.src, manifestUrl));
      expect(iconRes.status, icon.src).toBe(200);
      expect(iconRes.headers.get("content-type")).toContain(icon.type);
    }
  });

  it("opens from the service worker cache when offline and says so", async () => {
    const { page, context } = await app.openPage();
    await page.goto(app.server.url);
    await apiaryItem(page, "Home yard").waitFor();
    await page.getByRole("status").filter({ hasText: "Available offline" }).waitFor();
    // The shell is precached once the service worker has activated.
    const swState = await page.evaluate(async () => {
      const sw = (await navigator.serviceWorker.ready).active;
      if (sw && sw.state !== "activated") {
        await new Promise((done) => sw.addEventListener("statechange", done));
      }
      return sw?.state;
    });
    expect(swState).toBe("activated");

    await context.setOffline(true);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Hivekeep" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Offline" }).waitFor();
    const alert = page.getByRole("alert").filter({ hasText: "offline" });
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Could not load the apiaries");
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "offline-phone.png") });

    // Back online, the list reloads by itself.
    await context.setOffline(false);
    await page.getByRole("status").filter({ hasText: "Online" }).waitFor();
    await apiaryItem(page, "Home yard").waitFor();
    await alert.waitFor({ state: "detached" });
  });
});

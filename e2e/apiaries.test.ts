/**
 * The apiary screens of the field app against the real server: a list that shows what the server
 * has and what arrives later without a reload, the form (create, edit), the page, delete, and what
 * the server serves around the app (deep links, the web manifest).
 */
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { heading, listItem, navigate, rpc, waitAllSynced } from "./support/field.ts";

browserSuite("PWA: apiaries", () => {
  const app = useBrowserApp();

  it("lists the server's apiaries, and one written there later without a reload", async () => {
    await rpc(app.server, "ApiaryService/CreateApiary", {
      name: "Home yard",
      address: "12 Linden Lane",
    });
    const { page, pageErrors } = await app.openPage({ serviceWorkers: "block" });
    const res = await page.goto(`${app.server.url}/apiaries`);
    expect(res?.status()).toBe(200);
    await heading(page, "Apiaries").waitFor();
    const item = listItem(page, "Home yard");
    await item.waitFor();
    expect(await item.textContent()).toContain("12 Linden Lane");
    expect(await item.textContent()).toContain("0 hives");
    expect(await page.title()).toBe("Apiaries · Hivekeep");
    await waitAllSynced(page);

    // Written on the server: the Subscribe stream pokes the page, which pulls it.
    await rpc(app.server, "ApiaryService/CreateApiary", { name: "Heath meadow" });
    await listItem(page, "Heath meadow").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("creates, edits and deletes an apiary, and the server follows", async () => {
    const { page, pageErrors } = await app.openPage({ serviceWorkers: "block" });
    await page.goto(app.server.url);
    await navigate(page, "Apiaries");
    await page.getByRole("link", { name: "New apiary" }).click();
    await heading(page, "New apiary").waitFor();

    // A name is required (the browser itself asks for it).
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("required")).not.toBeNull();
    await page.getByLabel("Name", { exact: true }).fill("Orchard hill");
    await page.getByLabel("Address").fill("Old orchard, north gate");
    await page.getByLabel("Latitude").fill("48,137");
    await page.getByLabel("Longitude").fill("11.575");
    await page.getByRole("button", { name: "Save" }).click();
    await heading(page, "Orchard hill").waitFor();
    await page.getByText("Old orchard, north gate").waitFor();
    await page.getByRole("link", { name: /Open in a map/ }).waitFor();

    const synced = async (name: string) =>
      (await rpc(app.server, "ApiaryService/ListApiaries")).apiaries?.find(
        (a: { name: string }) => a.name === name,
      );
    await expect
      .poll(() => synced("Orchard hill"))
      .toMatchObject({ address: "Old orchard, north gate", lat: 48.137, lng: 11.575 });

    await page.getByRole("link", { name: "Edit" }).click();
    await heading(page, "Edit apiary").waitFor();
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Orchard hill");
    await page.getByLabel("Address").fill("Orchard, south gate");
    await page.getByRole("button", { name: "Save" }).click();
    await heading(page, "Orchard hill").waitFor();
    await page.getByText("Orchard, south gate").waitFor();
    await expect
      .poll(() => synced("Orchard hill"))
      .toMatchObject({ address: "Orchard, south gate" });

    // No hives stand there, so it can go (after asking once more).
    await page.getByRole("button", { name: "Delete apiary" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /^Delete the apiary / })
      .waitFor();
    await page.getByRole("button", { name: "Delete apiary" }).click();
    await heading(page, "Apiaries").waitFor();
    await expect.poll(() => listItem(page, "Orchard hill").count()).toBe(0);
    await expect.poll(() => synced("Orchard hill")).toBeUndefined();
    expect(pageErrors).toEqual([]);
  });

  it("an apiary with hives cannot be deleted, and says why", async () => {
    const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", { name: "Full yard" });
    await rpc(app.server, "HiveService/CreateHive", { apiaryId: apiary.id, name: "Linde" });
    const { page } = await app.openPage({ serviceWorkers: "block" });
    await page.goto(`${app.server.url}/apiaries/${apiary.id}`);
    await heading(page, "Full yard").waitFor();
    await listItem(page, "Linde").waitFor();
    await page.getByText("1 hive still stands here.").waitFor();
    expect(await page.getByRole("button", { name: "Delete apiary" }).count()).toBe(0);
  });

  it("serves the app shell for a deep link, and a record it does not know is not found", async () => {
    // No service worker: the answer must come from the server itself.
    const { page } = await app.openPage({ serviceWorkers: "block" });
    const res = await page.goto(`${app.server.url}/apiaries/no-such-apiary`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-type"]).toMatch(/^text\/html/);
    await heading(page, "Not found").waitFor();
    await page.getByRole("link", { name: "Back" }).click();
    await heading(page, "Apiaries").waitFor();
  });

  it("serves a web manifest that names Hivekeep, with icons", async () => {
    const { page } = await app.openPage({ serviceWorkers: "block" });
    await page.goto(app.server.url);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBe("/manifest.webmanifest");
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
});

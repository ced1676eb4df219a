/**
 * A new version of the app is offered, and taking it never loses or strands a change: with
 * changes waiting to sync, "Update" does not reload the page; once they have synced, the page
 * reloads into the new version by itself.
 *
 * The server serves a copy of the built PWA from a temporary folder; the "new build" is that copy
 * changed in place: index.html gains a marker, and the service worker's precache manifest a new
 * revision for it (so the browser sees a new service worker that precaches the new shell).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import {
  heading,
  listItem,
  navigate,
  openControlled,
  rpc,
  syncBar,
  waitAllSynced,
} from "./support/field.ts";
import { ensurePwaBuilt } from "./support/pwa.ts";

const served = mkdtempSync(join(tmpdir(), "hivekeep-e2e-update-"));

/** Turns the served copy into a "new build" whose shell carries `<meta name="hivekeep-build">`. */
function publishNewBuild(build: string): void {
  const indexPath = join(served, "index.html");
  const index = readFileSync(indexPath, "utf8");
  writeFileSync(
    indexPath,
    index.replace("<head>", `<head>\n    <meta name="hivekeep-build" content="${build}" />`),
  );
  const swPath = join(served, "sw.js");
  const sw = readFileSync(swPath, "utf8");
  const entry = /\{url:"index\.html",revision:"[0-9a-f]+"\}/;
  expect(sw, "sw.js precaches index.html with a revision").toMatch(entry);
  writeFileSync(swPath, sw.replace(entry, `{url:"index.html",revision:"build-${build}"}`));
}

browserSuite("PWA: update to a new version", () => {
  beforeAll(() => {
    cpSync(ensurePwaBuilt(), served, { recursive: true });
  });
  afterAll(() => {
    rmSync(served, { recursive: true, force: true });
  });
  const app = useBrowserApp({ HIVEKEEP_PWA_DIR: served });

  // The service worker's activation, after "Update", is the browser's own work: on a loaded
  // machine (CI runs the database lanes beside the browser tests) it once took longer than the
  // page's default 15 s, so the steps that wait for it have a minute.
  it("waits for waiting changes to sync before it reloads into the new version", {
    timeout: 180_000,
  }, async () => {
    const { page, context, pageErrors } = await app.openPage();
    await openControlled(page, app.server.url);
    await waitAllSynced(page);
    // A marker that a reload would wipe.
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    const notReloaded = () =>
      page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);
    // The build the page runs (read again while it reloads: a page between documents says "").
    const build = () =>
      page
        .evaluate(
          () =>
            document.querySelector('meta[name="hivekeep-build"]')?.getAttribute("content") ?? "",
        )
        .catch(() => "");
    expect(await build()).toBe("");

    // A new build is published and the page looks for it (as the browser does on navigation).
    publishNewBuild("2");
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      await registration.update();
    });
    const offer = page.getByRole("status").filter({ hasText: "A new version of Hivekeep" });
    await offer.filter({ hasText: "is available." }).waitFor();
    await offer.getByRole("button", { name: "Update" }).waitFor();

    // Offline, a change is written: it waits in the outbox.
    await context.setOffline(true);
    await syncBar(page).filter({ hasText: "Offline" }).waitFor();
    await navigate(page, "Apiaries");
    await page.getByRole("link", { name: "New apiary" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Written before the update");
    await page.getByRole("button", { name: "Save" }).click();
    await heading(page, "Written before the update").waitFor();
    await syncBar(page).filter({ hasText: "1 change waiting" }).waitFor();
    await offer.filter({ hasText: "once your 1 waiting change is synced" }).waitFor();

    // "Update" activates the new version, but the page stays until the change has synced.
    await offer.getByRole("button", { name: "Update" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Updating as soon as your 1 waiting change is synced." })
      .waitFor({ timeout: 60_000 })
      .catch(async (err: unknown) => {
        // What the page was doing instead, for the next time this is seen.
        const bar = await syncBar(page)
          .textContent()
          .catch(() => "?");
        throw new Error(
          `no "Updating as soon as …": reloaded ${!(await notReloaded())}, build "${await build()}", sync bar "${bar}"`,
          { cause: err },
        );
      });
    expect(await notReloaded()).toBe(true);
    expect(await build()).toBe("");
    // The page still works meanwhile.
    await navigate(page, "Apiaries");
    await listItem(page, "Written before the update").waitFor();
    expect(await notReloaded()).toBe(true);

    // Online: the change syncs, then the page reloads into the new version.
    await context.setOffline(false);
    await expect.poll(build, { timeout: 60_000 }).toBe("2");
    expect(await notReloaded()).toBe(false);
    const apiaries = await rpc(app.server, "ApiaryService/ListApiaries");
    expect(apiaries.apiaries.map((a: { name: string }) => a.name)).toContain(
      "Written before the update",
    );
    // The reloaded page is the app, with everything synced.
    await waitAllSynced(page);
    expect(pageErrors).toEqual([]);
  });
});

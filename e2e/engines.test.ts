/**
 * The app beyond Chromium: the field scenario and the sync leader across tabs, once per engine,
 * in Firefox ESR (WebDriver BiDi) and WebKitGTK (classic WebDriver). Chromium runs both in depth
 * (field.test.ts, device-leader.test.ts); here each other engine shows that the same app opens,
 * syncs, installs its service worker, reloads offline with its data (WebKitGTK has no
 * `navigator.storage`), keeps offline writes over a reload and sends them when back, and that
 * its tabs elect one leader. Offline is a proxy the test cuts (classic WebDriver has no switch).
 * Screenshots go to e2e/screenshots/engines-<engine>-*.png.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test/support/server.ts";
import { buildDeviceHarness } from "./support/device-harness.ts";
import {
  act,
  ci,
  type Engine,
  type EngineBrowser,
  type EngineProfile,
  engineSuite,
  saveScreenshot,
  waitFor,
} from "./support/engine.ts";
import { rpc } from "./support/field.ts";
import { firefox } from "./support/firefox.ts";
import { cuttableProxy } from "./support/proxy.ts";
import { ensurePwaBuilt } from "./support/pwa.ts";
import { webkit } from "./support/webkit.ts";

const apiaryNames = async (server: TestServer): Promise<string[]> =>
  (await rpc(server, "ApiaryService/ListApiaries")).apiaries.map((a: { name: string }) => a.name);

const engines: Engine[] = [firefox, webkit];

/**
 * One server with the PWA and one with the device harness for every engine (starting a server
 * is the slow part): each engine's records carry its name, so one engine's writes never stand
 * in for another's.
 */
let pwaServer: TestServer | undefined;
let harnessServer: TestServer | undefined;
beforeAll(async () => {
  if (engines.every((e) => e.missing) && !ci) return;
  [pwaServer, harnessServer] = await Promise.all([
    startTestServer("pglite", { HIVEKEEP_PWA_DIR: ensurePwaBuilt() }),
    buildDeviceHarness().then((dir) => startTestServer("pglite", { HIVEKEEP_PWA_DIR: dir })),
  ]);
  await rpc(pwaServer, "ApiaryService/CreateApiary", { name: "Lindenhof", address: "Am Hof 3" });
});
afterAll(async () => {
  await Promise.all([pwaServer?.stop(), harnessServer?.stop()]);
});
const started = (server: TestServer | undefined): TestServer => {
  if (!server) throw new Error("the servers start in beforeAll");
  return server;
};

for (const engine of engines) {
  engineSuite(engine, () => {
    let browser: EngineBrowser | undefined;
    const open: EngineProfile[] = [];
    const cleanup: (() => unknown)[] = [];
    const newProfile = async () => {
      if (!browser) throw new Error("the browser starts in beforeAll");
      const profile = await browser.newProfile();
      open.push(profile);
      return profile;
    };
    beforeAll(async () => {
      browser = await engine.launch();
    });
    afterEach(async () => {
      const violations = open.flatMap((p) => p.takeCspViolations());
      for (const p of open.splice(0)) await p.close().catch(() => {});
      for (const c of cleanup.splice(0).reverse()) await c();
      if (violations.length > 0) {
        throw new Error(`Content-Security-Policy violations:\n${violations.join("\n")}`);
      }
    });
    afterAll(async () => {
      await browser?.close();
    });

    it("works offline: reloads with its data, keeps offline writes, sends them back online", async () => {
      const server = started(pwaServer);
      const name = `Waldrand ${engine.name}`;
      const proxy = await cuttableProxy(server.url);
      cleanup.push(() => proxy.close());

      // First visit, online: the service worker installs and takes the page (after one reload).
      const tab = await (await newProfile()).newTab();
      await tab.goto(`${proxy.url}/apiaries`);
      await waitFor(
        tab,
        "navigator.serviceWorker.ready.then(() => true)",
        "the service worker to be ready",
      );
      if (!(await tab.run<boolean>("navigator.serviceWorker.controller !== null"))) {
        await tab.reload();
      }
      await waitFor(tab, "navigator.serviceWorker.controller !== null", "a controlling worker");
      await waitFor(tab, 'hk.has("Lindenhof") && hk.has("Synced ")', "the synced apiary list");
      await saveScreenshot(engine, tab, "1-online");

      // No signal: the app opens from the worker's cache, with the data from the replica.
      proxy.cut();
      await tab.reload();
      await waitFor(
        tab,
        'hk.heading() === "Apiaries" && hk.has("Lindenhof")',
        "the apiary list offline",
      );
      await saveScreenshot(engine, tab, "2-offline-reload");

      // A write offline waits on the device…
      await act(tab, 'hk.click("New apiary")');
      await waitFor(tab, 'hk.control("Name")', "the apiary form");
      await act(tab, `hk.fill("Name", ${JSON.stringify(name)})`);
      await act(tab, 'hk.fill("Address", "Forest edge, behind the mill")');
      await act(tab, 'hk.click("Save")');
      await waitFor(
        tab,
        `hk.heading() === ${JSON.stringify(name)} && hk.has("1 change waiting")`,
        "the new apiary, waiting to sync",
      );
      await saveScreenshot(engine, tab, "3-offline-write");

      // …and stays over a reload without signal.
      await tab.reload();
      await waitFor(
        tab,
        `hk.heading() === ${JSON.stringify(name)} && hk.has("1 change waiting")`,
        "the new apiary after an offline reload",
      );

      // Signal again: it syncs, and the server has it.
      await proxy.restore();
      await waitFor(tab, 'hk.has("Synced ")', "the write to sync", 60_000);
      await saveScreenshot(engine, tab, "4-back-online");
      await tab.resize(1280, 800);
      await waitFor(
        tab,
        "innerWidth === 1280 && innerHeight === 800 && new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
        "a 1280×800 page, painted",
      );
      await saveScreenshot(engine, tab, "5-desktop");
      const { apiaries } = await rpc(server, "ApiaryService/ListApiaries");
      expect(apiaries).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name, address: "Forest edge, behind the mill" }),
          expect.objectContaining({ name: "Lindenhof" }),
        ]),
      );
      // Room for a slow start on a busy machine, and for the app's own retry back online.
    }, 150_000);

    it("elects one sync leader across two tabs; the other takes over when it closes", async () => {
      const server = started(harnessServer);
      const names = [
        `From the other tab in ${engine.name}`,
        `After the handover in ${engine.name}`,
      ];
      const profile = await newProfile();
      const first = await profile.newTab();
      const second = await profile.newTab();
      for (const tab of [first, second]) {
        await tab.goto(`${server.url}/index.html`);
        await waitFor(tab, "window.hivekeepReady", "the device harness to load");
        await tab.run("window.hivekeepReady.then((c) => { c.sync.start(); return true; })");
      }
      const leads = "window.hivekeep.sync.status.leader";
      await waitFor(first, leads, "the first tab to lead");
      // The second tab waits on the lock: it never leads while the first is open.
      expect(await second.run<boolean>(leads)).toBe(false);

      await second.run(
        `window.hivekeep.apiaries.createApiary({ name: ${JSON.stringify(names[0])} }).then(() => true)`,
      );
      await expect.poll(() => apiaryNames(server)).toContain(names[0]);
      expect(await second.run<boolean>(leads)).toBe(false);
      // The harness page shows only "ready": the picture shows what this tab knows.
      await second.run(`(async () => {
        const { leader, pending } = window.hivekeep.sync.status;
        const { apiaries } = await window.hivekeep.apiaries.listApiaries({});
        document.getElementById("state").textContent = "second tab: leader " + leader +
          ", " + pending + " waiting; apiaries: " + apiaries.map((a) => a.name).join(", ");
        return true;
      })()`);
      await saveScreenshot(engine, second, "6-second-tab");

      await first.close();
      await waitFor(second, leads, "the second tab to take over");
      await second.run(
        `window.hivekeep.apiaries.createApiary({ name: ${JSON.stringify(names[1])} }).then(() => true)`,
      );
      await expect.poll(() => apiaryNames(server)).toContain(names[1]);
    }, 90_000);
  });
}

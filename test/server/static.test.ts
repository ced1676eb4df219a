/** Serving the built web app: files, SPA fallback, cache headers. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("the web app", () => {
  let t: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hk-pwa-"));
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>Hivekeep shell</title>");
    writeFileSync(join(dir, "assets", "index-abc123.js"), "console.log(1)");
    writeFileSync(join(dir, "sw.js"), "self.addEventListener('fetch', () => {})");
    t = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: dir });
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves hashed assets as immutable", async () => {
    const res = await fetch(`${t.url}/assets/index-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("makes the shell and the service worker revalidate", async () => {
    for (const path of ["/", "/sw.js"]) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("no-cache");
    }
  });

  it("answers client-side routes with the app shell", async () => {
    const res = await fetch(`${t.url}/apiaries/some-id/hives`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Hivekeep shell");
  });

  it("keeps RPC paths out of the fallback", async () => {
    const res = await fetch(`${t.url}/hivekeep.v1.ApiaryService/Nope`, { method: "POST" });
    expect(res.status).toBe(404);
  });
});

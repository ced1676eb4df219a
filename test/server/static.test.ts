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
    t = await startTestServer("pglite", {
      HIVEKEEP_PWA_DIR: dir,
      HIVEKEEP_CORS_ORIGINS: "https://app.example",
    });
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

  it("sends the security headers with the shell, its assets, the service worker and the RPCs", async () => {
    const answers = [
      await fetch(`${t.url}/`),
      await fetch(`${t.url}/apiaries/some-id`),
      await fetch(`${t.url}/assets/index-abc123.js`),
      await fetch(`${t.url}/sw.js`),
      await fetch(`${t.url}/hivekeep.v1.ApiaryService/ListApiaries`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      }),
      await fetch(`${t.url}/hivekeep.v1.ApiaryService/Nope`, { method: "POST" }),
      await fetch(`${t.url}/healthz`),
    ];
    for (const res of answers) {
      const where = `${res.url} (${res.status})`;
      const csp = res.headers.get("content-security-policy") ?? "";
      const directives = Object.fromEntries(
        csp.split(";").map((d) => {
          const [name = "", ...values] = d.trim().split(/\s+/);
          return [name, values.join(" ")];
        }),
      );
      expect(directives, where).toEqual({
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data: blob:",
        "font-src": "'self'",
        "connect-src": "'self' https://app.example",
        "worker-src": "'self'",
        "manifest-src": "'self'",
        "object-src": "'none'",
        "base-uri": "'self'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
      });
      expect(res.headers.get("x-frame-options"), where).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), where).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), where).toBe("no-referrer");
      expect(res.headers.get("cross-origin-opener-policy"), where).toBe("same-origin");
      expect(res.headers.get("permissions-policy"), where).toMatch(
        /^camera=\(self\), geolocation=\(self\), microphone=\(\)/,
      );
    }
  });
});

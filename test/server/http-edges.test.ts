import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe.each(databaseKinds)("HTTP edges on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, {
      HIVEKEEP_MAX_BODY: "64KiB",
      HIVEKEEP_CORS_ORIGINS: "https://app.example",
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("answers malformed JSON with invalid_argument", async () => {
    const r = await t.call("ApiaryService/CreateApiary", "{not json");
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
    expect(r.body.message).toMatch(/json|JSON|parse/);
  });

  it("answers wrong field types with invalid_argument naming the field", async () => {
    const r = await t.call("ApiaryService/CreateApiary", { name: 42 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
    expect(r.body.message).toMatch(/name/);
    const lat = await t.call("ApiaryService/CreateApiary", { name: "x", lat: "north" });
    expect(lat.status).toBe(400);
    expect(lat.body.message).toMatch(/lat/);
  });

  it("accepts a 32-bit integer given as a JSON string", async () => {
    const r = await t.call("SyncService/Pull", { cursor: "", limit: "2" });
    expect(r.status).toBe(200);
  });

  it("lets a listed browser origin call, and read the headers a client needs", async () => {
    const url = `${t.url}/hivekeep.v1.SyncService/Pull`;
    const preflight = await fetch(url, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,authorization,connect-protocol-version",
      },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
      "authorization",
    );
    const pull = await fetch(url, {
      method: "POST",
      headers: { origin: "https://app.example", "content-type": "application/json" },
      body: JSON.stringify({ cursor: "", limit: 1 }),
    });
    expect(pull.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const exposed = pull.headers.get("access-control-expose-headers")?.toLowerCase() ?? "";
    for (const h of ["hivekeep-next-cursor", "retry-after", "connect-protocol-version"]) {
      expect(exposed).toContain(h);
    }
    const other = await fetch(url, {
      method: "POST",
      headers: { origin: "https://elsewhere.example", "content-type": "application/json" },
      body: JSON.stringify({ cursor: "", limit: 1 }),
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers an unknown method with 404", async () => {
    const r = await t.call("ApiaryService/FlyAway", {});
    expect(r.status).toBe(404);
    const svc = await t.call("NoSuchService/Get", {});
    expect(svc.status).toBe(404);
  });

  it("refuses a body over the limit with a clear error and keeps serving", async () => {
    const r = await t.call("ApiaryService/CreateApiary", { name: "x".repeat(70 * 1024) });
    expect(r.status).toBe(429);
    expect(r.body.code).toBe("resource_exhausted");
    expect(r.body.message).toMatch(/larger than|limit|readMaxBytes/i);
    const ok = await t.call("ApiaryService/ListApiaries", {});
    expect(ok.status).toBe(200);
  });

  it("answers an unsupported content type with 415", async () => {
    const res = await fetch(`${t.url}/hivekeep.v1.ApiaryService/ListApiaries`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "{}",
    });
    expect(res.status).toBe(415);
  });

  it("reports liveness and readiness", async () => {
    const live = await fetch(`${t.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", database: kind });
  });

  it("serves a page at / even before the PWA is built", async () => {
    const res = await fetch(`${t.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Hivekeep");
  });
});

describe("shutdown", () => {
  it("drains an in-flight request before closing the database", async () => {
    const t = await startTestServer("pglite");
    const body = JSON.stringify({ name: "Last one" });
    // Send the headers and half the body, so the request is in flight in the server.
    const req = request(`${t.url}/hivekeep.v1.ApiaryService/CreateApiary`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": body.length },
    });
    const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d: Buffer) => {
          text += d.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
    });
    req.write(body.slice(0, 5));
    await new Promise((r) => setTimeout(r, 100));
    const closing = t.stop();
    await new Promise((r) => setTimeout(r, 100));
    req.end(body.slice(5));
    const r = await reply;
    await closing;
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text).apiary.name).toBe("Last one");
    // Closed: new connections are refused.
    await expect(fetch(`${t.url}/healthz`)).rejects.toThrow();
  });
});

import { request } from "node:http";
import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import type { DescService } from "@bufbuild/protobuf";
import * as proto from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/** Every service of the API, from the generated descriptors. */
const services = (Object.values(proto) as unknown[]).filter(
  (v): v is DescService => (v as { kind?: unknown })?.kind === "service",
);

/** Field 1, length-delimited, said to be 5 bytes long, with only 1: "premature EOF" for any message. */
const truncatedMessage = new Uint8Array([0x0a, 0x05, 0x41]);

interface RawReply {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
}

async function post(
  t: TestServer,
  path: string,
  body: Uint8Array<ArrayBuffer> | string,
  headers: Record<string, string>,
  method = "POST",
): Promise<RawReply> {
  const res = await fetch(`${t.url}/hivekeep.v1.${path}`, {
    method,
    headers,
    ...(method === "GET" ? {} : { body }),
  });
  return {
    status: res.status,
    headers: res.headers,
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

/** A Connect error body: exactly code and message, JSON. */
function errorBody(r: RawReply): { code: string; message: string } {
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  const body = JSON.parse(new TextDecoder().decode(r.bytes));
  expect(Object.keys(body).sort()).toEqual(["code", "message"]);
  return body;
}

/** A Connect stream envelope: flags, 4-byte big-endian length, data. */
function envelope(flags: number, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(5 + data.length);
  new DataView(bytes.buffer).setUint32(1, data.length);
  bytes[0] = flags;
  bytes.set(data, 5);
  return bytes;
}

/** The end-of-stream message of a Connect stream response (flag 2), parsed. */
function endOfStream(bytes: Uint8Array): { error?: { code: string; message: string } } {
  let at = 0;
  while (at + 5 <= bytes.length) {
    const flags = bytes[at] ?? 0;
    const length = new DataView(bytes.buffer, bytes.byteOffset + at + 1, 4).getUint32(0);
    const data = bytes.subarray(at + 5, at + 5 + length);
    if (flags & 2) return JSON.parse(new TextDecoder().decode(data));
    at += 5 + length;
  }
  throw new Error("the stream has no end-of-stream message");
}

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

  it("answers an unsupported content type with 415 and the error JSON", async () => {
    const r = await post(t, "ApiaryService/ListApiaries", "{}", { "content-type": "text/plain" });
    expect(r.status).toBe(415);
    expect(errorBody(r).code).toBe("invalid_argument");
    expect(r.headers.get("accept-post")).toMatch(/application\/json/);
    const stream = await post(t, "SyncService/Subscribe", "{}", {
      "content-type": "application/json",
    });
    expect(stream.status).toBe(415);
    expect(errorBody(stream).code).toBe("invalid_argument");
    expect(stream.headers.get("accept-post")).toMatch(/application\/connect\+json/);
  });

  it("answers GET, PUT and DELETE with 405 and the error JSON", async () => {
    for (const path of ["ApiaryService/ListApiaries", "SyncService/Subscribe"]) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const r = await post(t, path, "{}", { "content-type": "application/json" }, method);
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(errorBody(r).code).toBe("unimplemented");
        expect(r.headers.get("allow")).toBe("POST");
      }
    }
  });

  it("answers a request the HTTP parser refuses with the error JSON", async () => {
    // Over Node's 16 KiB of headers: the parser refuses it before any handler sees it.
    const long = await fetch(
      `${t.url}/hivekeep.v1.ApiaryService/ListApiaries?${"q".repeat(20_000)}`,
    );
    expect(long.status).toBe(431);
    const body = await long.json();
    expect(Object.keys(body).sort()).toEqual(["code", "message"]);
    expect(body.code).toBe("resource_exhausted");
    // Not HTTP at all.
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(t.url).port), new URL(t.url).hostname);
      let text = "";
      socket.on("data", (d: Buffer) => {
        text += d.toString();
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.write("HELLO\r\n\r\n");
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)).code).toBe("invalid_argument");
  });

  it("answers a malformed binary body with invalid_argument on every unary method", async () => {
    let methods = 0;
    for (const service of services) {
      for (const method of service.methods) {
        if (method.methodKind !== "unary") continue;
        methods++;
        const path = `${service.name}/${method.name}`;
        const r = await post(t, path, truncatedMessage, { "content-type": "application/proto" });
        expect(r.status, path).toBe(400);
        const body = errorBody(r);
        expect(body.code, path).toBe("invalid_argument");
        expect(body.message).toMatch(/premature EOF/);
      }
    }
    expect(methods).toBeGreaterThan(40);
  });

  it("ends a Subscribe stream whose request is malformed or wrongly compressed with invalid_argument", async () => {
    const headers = { "content-type": "application/connect+proto" };
    const malformed = await post(
      t,
      "SyncService/Subscribe",
      envelope(0, truncatedMessage),
      headers,
    );
    expect(malformed.status).toBe(200);
    expect(endOfStream(malformed.bytes).error?.code).toBe("invalid_argument");
    // Flagged compressed, but the request names no encoding.
    const compressed = await post(
      t,
      "SyncService/Subscribe",
      envelope(1, new Uint8Array()),
      headers,
    );
    expect(compressed.status).toBe(200);
    expect(endOfStream(compressed.bytes).error?.code).toBe("invalid_argument");
  });

  it("accepts a gzip request body", async () => {
    const r = await post(
      t,
      "ApiaryService/CreateApiary",
      gzipSync(JSON.stringify({ name: "Zipped" })),
      {
        "content-type": "application/json",
        "content-encoding": "gzip",
      },
    );
    expect(r.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(r.bytes)).apiary.name).toBe("Zipped");
  });

  it("refuses a gzip bomb by its size after decompression", async () => {
    // 48 KiB on the wire (under the 64 KiB limit), 48 MiB once decompressed.
    const bomb = gzipSync(Buffer.alloc(48 * 1024 * 1024, " "), { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    const r = await post(t, "ApiaryService/CreateApiary", bomb, {
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    expect(r.status).toBe(429);
    const body = errorBody(r);
    expect(body.code).toBe("resource_exhausted");
    expect(body.message).toMatch(/decompression/);
    expect((await t.call("ApiaryService/ListApiaries", {})).status).toBe(200);
  });

  it("answers a broken gzip body with invalid_argument", async () => {
    const whole = gzipSync(JSON.stringify({ name: "Cut short" }));
    for (const body of [whole.subarray(0, whole.length - 6), new TextEncoder().encode("{}")]) {
      const r = await post(t, "ApiaryService/CreateApiary", body, {
        "content-type": "application/json",
        "content-encoding": "gzip",
      });
      expect(r.status).toBe(400);
      expect(errorBody(r).code).toBe("invalid_argument");
    }
  });

  it("answers an encoding it does not know with 415, unimplemented and the one it knows", async () => {
    const r = await post(t, "ApiaryService/CreateApiary", "{}", {
      "content-type": "application/json",
      "content-encoding": "zstd",
    });
    expect(r.status).toBe(415);
    expect(errorBody(r).code).toBe("unimplemented");
    expect(r.headers.get("accept-encoding")).toBe("gzip");
  });

  it("lets a client still uploading read an early error to the end", async () => {
    for (const [path, headers, status, code] of [
      [
        "ApiaryService/CreateApiary",
        { "content-type": "application/json" },
        429,
        "resource_exhausted",
      ],
      ["ApiaryService/CreateApiary", { "content-type": "text/plain" }, 415, "invalid_argument"],
      ["ApiaryService/FlyAway", { "content-type": "application/json" }, 404, "unimplemented"],
    ] as const) {
      const chunk = Buffer.alloc(32 * 1024, " ");
      const chunks = 24; // 768 KiB, well over the 64 KiB limit
      const req = request(`${t.url}/hivekeep.v1.${path}`, {
        method: "POST",
        headers: { ...headers, "content-length": chunk.length * chunks },
      });
      const failed: Error[] = [];
      const fail = (err: Error | null | undefined) => {
        if (err) failed.push(err);
      };
      req.on("error", fail);
      const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req.on("response", (res) => {
          let text = "";
          res.on("data", (d: Buffer) => {
            text += d.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
          res.on("error", reject);
        });
      });
      req.write(chunk);
      // The answer comes before the upload ends; the client goes on sending, slowly.
      const answered = await reply;
      for (let i = 1; i < chunks && failed.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        await new Promise<void>((r) => req.write(chunk, (err) => r(fail(err))));
      }
      await new Promise<void>((r) => req.end(() => r()));
      expect(
        failed.map((e) => e.message),
        path,
      ).toEqual([]);
      expect(answered.status).toBe(status);
      expect(JSON.parse(answered.text).code).toBe(code);
    }
  });

  it("answers a body too large to drain, then closes the connection", async () => {
    const req = request(`${t.url}/hivekeep.v1.ApiaryService/CreateApiary`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": 100 * 1024 * 1024 },
    });
    req.on("error", () => {});
    const reply = new Promise<{ status: number; connection?: string; text: string }>((resolve) => {
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d: Buffer) => {
          text += d.toString();
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }),
        );
      });
    });
    req.write(Buffer.alloc(32 * 1024, " "));
    const answered = await reply;
    req.destroy();
    expect(answered.status).toBe(429);
    expect(answered.connection).toBe("close");
    expect(JSON.parse(answered.text).code).toBe("resource_exhausted");
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

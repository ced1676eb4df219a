/**
 * Hosted mode authenticates a request before reading its body (issue 27, finding 8): a stranger
 * cannot make the server read megabytes. Without a valid token a request is answered
 * `unauthenticated` from its headers, with at most 64 KiB of its body read (a larger one is left
 * unread and its connection closed; a small one is drained so the connection stays usable); the
 * sign-in methods take at most 64 KiB; a signed-in device still pushes megabytes.
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { useTestServer } from "../support/fixtures.ts";
import type { TestServer } from "../support/server.ts";
import { apiaryUpsert, device, pushJson } from "../support/sync.ts";

const announced = 8 * 1024 * 1024;
const sentPart = 16 * 1024;

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: { code?: string; message?: string };
  /** Request bytes this client wrote (headers and body) before the answer ended. */
  readonly written: number;
}

/**
 * Sends the request line, the headers announcing an 8 MiB body and 16 KiB of it, then nothing
 * more: the answer must come from what was sent. Ends at the server's close or its answer's end.
 */
function partialPost(t: TestServer, path: string, headers: Record<string, string>) {
  const url = new URL(t.url);
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const head =
      `POST /hivekeep.v1.${path} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      Object.entries({ "content-length": String(announced), ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("") +
      "\r\n";
    const written = Buffer.byteLength(head) + sentPart;
    let text = "";
    const finish = () => {
      const [top = "", body = ""] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = top.split("\r\n");
      const answerHeaders = Object.fromEntries(
        lines.map((l) => [
          l.slice(0, l.indexOf(":")).toLowerCase(),
          l.slice(l.indexOf(":") + 1).trim(),
        ]),
      );
      const length = Number(answerHeaders["content-length"]);
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers: answerHeaders,
        body: JSON.parse(body.slice(0, length)),
        written,
      });
    };
    socket.on("data", (d: Buffer) => {
      text += d.toString("latin1");
      const at = text.indexOf("\r\n\r\n");
      const length = /content-length: *(\d+)/i.exec(text.slice(0, at))?.[1];
      if (at >= 0 && length !== undefined && text.length >= at + 4 + Number(length)) {
        finish();
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.write(head);
    socket.write(Buffer.alloc(sentPart, 0x20));
  });
}

describe.each(databaseKinds)("the HTTP edge of hosted mode on %s", (kind) => {
  const t = useTestServer(kind, loginEnv, { throttle: relaxedThrottle });
  let owner: Account;
  beforeAll(async () => {
    owner = await signUp(t);
  });

  it("answers an unauthenticated 8 MiB request from its headers, closing the connection", async () => {
    for (const authorization of [undefined, "Bearer hks_not-a-real-session-token", "Basic eA=="]) {
      for (const [path, type] of [
        ["SyncService/Push", "application/proto"],
        ["ApiaryService/CreateApiary", "application/json"],
        ["ApiaryService/FlyAway", "application/json"],
      ] as const) {
        const r = await partialPost(t, path, {
          "content-type": type,
          ...(authorization ? { authorization } : {}),
        });
        const what = `${path} with ${authorization ?? "no token"}`;
        const unknown = path.endsWith("FlyAway");
        expect(r.status, what).toBe(unknown ? 404 : 401);
        expect(r.body.code, what).toBe(unknown ? "unimplemented" : "unauthenticated");
        expect(r.headers.connection, what).toBe("close");
        expect(r.written, what).toBeLessThan(sentPart + 1024);
      }
    }
  });

  it("drains a small refused body, so the connection serves the next request", async () => {
    const sockets = new Set<unknown>();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const once = () =>
      new Promise<{ status: number; code: string; connection?: string }>((resolve, reject) => {
        const req = request(`${t.url}/hivekeep.v1.ApiaryService/CreateApiary`, {
          method: "POST",
          agent,
          headers: { "content-type": "application/json" },
        });
        req.on("socket", (s) => sockets.add(s));
        req.on("response", (res) => {
          let text = "";
          res.on("data", (d: Buffer) => {
            text += d.toString();
          });
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              code: JSON.parse(text).code,
              ...(res.headers.connection ? { connection: res.headers.connection } : {}),
            }),
          );
        });
        req.on("error", reject);
        req.end(JSON.stringify({ name: "x".repeat(20_000) }));
      });
    const answers = [await once(), await once()];
    agent.destroy();
    expect(answers).toEqual([
      { status: 401, code: "unauthenticated", connection: "keep-alive" },
      { status: 401, code: "unauthenticated", connection: "keep-alive" },
    ]);
    expect(sockets.size).toBe(1);
  });

  it("reads at most 64 KiB of a sign-in request", async () => {
    for (const method of ["SignUp", "Login", "StartDemo"]) {
      const r = await t.call(`AuthService/${method}`, {
        email: `${randomUUID()}@example.org`,
        password: "x".repeat(70 * 1024),
        organizationName: "Big",
      });
      expect(r.status, method).toBe(429);
      expect(r.body.code, method).toBe("resource_exhausted");
    }
    // Within it, a sign-in works as ever.
    const r = await t.call("AuthService/Login", { email: owner.email, password: owner.password });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it("still takes a signed-in device's push of megabytes", async () => {
    const d = device(`d${randomUUID().replace(/-/g, "").slice(0, 16)}`);
    const changes = Array.from({ length: 750 }, () => {
      const id = randomUUID();
      return apiaryUpsert(id, d.stamp(), { name: "n".repeat(10_000) });
    });
    const r = await pushJson(owner.t, changes);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(JSON.stringify({ changes }).length).toBeGreaterThan(7 * 1024 * 1024);
  });
});

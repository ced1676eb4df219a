/**
 * Faults (issue 13): the server process killed (SIGKILL) in the middle of Push loops and started
 * again on the same database; its Postgres connections terminated under write load, and the
 * database unreachable for a while (through a TCP proxy the test can cut); clients that drop
 * their connections half-way through a Subscribe stream, a large Pull and a large Push.
 *
 * Afterwards every acknowledged write is present exactly once (read back over the API: Pull),
 * a batch that was not acknowledged is there whole or not at all, and the server recovered
 * without help: the same process keeps serving, /readyz answers 200 again, and the LISTEN
 * connection behind Subscribe pokes again. No timing is asserted: the test waits for
 * conditions with generous ceilings.
 */

import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { connect, createServer, type Server, type Socket } from "node:net";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { maxPullLimit } from "@hivekeep/client-core/core";
import { SyncService } from "@hivekeep/proto";
import postgres from "postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { databaseKinds, lastingDatabase } from "../support/databases.ts";
import { eventually, startMainProcess as runServer } from "../support/main-process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { apiaryUpsert, device, streamReader, type TestChange, toJson } from "../support/sync.ts";

interface Reply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by the tests.
  readonly body: any;
}

/** POSTs JSON to /hivekeep.v1.<path>; a failure to connect or a dropped answer throws. */
async function call(url: string, path: string, body: unknown): Promise<Reply> {
  const res = await fetch(`${url}/hivekeep.v1.${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the test sees the raw text.
  }
  return { status: res.status, body: parsed };
}

const keyOf = (c: Pick<TestChange, "entity" | "entityId" | "hlc">) =>
  `${c.entity}/${c.entityId}@${c.hlc}`;

/** How many feed rows each change (entity/id@hlc) has, read with Pull from the start. */
async function feedCounts(url: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let cursor = "";
  for (;;) {
    const r = await call(url, "SyncService/Pull", { cursor, limit: maxPullLimit });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (const c of r.body.changes ?? []) {
      const key = keyOf(c);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    cursor = r.body.nextCursor;
    if (!r.body.hasMore) return counts;
  }
}

/** A batch of new apiaries, stamped by one device. */
function apiaryBatch(dev: ReturnType<typeof device>, size: number, label: string): TestChange[] {
  return Array.from({ length: size }, (_, i) =>
    apiaryUpsert(randomUUID(), dev.stamp(), { name: `${label} ${i}` }),
  );
}

/** What a write loop saw: acknowledged batches, and the answers of the others. */
interface Outcome {
  readonly acknowledged: TestChange[][];
  readonly unacknowledged: TestChange[][];
  readonly failures: string[];
}

/**
 * Concurrent Push loops until `stop()` resolves; every batch is a fresh set of apiaries.
 * A batch answered 200 is acknowledged; any other answer (or none) is not.
 */
function pushLoops(url: () => string, loops: number, batchSize: number) {
  const outcome: Outcome = { acknowledged: [], unacknowledged: [], failures: [] };
  let stopping = false;
  const run = async (w: number) => {
    const dev = device(`loop-${w}-${randomUUID().slice(0, 8)}`);
    for (let i = 0; !stopping; i++) {
      const batch = apiaryBatch(dev, batchSize, `L${w} B${i}`);
      try {
        const r = await call(url(), "SyncService/Push", { changes: batch.map(toJson) });
        if (r.status === 200) outcome.acknowledged.push(batch);
        else {
          outcome.unacknowledged.push(batch);
          outcome.failures.push(`${r.status} ${r.body?.code}: ${r.body?.message}`);
        }
      } catch (err) {
        outcome.unacknowledged.push(batch);
        outcome.failures.push(`no answer: ${(err as Error).cause ?? err}`);
        // The server is gone: wait a little before trying the next batch.
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const running = Array.from({ length: loops }, (_, w) => run(w));
  return {
    outcome,
    async stop(): Promise<Outcome> {
      stopping = true;
      await Promise.all(running);
      return outcome;
    },
  };
}

/** Every acknowledged change exactly once; an unacknowledged batch whole or not at all. */
function expectExactlyOnce(counts: Map<string, number>, outcome: Outcome): void {
  for (const batch of outcome.acknowledged) {
    for (const c of batch) expect(counts.get(keyOf(c)) ?? 0, keyOf(c)).toBe(1);
  }
  for (const batch of outcome.unacknowledged) {
    const present = batch.map((c) => counts.get(keyOf(c)) ?? 0);
    expect(present.every((n) => n === present[0]) && (present[0] ?? 0) <= 1, String(present)).toBe(
      true,
    );
  }
}

/**
 * A write pokes a Subscribe stream: the stream is opened one change behind, so its first poke
 * says it is registered and waiting; the poke after the write can then only come through the
 * server's LISTEN connection (writers NOTIFY in their transaction).
 */
async function expectPokeAfterWrite(url: string): Promise<void> {
  let cursor = "";
  for (let more = true; more; ) {
    const page = await call(url, "SyncService/Pull", { cursor, limit: maxPullLimit });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    cursor = page.body.nextCursor;
    more = page.body.hasMore;
  }
  const head = Number(cursor);
  const abort = new AbortController();
  const transport = createConnectTransport({ baseUrl: url, httpVersion: "1.1" });
  const stream = streamReader(
    createClient(SyncService, transport).subscribe(
      { cursor: String(head - 1) },
      { signal: abort.signal },
    ),
  );
  try {
    const first = await stream.until((m) => !m.heartbeat, 30_000);
    expect(first, String(stream.error)).toEqual({ cursor: String(head), heartbeat: false });
    // The LISTEN connection may come back a moment after the pool (each has its own retry
    // timer), and a poke sent before it is back is lost (harmless: devices pull anyway), so
    // write until one arrives, within a generous ceiling.
    let poke: { cursor: string } | undefined;
    for (let i = 0; i < 30 && poke === undefined && !stream.ended; i++) {
      const w = await call(url, "ApiaryService/CreateApiary", { name: `Poke ${i}` });
      expect(w.status, JSON.stringify(w.body)).toBe(200);
      poke = await stream.until((m) => !m.heartbeat && Number(m.cursor) > head, 1_000);
    }
    expect(poke, String(stream.error)).toBeDefined();
  } finally {
    abort.abort();
  }
}

async function readyz(url: string): Promise<number> {
  const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(30_000) });
  await res.text();
  return res.status;
}

describe.each(databaseKinds)("faults on %s", (kind) => {
  // A case that only one database has (terminating Postgres connections) or that needs no
  // database at all (the process's fatal path: run once, on PGlite) is not registered elsewhere,
  // rather than reported as skipped.
  const on = (k: typeof kind) => (kind === k ? it : () => {});
  const children: ChildProcess[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill("SIGKILL");
  });
  afterAll(async () => {
    for (const fn of cleanup.splice(0)) await fn();
  });

  it("a server killed (SIGKILL) during Push loops and restarted loses and duplicates nothing", async () => {
    const database = await lastingDatabase(kind);
    cleanup.push(() => database.drop());
    let server = await runServer(database.env);
    children.push(server.child);
    const all: Outcome = { acknowledged: [], unacknowledged: [], failures: [] };

    for (let round = 0; round < 2; round++) {
      const loops = pushLoops(() => server.url, 4, 10);
      const before = loops.outcome.acknowledged.length;
      await eventually(() =>
        expect(loops.outcome.acknowledged.length).toBeGreaterThan(before + 12),
      );
      server.child.kill("SIGKILL");
      await server.exited;
      const outcome = await loops.stop();
      all.acknowledged.push(...outcome.acknowledged);
      all.unacknowledged.push(...outcome.unacknowledged);

      // Started again on the same database: nothing acknowledged is lost, nothing half-written.
      server = await runServer(database.env);
      children.push(server.child);
      expectExactlyOnce(await feedCounts(server.url), all);
    }

    // A device retries what was not acknowledged: each change lands exactly once.
    for (const batch of all.unacknowledged) {
      const r = await call(server.url, "SyncService/Push", { changes: batch.map(toJson) });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const counts = await feedCounts(server.url);
    for (const batch of [...all.acknowledged, ...all.unacknowledged]) {
      for (const c of batch) expect(counts.get(keyOf(c)) ?? 0, keyOf(c)).toBe(1);
    }
    expect(await readyz(server.url)).toBe(200);
  });

  on("postgres")(
    "survives pg_terminate_backend under write load: the same process serves on, fails only with unavailable",
    async () => {
      const database = await lastingDatabase(kind);
      cleanup.push(() => database.drop());
      const server = await runServer(database.env);
      children.push(server.child);
      const dbName = new URL(database.env.DATABASE_URL ?? "").pathname.slice(1);
      const admin = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
      cleanup.push(() => admin.end());

      const loops = pushLoops(() => server.url, 6, 5);
      let terminated = 0;
      for (let round = 0; round < 8 && server.alive(); round++) {
        // Wait for writes between terminations, so each one hits a server under load.
        const acks = loops.outcome.acknowledged.length;
        await eventually(() => {
          if (!server.alive()) return;
          expect(loops.outcome.acknowledged.length).toBeGreaterThan(acks + 3);
        });
        const rows = await admin.unsafe(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [dbName],
        );
        terminated += rows.length;
      }
      const outcome = await loops.stop();

      // The process did not die; the output would say why it did.
      expect(server.alive(), server.output().slice(-3000)).toBe(true);
      expect(terminated).toBeGreaterThanOrEqual(8);
      // A call that failed failed with `unavailable` (503), never internal or a dropped answer.
      for (const f of outcome.failures) expect(f).toMatch(/^503 unavailable: /);
      await eventually(async () => expect(await readyz(server.url)).toBe(200));
      expectExactlyOnce(await feedCounts(server.url), outcome);
      // The LISTEN connection came back by itself: a write pokes a Subscribe stream.
      await expectPokeAfterWrite(server.url);
      expect(server.alive()).toBe(true);
    },
  );

  on("postgres")(
    "connections terminated and reset 30 times under pipelined load: every request answers within the connection timeout",
    async () => {
      // Issue 27, finding 10: a statement pipelined onto a connection between its socket's
      // error (ECONNRESET) and its close stayed waiting for an answer into the next session,
      // which then hung (server/patches/postgres@3.4.9.patch, settleUnanswerable). Half the
      // rounds terminate the backends; the other half reset the connections at a proxy (a
      // terminated backend with statements still unread resets too, but not every time).
      const database = await lastingDatabase(kind);
      cleanup.push(() => database.drop());
      const proxy = await tcpProxy(new URL(database.env.DATABASE_URL ?? ""));
      cleanup.push(() => proxy.close());
      const server = await runServer({ DATABASE_URL: proxy.url });
      children.push(server.child);
      const dbName = new URL(database.env.DATABASE_URL ?? "").pathname.slice(1);
      const admin = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
      cleanup.push(() => admin.end());

      // More requests at once than the server's pool has connections (10), so statements queue
      // and pipeline onto busy connections: Pushes of 250 changes (transactions that send each
      // chunk's writes while they merge the next), reads (Pull, ListApiaries) and small writes
      // (CreateApiary).
      const load = timedLoad(server.url, { pushers: 6, readers: 16, writers: 4 });
      let cut = 0;
      for (let round = 0; round < 30 && server.alive(); round++) {
        // Requests answered between cuts, so each one hits a server under load.
        const answered = load.answered();
        await eventually(() => {
          if (!server.alive()) return;
          expect(load.answered()).toBeGreaterThan(answered + 10);
        });
        if (round % 2 === 1) cut += proxy.reset();
        else {
          const rows = await admin.unsafe(
            "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
            [dbName],
          );
          cut += rows.length;
        }
      }
      const outcome = await load.stop();

      expect(server.alive(), server.output().slice(-3000)).toBe(true);
      expect(cut).toBeGreaterThanOrEqual(30);
      // The one bound on time here is the requirement itself: a client or load balancer gives
      // up about then, so an answer later than that is no answer.
      expect(outcome.slow, outcome.slow.join("\n")).toEqual([]);
      for (const f of outcome.failures) expect(f).toMatch(/^503 unavailable: /);
      expectExactlyOnce(await feedCounts(server.url), outcome);
    },
  );

  on("postgres")(
    "the database unreachable for a while: unavailable and not ready during, ready and poking after",
    async () => {
      const database = await lastingDatabase(kind);
      cleanup.push(() => database.drop());
      const proxy = await tcpProxy(new URL(database.env.DATABASE_URL ?? ""));
      cleanup.push(() => proxy.close());
      const server = await runServer({ DATABASE_URL: proxy.url });
      children.push(server.child);
      const ok = await call(server.url, "ApiaryService/CreateApiary", { name: "Before" });
      expect(ok.status).toBe(200);

      proxy.cut();
      // While the database is away: not ready, and calls answer unavailable; none hangs.
      await eventually(async () => expect(await readyz(server.url)).toBe(503));
      for (const [path, body] of [
        ["ApiaryService/CreateApiary", { name: "During" }],
        ["ApiaryService/ListApiaries", {}],
      ] as const) {
        const r = await call(server.url, path, body);
        expect(r.status, JSON.stringify(r.body)).toBe(503);
        expect(r.body.code).toBe("unavailable");
        expect(r.body.message).not.toMatch(/CONNECTION|ECONN|127\.0\.0\.1/);
      }
      const pull = await call(server.url, "SyncService/Pull", { cursor: "" });
      expect(pull.body.code).toBe("unavailable");
      // Many at once (more than the pool has connections): every one answered, unavailable.
      const burst = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          call(server.url, "ApiaryService/CreateApiary", { name: `Burst ${i}` }),
        ),
      );
      expect(burst.map((r) => `${r.status} ${r.body.code}`)).toEqual(
        burst.map(() => "503 unavailable"),
      );

      await proxy.restore();
      await eventually(async () => expect(await readyz(server.url)).toBe(200));
      await eventually(async () =>
        expect(
          (await call(server.url, "ApiaryService/CreateApiary", { name: "After" })).status,
        ).toBe(200),
      );
      await expectPokeAfterWrite(server.url);
      expect(server.alive()).toBe(true);
    },
  );

  on("pglite")(
    "an error nothing caught ends the process non-zero with one clear fatal line",
    async () => {
      // A module loaded before main.ts throws from a timer callback when told to (SIGUSR2):
      // an error no request handler or promise chain could catch, like the driver bug above.
      const thrower =
        "data:text/javascript,process.on('SIGUSR2',()=>setImmediate(()=>{throw new Error('planted failure')}))";
      const server = await runServer({ HIVEKEEP_DATA_DIR: ":memory:" }, ["--import", thrower]);
      children.push(server.child);
      expect(await readyz(server.url)).toBe(200);
      server.child.kill("SIGUSR2");
      expect(await server.exited).toBe(1);
      const fatal = server
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .filter((l) => l.level === 60);
      expect(fatal).toEqual([
        expect.objectContaining({
          msg: "hivekeep: fatal error, exiting",
          kind: "uncaught exception",
          err: expect.objectContaining({ message: "planted failure" }),
        }),
      ]);
    },
  );

  describe("clients that drop their connections half-way", () => {
    let t: TestServer;
    afterAll(async () => {
      await t?.stop();
    });

    it("leave no stream behind and nothing half-written", async () => {
      t = await startTestServer(kind, {}, { heartbeatMs: 500 });
      const dev = device("dropper");
      // A feed long enough that Pull answers in many chunks.
      const seeded = apiaryBatch(dev, 3000, "Seed");
      const seed = await call(t.url, "SyncService/Push", { changes: seeded.map(toJson) });
      expect(seed.status, JSON.stringify(seed.body)).toBe(200);

      // Subscribe streams dropped mid-stream.
      const transport = createConnectTransport({ baseUrl: t.url, httpVersion: "1.1" });
      const aborts = Array.from({ length: 20 }, () => new AbortController());
      const streams = aborts.map((a) =>
        streamReader(
          createClient(SyncService, transport).subscribe({ cursor: "" }, { signal: a.signal }),
        ),
      );
      for (const s of streams) expect(await s.next(30_000)).toBeDefined();
      expect(t.server.notifier.size()).toBeGreaterThanOrEqual(20);
      for (const a of aborts) a.abort();

      // A large Pull dropped after its first bytes, several times.
      for (let i = 0; i < 5; i++)
        await dropAfterFirstBytes(t.url, "SyncService/Pull", { cursor: "", limit: maxPullLimit });

      // A large Push whose body stops half-way: nothing of it may land.
      const halfPushed = apiaryBatch(dev, 2000, "Half");
      for (let i = 0; i < 3; i++) {
        await sendHalfAndDrop(
          t.url,
          "SyncService/Push",
          JSON.stringify({ changes: halfPushed.map(toJson) }),
        );
      }
      // And one whose answer is dropped before it is read: it lands whole or not at all.
      const unread = apiaryBatch(dev, 2000, "Unread");
      await dropAfterFirstBytes(t.url, "SyncService/Push", { changes: unread.map(toJson) });

      await eventually(() => expect(t.server.notifier.size()).toBe(0));
      expect(await readyz(t.url)).toBe(200);
      const after = await call(t.url, "ApiaryService/CreateApiary", { name: "After" });
      expect(after.status).toBe(200);
      const counts = await feedCounts(t.url);
      expectExactlyOnce(counts, {
        acknowledged: [seeded],
        unacknowledged: [halfPushed, unread],
        failures: [],
      });
      for (const c of halfPushed) expect(counts.get(keyOf(c)) ?? 0).toBe(0);
    });
  });
});

/**
 * Milliseconds within which every request must be answered while the database drops
 * connections: postgres.js's connect_timeout (server/src/db/postgres.ts), the longest a request
 * may rightly wait for a connection. A client or load balancer gives up soon after.
 */
const answerWithinMs = 5_000;

/**
 * Pushes, reads and small RPC writes in loops until `stop()`, each request timed: one without an
 * answer within answerWithinMs (aborted then) or answered later than that is `slow`.
 */
function timedLoad(url: string, n: { pushers: number; readers: number; writers: number }) {
  const outcome: Outcome & { slow: string[] } = {
    acknowledged: [],
    unacknowledged: [],
    failures: [],
    slow: [],
  };
  let stopping = false;
  let answered = 0;
  const timed = async (path: string, body: unknown): Promise<Reply | undefined> => {
    const started = performance.now();
    try {
      const res = await fetch(`${url}/hivekeep.v1.${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(answerWithinMs + 1_000),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (ms > answerWithinMs) outcome.slow.push(`${path}: ${Math.round(ms)} ms`);
      answered++;
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: the failure shows the raw text.
      }
      return { status: res.status, body: parsed };
    } catch (err) {
      outcome.slow.push(
        `${path}: no answer after ${Math.round(performance.now() - started)} ms (${err})`,
      );
      return undefined;
    }
  };
  const record = (r: Reply | undefined) => {
    if (r !== undefined && r.status !== 200)
      outcome.failures.push(`${r.status} ${r.body?.code}: ${r.body?.message}`);
  };
  const pusher = async (w: number) => {
    const dev = device(`pusher-${w}-${randomUUID().slice(0, 8)}`);
    for (let i = 0; !stopping; i++) {
      const batch = apiaryBatch(dev, 250, `P${w} B${i}`);
      const r = await timed("SyncService/Push", { changes: batch.map(toJson) });
      if (r?.status === 200) outcome.acknowledged.push(batch);
      else outcome.unacknowledged.push(batch);
      record(r);
    }
  };
  const reader = async () => {
    for (let i = 0; !stopping; i++) {
      record(
        await (i % 2 === 0
          ? timed("SyncService/Pull", { cursor: "", limit: 200 })
          : timed("ApiaryService/ListApiaries", {})),
      );
    }
  };
  const writer = async (w: number) => {
    for (let i = 0; !stopping; i++)
      record(await timed("ApiaryService/CreateApiary", { name: `W${w} ${i}` }));
  };
  const running = [
    ...Array.from({ length: n.pushers }, (_, w) => pusher(w)),
    ...Array.from({ length: n.readers }, () => reader()),
    ...Array.from({ length: n.writers }, (_, w) => writer(w)),
  ];
  return {
    answered: () => answered,
    async stop() {
      stopping = true;
      await Promise.all(running);
      return outcome;
    },
  };
}

/** Sends a JSON call and destroys the socket as soon as the first bytes of the answer arrive. */
function dropAfterFirstBytes(url: string, path: string, body: unknown): Promise<void> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/hivekeep.v1.${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data) },
    });
    req.on("response", (res) => {
      res.once("data", () => {
        req.destroy();
        resolve();
      });
      res.once("end", resolve);
    });
    req.on("error", (err) => (req.destroyed ? resolve() : reject(err)));
    req.on("close", () => resolve());
    req.end(data);
  });
}

/** Announces the whole body, sends half of it and closes the connection. */
function sendHalfAndDrop(url: string, path: string, data: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const bytes = Buffer.from(data);
      socket.write(
        `POST /hivekeep.v1.${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${bytes.length}\r\n\r\n`,
      );
      socket.write(bytes.subarray(0, bytes.length >> 1), () => {
        // Give the server the half before the connection goes.
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
    });
    socket.on("error", reject);
  });
}

/**
 * A TCP proxy in front of the Postgres server: `cut()` drops every connection through it and
 * refuses new ones (the database is away), `restore()` accepts again on the same port.
 */
async function tcpProxy(target: URL) {
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        clients.add(client);
        client.on("close", () => clients.delete(client));
        for (const x of [client, upstream]) {
          sockets.add(x);
          x.on("error", () => {});
          x.on("close", () => {
            sockets.delete(x);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });
  await listen();
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    cut() {
      server?.close();
      server = undefined;
      for (const s of sockets) s.destroy();
    },
    restore: listen,
    /**
     * Resets (RST) every connection through it, as a backend terminated with statements still
     * unread does, or a middlebox: the server sees ECONNRESET. Returns how many.
     */
    reset(): number {
      const n = clients.size;
      for (const c of clients) c.resetAndDestroy();
      return n;
    },
    async close() {
      server?.close();
      for (const s of sockets) s.destroy();
    },
  };
}

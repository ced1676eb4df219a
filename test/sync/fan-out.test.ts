/**
 * Subscribe across server processes (DESIGN.md §4, §7): several server
 * processes on one Postgres fan pokes out through LISTEN/NOTIFY, so a device
 * subscribed to one process hears of a write that another process committed.
 * (The embedded database notifies in process: test/sync/subscribe.test.ts.)
 *
 * Server A runs in this process, server B is a real child process
 * (`node --import tsx server/src/main.ts`); both use one scratch database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { type Client, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { SyncService } from "@hivekeep/proto";
import { loadConfig, type RunningServer, startServer } from "@hivekeep/server";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "../support/databases.ts";
import { streamReader } from "../support/sync.ts";

const serverDir = join(import.meta.dirname, "..", "..", "server");
const hasPostgres = Boolean(process.env.DATABASE_URL);
if (!hasPostgres) {
  console.warn(
    "test/sync/fan-out.test.ts skipped: set DATABASE_URL to a Postgres server " +
      "(e.g. postgres://postgres@127.0.0.1:5432/postgres); two server processes need one Postgres",
  );
}

/** Server B: the real entry point in a child process; answers once it listens. */
async function startChild(databaseUrl: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HIVEKEEP_PORT: "0",
      HIVEKEEP_LOG_LEVEL: "info",
      HIVEKEEP_PWA_DIR: "/nonexistent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let listening: ((url: string) => void) | undefined;
  const read = (d: Buffer) => {
    out += d.toString();
    const line = out.split("\n").find((l) => l.includes("hivekeep listening"));
    if (line?.endsWith("}")) listening?.(JSON.parse(line).url as string);
  };
  child.stdout?.on("data", read);
  child.stderr?.on("data", read);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  // Its "listening" line, or its exit (waited for as long as the hook may run).
  const url = await Promise.race([
    new Promise<string>((resolve) => {
      listening = resolve;
    }),
    exited.then((code) => {
      throw new Error(`server B exited (${code}) before it listened:\n${out}`);
    }),
  ]);
  return { child, url, exited, output: () => out };
}

const syncClient = (baseUrl: string): Client<typeof SyncService> =>
  createClient(SyncService, createConnectTransport({ baseUrl, httpVersion: "1.1" }));

async function createApiary(baseUrl: string, name: string): Promise<string> {
  const res = await fetch(`${baseUrl}/hivekeep.v1.ApiaryService/CreateApiary`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { apiary: { id: string } }).apiary.id;
}

const head = async (client: Client<typeof SyncService>): Promise<string> =>
  (await client.pull({ cursor: "" })).nextCursor;

(hasPostgres ? describe : describe.skip)("Subscribe across server processes on Postgres", () => {
  let scratch: ScratchDatabase | undefined;
  let a: RunningServer | undefined;
  let b: Awaited<ReturnType<typeof startChild>> | undefined;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    // A first: it migrates the database before B starts on it.
    a = await startServer(
      loadConfig({
        HIVEKEEP_PORT: "0",
        DATABASE_URL: scratch.url,
        HIVEKEEP_LOG_LEVEL: "silent",
        HIVEKEEP_PWA_DIR: "/nonexistent",
      }),
      // The default heartbeat (25 s): a stream up to date opens with a heartbeat at once.
      { log: pino({ level: "silent" }) },
    );
    b = await startChild(scratch.url);
    child = b.child;
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      expect(await b?.exited).toBe(0);
    }
    await a?.close();
    await scratch?.drop();
  });

  it("pokes a subscriber on one process with the cursor of a write committed on another", async () => {
    if (!a || !b) throw new Error("servers not started");
    const onA = syncClient(a.url);
    const onB = syncClient(b.url);
    const abort = new AbortController();
    const pokes = streamReader(
      onA.subscribe({ cursor: await head(onA) }, { signal: abort.signal }),
    );
    try {
      // Only once the stream waits (its opening heartbeat) can nothing but a NOTIFY poke it.
      expect(await pokes.next()).toEqual({ cursor: "", heartbeat: true });
      await createApiary(b.url, "Written on B");
      const cursor = await head(onB);
      const poke = await pokes.until((m) => m.cursor === cursor);
      expect(poke).toEqual({ cursor, heartbeat: false });
      // A serves the change B wrote.
      const page = await onA.pull({ cursor: "" });
      expect(page.nextCursor).toBe(cursor);
    } finally {
      abort.abort();
    }
  });

  it("pokes the other way too: a subscriber on the child process hears a write on this one", async () => {
    if (!a || !b) throw new Error("servers not started");
    const onA = syncClient(a.url);
    const onB = syncClient(b.url);
    // The stream opens one change behind, so its first message is a poke, not the opening
    // heartbeat: it says it is subscribed and waiting (not a pause that stands in for it).
    await createApiary(b.url, "Written on B first");
    const behind = await head(onB);
    const abort = new AbortController();
    const pokes = streamReader(
      onB.subscribe({ cursor: String(Number(behind) - 1) }, { signal: abort.signal }),
    );
    try {
      expect(await pokes.next()).toEqual({ cursor: behind, heartbeat: false });
      await createApiary(a.url, "Written on A");
      const cursor = await head(onA);
      // Only A's NOTIFY can bring it.
      const poke = await pokes.until((m) => m.cursor === cursor);
      expect(poke).toEqual({ cursor, heartbeat: false });
    } finally {
      abort.abort();
    }
  });
});

/**
 * The server's memory, as a self-hoster on a small machine sees it: the resident set (VmRSS
 * from /proc) of the real server process, started as `pnpm start` does (`tsx src/main.ts`).
 *
 * - memory-idle: RSS a while after start (a minute; 5 s in quick mode) with empty data and no
 *   requests. On PGlite the first start on a new data directory (as a self-hoster's first
 *   start) is the figure; a restart on the same directory is in `details` (not in quick mode).
 * - memory-growth: RSS after many pulls (10,000; 500 in quick mode) and 200 Subscribe streams
 *   (50 in quick mode) opened and closed, less RSS at the start of that load. Before it a
 *   device pushes a small feed (300 inspections); each pull is a device's first sync of it
 *   (one page, binary, from createSyncClient); the streams stay open while the pulls run. Each RSS is read after 2 s without requests.
 *
 * Neither has a baseline: the targets are sizes (the table).
 */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { createSyncClient } from "@hivekeep/client-core/sync";
import { SyncService } from "@hivekeep/proto";
import { eventually, type MainProcess, startMainProcess } from "../support/main-process.ts";
import { streamReader } from "../support/sync.ts";
import { type BenchContext, type BenchRun, round } from "./report.ts";
import { newHive } from "./server-client.ts";
import { inspections } from "./workload.ts";

const idleTargetMiB = { pglite: 250, postgres: 120 };
const growthTargetMiB = 50;
const feedChanges = 300;
/** Pulls run this many at a time (devices syncing at once). */
const pullers = 4;
/** How long the server idles before its RSS is read after a load. */
const settleMs = 2000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends the server as an operator's supervisor does (SIGTERM) and waits for it. */
async function stop(server: MainProcess): Promise<void> {
  server.child.kill("SIGTERM");
  await server.exited;
}

/** A started server's RSS after `seconds` of idling, and right after it began listening. */
async function idle(server: MainProcess, seconds: number) {
  const listening = server.rss();
  await sleep(seconds * 1000);
  return { listening: round(listening, 1), idle: round(server.rss(), 1) };
}

/** An apiary and a hive through the JSON API, then `feedChanges` inspections pushed. */
async function pushFeed(url: string): Promise<void> {
  const { apiaryId, hiveId } = await newHive(url, "Memory");
  await createSyncClient({ baseUrl: url }).push(inspections(apiaryId, hiveId, feedChanges));
}

/**
 * `pulls` pulls, `pullers` at a time, while `streams` Subscribe streams are open; then the
 * streams close.
 */
async function load(url: string, pulls: number, streams: number): Promise<void> {
  const client = createClient(
    SyncService,
    createConnectTransport({ baseUrl: url, httpVersion: "1.1" }),
  );
  const aborts = Array.from({ length: streams }, () => new AbortController());
  const readers = aborts.map((abort) =>
    streamReader(client.subscribe({ cursor: "" }, { signal: abort.signal })),
  );
  await eventually(() => {
    if (readers.some((r) => r.got.length === 0)) throw new Error("a stream has not answered yet");
  });
  const sync = createSyncClient({ baseUrl: url });
  let done = 0;
  const puller = async () => {
    while (done < pulls) {
      done++;
      const page = await sync.pull("");
      if (page.changes.length < feedChanges) throw new Error("a pull missed changes");
    }
  };
  await Promise.all(Array.from({ length: pullers }, puller));
  for (const abort of aborts) abort.abort();
  await eventually(() => {
    if (readers.some((r) => !r.ended)) throw new Error("a stream has not ended yet");
  });
}

/** The growth load on a started server; RSS (MiB) at each mark. */
async function growth(server: MainProcess, pulls: number, streams: number) {
  const marks: Record<string, number> = {};
  const mark = async (what: string) => {
    await sleep(settleMs);
    marks[what] = round(server.rss(), 1);
  };
  await pushFeed(server.url);
  await mark("start");
  await load(server.url, pulls, streams);
  await mark("end");
  return marks;
}

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  const idleSeconds = ctx.quick ? 5 : 60;
  const pulls = ctx.quick ? 500 : 10_000;
  const streams = ctx.quick ? 50 : 200;
  const { database } = ctx;
  const quickNote = ctx.quick ? ` (quick: ${idleSeconds} s, not a minute)` : "";
  const dataDir = await mkdtemp(join(tmpdir(), "hivekeep-memory-"));
  const env: Record<string, string> =
    database === "postgres"
      ? { DATABASE_URL: ctx.databaseUrl ?? "" }
      : { HIVEKEEP_DATA_DIR: join(dataDir, "data") };
  let server: MainProcess | undefined;
  try {
    server = await startMainProcess(env);
    const first = await idle(server, idleSeconds);
    const details: Record<string, number> = {
      "RSS when listening (MiB)": first.listening,
    };
    let notes = `server RSS ${idleSeconds} s after start${quickNote}, empty data, no requests`;
    if (database === "pglite" && !ctx.quick) {
      // A restart on the same directory: what every later start of a self-hoster's server is.
      await stop(server);
      server = await startMainProcess(env);
      const again = await idle(server, idleSeconds);
      details["restart: RSS when listening (MiB)"] = again.listening;
      details["restart: RSS idle (MiB)"] = again.idle;
      notes += "; the first start on a new data directory (restart in details)";
    }
    const idleRun: BenchRun = {
      name: "memory-idle",
      database,
      value: first.idle,
      unit: "MiB",
      baseline: null,
      baselineValue: null,
      ratio: null,
      target: `≤ ${idleTargetMiB[database]} MiB`,
      met: first.idle <= idleTargetMiB[database],
      notes,
      details,
    };

    const marks = await growth(server, pulls, streams);
    await stop(server);
    server = undefined;
    const grown = round((marks.end ?? Number.NaN) - (marks.start ?? Number.NaN), 1);
    const growthRun: BenchRun = {
      name: "memory-growth",
      database,
      value: grown,
      unit: "MiB",
      baseline: null,
      baselineValue: null,
      ratio: null,
      target: `≤ ${growthTargetMiB} MiB`,
      met: grown <= growthTargetMiB,
      notes:
        `server RSS after ${pulls} pulls (${pullers} at a time, a ${feedChanges}-change feed) ` +
        `and ${streams} Subscribe streams opened and closed, less RSS at the start` +
        (ctx.quick ? " (quick: fewer pulls and streams than the issue's 10,000 and 200)" : ""),
      details: Object.fromEntries(Object.entries(marks).map(([k, v]) => [`RSS ${k} (MiB)`, v])),
    };
    return [idleRun, growthRun];
  } finally {
    if (server?.alive()) server.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

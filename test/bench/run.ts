/**
 * `pnpm bench`: Push and Pull through the real server (HTTP/1.1, binary
 * protobuf, from a device's client-core sync client) against the raw database
 * doing the same work in the same run, printed as ratios (ours / raw
 * throughput; 1.0 = as fast as raw) and written to bench-results/*.json.
 *
 * The server runs in a process of its own (server-process.ts), as in
 * production, where the device is another machine; this process is the
 * device. The raw side runs in the server's process, beside the database
 * (PGlite lives there), and is timed there.
 *
 * - push: batches of 500 new inspections (stock-card and scale columns) that
 *   a device pushes; raw: one multi-row insert of the same rows and one of
 *   their feed rows, in one transaction.
 * - pull: the whole feed (about 21,500 changes: what the pushes wrote) in
 *   pages of 5000, as a device's first sync reads it (its client asks for the
 *   next page as soon as a page's headers arrive); raw: the same select of
 *   the raw feed, page after page, every value parsed by the driver.
 * Beside the ratios, the server process's CPU time per 1000 changes, ours and
 * raw: what a page costs the server, whatever runs in parallel.
 *
 * Runs on PGlite, and on Postgres too when DATABASE_URL is set;
 * BENCH_DATABASES=postgres (or pglite) narrows that. BENCH_BATCHES (default
 * 40) sets the number of push batches, and so the feed's length;
 * BENCH_PULL_PASSES (default 5) how often the feed is pulled (after one pass
 * of warm-up). Ours and raw alternate,
 * batch by batch and pass by pass, after 3 full-size push batches each to
 * warm up (not counted).
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSyncClient } from "@hivekeep/client-core/sync";
import { createScratchDatabase } from "../support/databases.ts";
import type { Reply, Request } from "./server-process.ts";
import { batch, inspections, page } from "./workload.ts";

const batches = Number(process.env.BENCH_BATCHES ?? 40);
const pullPasses = Number(process.env.BENCH_PULL_PASSES ?? 5);
const warmupBatches = 3;

interface Result {
  database: string;
  case: string;
  unit: string;
  ours: number;
  raw: number;
  ratio: number;
  /** The changes each side moved (pull: every pass's, warm-up not counted). */
  changes: number;
  /** CPU milliseconds of the server process per 1000 changes. */
  serverCpuMsPer1000: { ours: number; raw: number };
}

/** The server process, and a way to ask it something. */
async function startServerProcess(databaseUrl: string | undefined) {
  const child: ChildProcess = fork(join(import.meta.dirname, "server-process.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, DATABASE_URL: databaseUrl ?? "" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, (reply: Reply) => void>();
  let nextId = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`server process exited with ${code}`)));
    child.on("message", (m: Reply | { ready: string }) => {
      if ("ready" in m) resolve(m.ready);
      else waiting.get(m.id)?.(m);
    });
  });
  const ask = (op: Request["op"], extra: Record<string, string> = {}): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, (reply) => {
        waiting.delete(id);
        if (reply.error) reject(new Error(`server process, ${op}: ${reply.error}`));
        else resolve(reply);
      });
      child.send({ id, op, ...extra });
    });
  const cpu = async () => (await ask("cpu")).cpuSeconds ?? 0;
  const stop = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await ask("stop").catch(() => child.kill());
    await exited;
  };
  return { url, ask, cpu, stop };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

async function bench(name: string, databaseUrl: string | undefined): Promise<Result[]> {
  const server = await startServerProcess(databaseUrl);
  try {
    const sync = createSyncClient({ baseUrl: server.url });
    const call = async (path: string, body: unknown) =>
      (await fetch(`${server.url}/hivekeep.v1.${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as Record<string, { id: string }>;
    const apiaryId = (await call("ApiaryService/CreateApiary", { name: "Bench" })).apiary?.id ?? "";
    const hiveId = (await call("HiveService/CreateHive", { apiaryId, name: "B1" })).hive?.id ?? "";
    await server.ask("setup", { apiaryId, hiveId });

    const ours = Array.from({ length: batches }, () => inspections(apiaryId, hiveId, batch));
    // Warm up both paths (connections, query plans, and the JIT on full-size
    // batches), alternating like the measured batches; not counted.
    for (let i = 0; i < warmupBatches; i++) {
      await sync.push(inspections(apiaryId, hiveId, batch));
      await server.ask("rawPush");
    }

    // Ours and raw alternate batch by batch (and pass by pass below), so load
    // from other processes on the machine falls on both sides alike.
    const cpu = { oursPush: 0, rawPush: 0, oursPull: 0, rawPull: 0 };
    let oursPush = 0;
    let rawPush = 0;
    for (const changes of ours) {
      let before = await server.cpu();
      oursPush += await timed(() => sync.push(changes));
      cpu.oursPush += (await server.cpu()) - before;
      before = await server.cpu();
      rawPush += (await server.ask("rawPush")).seconds ?? 0;
      cpu.rawPush += (await server.cpu()) - before;
    }

    const total = batch * batches;
    // A pass reads the whole feed (ours: what the device pulls; raw: the same
    // rows of the raw feed), page by page.
    const oursPass = async (): Promise<number> => {
      let rows = 0;
      for await (const p of sync.pages("", page)) rows += p.changes.length;
      return rows;
    };
    // One pass each to warm up (code paths, query plans), then `pullPasses`
    // measured passes over the same pages.
    await oursPass();
    await server.ask("rawPull");
    let oursRows = 0;
    let rawRows = 0;
    let oursPull = 0;
    let rawPull = 0;
    for (let pass = 0; pass < pullPasses; pass++) {
      let before = await server.cpu();
      oursPull += await timed(async () => {
        oursRows += await oursPass();
      });
      cpu.oursPull += (await server.cpu()) - before;
      before = await server.cpu();
      const raw = await server.ask("rawPull");
      cpu.rawPull += (await server.cpu()) - before;
      rawPull += raw.seconds ?? 0;
      rawRows += raw.rows ?? 0;
    }

    const perThousand = (seconds: number, changes: number) =>
      Math.round((seconds / changes) * 1e6 * 100) / 100;
    const result = (
      c: string,
      [oursChanges, oursSeconds, oursCpu]: number[],
      [rawChanges, rawSeconds, rawCpu]: number[],
    ): Result => {
      const oursRate = (oursChanges as number) / (oursSeconds as number);
      const rawRate = (rawChanges as number) / (rawSeconds as number);
      return {
        database: name,
        case: c,
        unit: "changes/s",
        ours: Math.round(oursRate),
        raw: Math.round(rawRate),
        ratio: Math.round((oursRate / rawRate) * 100) / 100,
        changes: oursChanges as number,
        serverCpuMsPer1000: {
          ours: perThousand(oursCpu as number, oursChanges as number),
          raw: perThousand(rawCpu as number, rawChanges as number),
        },
      };
    };
    return [
      result(
        `push, batches of ${batch}`,
        [total, oursPush, cpu.oursPush],
        [total, rawPush, cpu.rawPush],
      ),
      result(
        `pull, pages of ${page}`,
        [oursRows, oursPull, cpu.oursPull],
        [rawRows, rawPull, cpu.rawPull],
      ),
    ];
  } finally {
    await server.stop();
  }
}

// BENCH_DATABASES=postgres (or pglite) narrows the run, like TEST_DATABASES.
const wanted = (kind: string) =>
  !process.env.BENCH_DATABASES || process.env.BENCH_DATABASES.split(",").includes(kind);
const results: Result[] = [];
if (wanted("pglite")) results.push(...(await bench("pglite", undefined)));
if (process.env.DATABASE_URL && wanted("postgres")) {
  const scratch = await createScratchDatabase();
  try {
    results.push(...(await bench("postgres", scratch.url)));
  } finally {
    await scratch.drop();
  }
}

console.table(
  results.map(({ serverCpuMsPer1000: cpu, ...r }) => ({
    ...r,
    "server CPU ms/1000 (ours)": cpu.ours,
    "(raw)": cpu.raw,
  })),
);
const dir = join(import.meta.dirname, "..", "..", "bench-results");
mkdirSync(dir, { recursive: true });
const file = join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify({ batch, batches, page, results }, null, 2)}\n`);
console.log(`written to ${file}`);

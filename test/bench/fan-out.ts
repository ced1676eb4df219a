/**
 * `pnpm bench` figure fan-out: one write reaching 200 open Subscribe streams. Each subscriber
 * does what a device does: it holds a Subscribe stream (Connect over HTTP/1.1, one socket each)
 * from the feed's head, and on every poke Pulls the feed after its cursor (binary, the device's
 * sync client) until it has caught up. A write is one CreateApiary over HTTP JSON; its latency
 * for a subscriber is the time from sending the write until that subscriber's Pull has brought
 * the new apiary's change. p50 and p99 over every subscriber of every write (after a write to
 * warm up, not counted). The writes are spaced more than a second apart (after the last
 * subscriber has the change), since Subscribe pokes a stream at most once a second
 * (server/src/rpc/subscribe.ts): a faster write would wait out that interval by design.
 *
 * Baseline: one raw LISTEN/NOTIFY round trip on the same database, in the server process (the
 * Db's listen and notify: postgres.js on Postgres, in process on PGlite), a block of them after
 * each write. value = ours p99 (the target's figure); ratio = raw p99 / ours p99, which says how
 * much of the time the database's notification accounts for; met = p99 ≤ 150 ms.
 * samples: ours = each write's p99 over its subscribers, baseline = each block's p99.
 *
 * Details also say when the pokes arrived (from sending the write), which splits the time into the
 * server's fan-out and the Pulls after it, and the CPU time per write of the server process and of
 * this one (the 200 devices share its one thread and the machine's two cores with the server).
 *
 * The server counts its open streams' feed listeners, checked to equal the streams opened.
 * Quick: 50 streams and 3 counted writes instead of 200 and 20.
 */
import { setMaxListeners } from "node:events";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { maxPullLimit } from "@hivekeep/client-core/core";
import { createSyncClient } from "@hivekeep/client-core/sync";
import { SyncService } from "@hivekeep/proto";
import { type BenchContext, type BenchRun, quantile, round, spread } from "./report.ts";
import { call, startServerProcess } from "./server-client.ts";

const warmupWrites = 1;
const roundTripsPerWrite = 20;
const targetMs = 150;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sortedCopy = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/** Waits until `done` holds, checking every few ms; throws after `timeoutMs`. */
async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > end) throw new Error(`fan-out: ${what} within ${timeoutMs} ms`);
    await sleep(2);
  }
}

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  const streams = ctx.quick ? 50 : 200;
  const writes = ctx.quick ? 3 : 20;
  const server = await startServerProcess(ctx.databaseUrl);
  const abort = new AbortController();
  // Every stream and Pull listens on it.
  setMaxListeners(Number.POSITIVE_INFINITY, abort.signal);
  let running: Promise<void>[] = [];
  try {
    const sync = createSyncClient({ baseUrl: server.url });
    let head = "";
    for await (const page of sync.pages("", maxPullLimit)) head = page.nextCursor || head;

    const client = createClient(
      SyncService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    );
    /**
     * Per subscriber: for each entity id whose change its Pulls brought, when the Pull answered
     * and when the poke that set it off arrived.
     */
    const arrived = Array.from(
      { length: streams },
      () => new Map<string, { pulled: number; poked: number }>(),
    );
    const failures: unknown[] = [];
    const subscriber = async (seen: (typeof arrived)[number]) => {
      let cursor = head;
      for await (const poke of client.subscribe({ cursor }, { signal: abort.signal })) {
        if (poke.heartbeat) continue;
        const poked = performance.now();
        for (let more = true; more; ) {
          const page = await sync.pull(cursor, 0, abort.signal);
          const pulled = performance.now();
          for (const change of page.changes) seen.set(change.entityId, { pulled, poked });
          cursor = page.nextCursor || cursor;
          more = page.hasMore;
        }
      }
    };
    running = arrived.map((seen) =>
      subscriber(seen).catch((err: unknown) => {
        if (!abort.signal.aborted) failures.push(err);
      }),
    );
    const listeners = async () => (await server.ask("listeners")).rows ?? 0;
    const opening = performance.now() + 30_000;
    while ((await listeners()) < streams && failures.length === 0) {
      if (performance.now() > opening) throw new Error(`fan-out: ${streams} streams not open`);
      await sleep(50);
    }
    if (failures.length > 0) throw failures[0];

    const ours: number[] = [];
    const pokes: number[] = [];
    const perWrite: number[] = [];
    const raw: number[] = [];
    const perBlock: number[] = [];
    // CPU seconds of the server process and of this one (the 200 devices) over the counted
    // writes, from the write until every subscriber has it: who the time goes to.
    const cpu = { server: 0, devices: 0 };
    for (let i = 0; i < warmupWrites + writes; i++) {
      const serverBefore = await server.cpu();
      const devicesBefore = process.cpuUsage();
      const start = performance.now();
      const { apiary } = (await call(server.url, "ApiaryService/CreateApiary", {
        name: `Fan-out ${i}`,
      })) as { apiary: { id: string } };
      const id = apiary.id;
      await until(
        () => arrived.every((seen) => seen.has(id)) || failures.length > 0,
        30_000,
        "every subscriber pulled the write",
      );
      if (failures.length > 0) throw failures[0];
      const devices = process.cpuUsage(devicesBefore);
      const serverSeconds = (await server.cpu()) - serverBefore;
      if (i >= warmupWrites) {
        cpu.server += serverSeconds;
        cpu.devices += (devices.user + devices.system) / 1e6;
      }
      const times = arrived.map((seen) => seen.get(id) as { pulled: number; poked: number });
      const latencies = times.map((t) => t.pulled - start);
      for (const seen of arrived) seen.clear();
      const roundTrips =
        (await server.ask("notifyRoundTrips", { n: roundTripsPerWrite })).latenciesMs ?? [];
      if (i >= warmupWrites) {
        ours.push(...latencies);
        pokes.push(...times.map((t) => t.poked - start));
        perWrite.push(quantile(sortedCopy(latencies), 0.99));
        raw.push(...roundTrips);
        perBlock.push(quantile(sortedCopy(roundTrips), 0.99));
      }
      // The next write more than a second after the last poke (Subscribe's pacing).
      await sleep(1050);
    }
    const stillOpen = await listeners();

    const oursSorted = sortedCopy(ours);
    const rawSorted = sortedCopy(raw);
    const p99 = quantile(oursSorted, 0.99);
    const rawP99 = quantile(rawSorted, 0.99);
    return [
      {
        name: "fan-out",
        database: ctx.database,
        value: round(p99, 2),
        unit: "ms (p99)",
        baseline: "one raw LISTEN/NOTIFY round trip in the server process",
        baselineValue: round(rawP99, 3),
        ratio: round(rawP99 / p99, 4),
        target: `p99 ≤ ${targetMs} ms`,
        met: p99 <= targetMs,
        notes: `${streams} Subscribe streams (${stillOpen} open at the end, by the server's count), each Pulling on a poke; ${writes} CreateApiary writes over 1 s apart after ${warmupWrites} to warm up; value = p99 over streams × writes (ratio = raw p99 / ours p99; the target is on p99 alone); ${roundTripsPerWrite} NOTIFY round trips after each write${ctx.quick ? "; quick: 50 streams, 3 writes" : ""}`,
        samples: { ours: spread(perWrite), baseline: spread(perBlock) },
        details: {
          "ours p50 ms": round(quantile(oursSorted, 0.5), 2),
          "ours p99 ms": round(p99, 2),
          "ours max ms": round(oursSorted.at(-1) ?? Number.NaN, 2),
          "poke arrived p50 ms": round(quantile(sortedCopy(pokes), 0.5), 2),
          "poke arrived p99 ms": round(quantile(sortedCopy(pokes), 0.99), 2),
          "raw p50 ms": round(quantile(rawSorted, 0.5), 3),
          "raw p99 ms": round(rawP99, 3),
          streams,
          "server CPU ms per write": round((cpu.server / writes) * 1000, 1),
          "devices' CPU ms per write (this process)": round((cpu.devices / writes) * 1000, 1),
        },
      },
    ];
  } finally {
    abort.abort();
    await Promise.all(running);
    await server.stop();
  }
}

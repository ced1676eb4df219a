/**
 * Load (issue 13): about a minute of mixed load per database (PGlite, Postgres) on a real server
 * process (`tsx server/src/main.ts`, as an operator runs it). Writers
 * create and rename apiaries, pullers follow the feed as devices do, and 200 Subscribe streams
 * stay open the whole time: most of them never read a byte after the response headers (slow
 * subscribers), a few read every poke. Checked: no call fails, no stream ends, the readers are
 * told the newest position, the server logs no error or warning, and its resident memory
 * (VmRSS of the server process, from /proc) grows by no more than a bound. RSS at the start,
 * with the streams open, at the end and after the clients left is printed. No speed is asserted:
 * the minute does as much as the machine allows, and conditions are waited for generously.
 *
 * Order: a warm-up without streams (the same burst and mixed load, so the start is the server's
 * working size), the start; 200 streams open; the issue's case (300 writes one after another
 * while they are open); the mixed load; the clients leave. The growth checked is the highest
 * mark's RSS less the start's.
 *
 * The bounds (`rssGrowthBoundMiB`), from this file's figures on a 2-core machine shared with
 * other test runs: before the fix in server/src/rpc/subscribe.ts every write woke every stream
 * into a visibility query and a poke of its own (200 of each per write); that garbage grew the
 * heap, and with it the RSS, which V8 did not give back: growth 71 and 107 MiB on PGlite, 62 and
 * 56 MiB on Postgres (mostly in the burst: +49 to +104 MiB). With at most one poke per stream
 * per second: 13, 17, 30 and 35 MiB on PGlite, 10, 14, 23 and 24 MiB on Postgres (the streams'
 * own objects, about 40 KB each, the heap's working size under this load, and on PGlite the
 * database's memory growing with the data; RSS moves by 20-30 MiB either way between runs).
 * A later run beside a whole CI run on the same machine: 29 MiB on Postgres. The bounds lie
 * between, with at least 11 MiB of room on each side: 50 MiB on PGlite, 45 MiB on Postgres.
 */
import { connect, type Socket } from "node:net";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { maxPullLimit } from "@hivekeep/client-core/core";
import { SyncService } from "@hivekeep/proto";
import { afterEach, describe, expect, it } from "vitest";
import {
  createScratchDatabase,
  databaseKinds,
  type ScratchDatabase,
} from "../support/databases.ts";
import { eventually, type MainProcess, startMainProcess } from "../support/main-process.ts";
import { streamReader } from "../support/sync.ts";

/** Seconds of mixed load per database (LOAD_SECONDS overrides; CI keeps the default). */
const loadSeconds = Number(process.env.LOAD_SECONDS ?? 35);
/** Writes in the burst (the figure). */
const burstWrites = 300;
/** Open Subscribe streams (LOAD_STREAMS=0 gives the figures without them). */
const streams = Number(process.env.LOAD_STREAMS ?? 200);
/** Of the streams, how many read every poke (through the Connect client); the rest never read. */
const readers = Math.min(10, streams);
const writers = 2;
const pullers = 2;
/** The pace the writers and pullers keep together (when the server keeps up). */
const writesPerSecond = Number(process.env.LOAD_WRITES ?? 10);
const pullsPerSecond = Number(process.env.LOAD_PULLS ?? 10);
/** How much the server's RSS may grow from the start (see above). */
const rssGrowthBoundMiB = { pglite: 50, postgres: 45 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Load {
  calls: number;
  writes: number;
  pulls: number;
  readonly failures: string[];
}

async function call(load: Load, url: string, path: string, body: unknown) {
  load.calls++;
  try {
    const res = await fetch(`${url}/hivekeep.v1.${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status !== 200) {
      load.failures.push(`${path}: ${res.status} ${text.slice(0, 300)}`);
      return undefined;
    }
    // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are the API's.
    return JSON.parse(text) as any;
  } catch (err) {
    load.failures.push(`${path}: ${String(err)}`);
    return undefined;
  }
}

/** Waits for the i-th slot of a loop that runs `perSecond` times a second (at once if late). */
const slot = (start: number, i: number, perSecond: number) =>
  sleep(Math.max(0, start + (i * 1000) / perSecond - Date.now()));

/** A writer: creates an apiary now and then, renames known ones the rest of the time. */
async function writer(load: Load, url: string, until: () => boolean, id: number) {
  const apiaries: string[] = [];
  const start = Date.now();
  for (let i = 0; !until(); i++) {
    await slot(start, i, writesPerSecond / writers);
    if (apiaries.length === 0 || i % 4 === 0) {
      const r = await call(load, url, "ApiaryService/CreateApiary", { name: `W${id} ${i}` });
      if (r) apiaries.push(r.apiary.id);
    } else {
      const apiaryId = apiaries[i % apiaries.length];
      await call(load, url, "ApiaryService/UpdateApiary", { id: apiaryId, name: `W${id} ${i}` });
    }
    load.writes++;
  }
}

/** A puller: follows the feed page by page as a device does, from the start now and then. */
async function puller(load: Load, url: string, until: () => boolean) {
  let cursor = "";
  const start = Date.now();
  for (let i = 1; !until(); i++) {
    await slot(start, i, pullsPerSecond / pullers);
    const r = await call(load, url, "SyncService/Pull", { cursor: i % 50 === 0 ? "" : cursor });
    load.pulls++;
    if (r) cursor = r.nextCursor;
  }
}

/** A Subscribe stream over raw HTTP/1.1 that reads the response headers and then nothing. */
function slowSubscriber(url: string): Promise<Socket> {
  const u = new URL(url);
  const body = Buffer.from(JSON.stringify({ cursor: "" }));
  const envelope = Buffer.alloc(5 + body.length);
  envelope.writeUInt32BE(body.length, 1);
  body.copy(envelope, 5);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port) });
    let head = "";
    const onData = (d: Buffer) => {
      head += d.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      socket.pause();
      if (head.startsWith("HTTP/1.1 200")) resolve(socket);
      else reject(new Error(`Subscribe answered ${head.split("\r\n")[0]}`));
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.write(
      "POST /hivekeep.v1.SyncService/Subscribe HTTP/1.1\r\n" +
        `Host: ${u.host}\r\nContent-Type: application/connect+json\r\n` +
        `Connect-Protocol-Version: 1\r\nContent-Length: ${envelope.length}\r\n\r\n`,
    );
    socket.write(envelope);
  });
}

describe.each(databaseKinds)("Load on %s", (kind) => {
  let server: MainProcess | undefined;
  let scratch: ScratchDatabase | undefined;
  afterEach(async () => {
    server?.child.kill("SIGKILL");
    server = undefined;
    await scratch?.drop();
    scratch = undefined;
  });

  it(`a mixed ${loadSeconds} s with ${streams} open Subscribe streams: no errors, RSS growth bounded`, async () => {
    if (kind === "postgres") scratch = await createScratchDatabase();
    const s = await startMainProcess(scratch ? { DATABASE_URL: scratch.url } : {});
    server = s;
    const load: Load = { calls: 0, writes: 0, pulls: 0, failures: [] };
    const mixed = async (seconds: number) => {
      const end = Date.now() + seconds * 1000;
      const until = () => Date.now() >= end || !s.alive();
      await Promise.all([
        ...Array.from({ length: writers }, (_, i) => writer(load, s.url, until, i)),
        ...Array.from({ length: pullers }, () => puller(load, s.url, until)),
      ]);
    };
    // Server RSS in MiB at each mark, and the highest seen while the load ran.
    const rss = new Map<string, number>();
    const mark = (what: string) => rss.set(what, Math.round(s.rss() * 10) / 10);
    let peak = 0;
    const sampler = setInterval(() => {
      if (s.alive()) peak = Math.max(peak, s.rss());
    }, 250);
    /** The burst: writes one after another, as fast as the server answers. */
    const burst = async (n: number) => {
      for (let i = 0; i < n && s.alive(); i++) {
        await call(load, s.url, "ApiaryService/CreateApiary", { name: `Burst ${i}` });
        load.writes++;
      }
    };

    try {
      // Warm-up without streams, the burst and the mixed load as below, so the start is the
      // server's working size under this load (PGlite's memory and V8's heap grow to it in the
      // first seconds, then level out): what grows after it is the streams' share.
      await burst(burstWrites);
      await mixed(5);
      await sleep(2_000);
      mark("start");
      peak = 0;

      const transport = createConnectTransport({ baseUrl: s.url, httpVersion: "1.1" });
      const client = createClient(SyncService, transport);
      const abort = new AbortController();
      const reading = Array.from({ length: readers }, () =>
        streamReader(client.subscribe({ cursor: "" }, { signal: abort.signal })),
      );
      const slow: Socket[] = [];
      for (let i = 0; i < streams - readers; i++) slow.push(await slowSubscriber(s.url));
      let closedSlow = 0;
      for (const socket of slow) socket.once("close", () => closedSlow++);
      await eventually(() => {
        for (const r of reading) expect(r.got.length).toBeGreaterThan(0);
      });
      mark("streams open");

      // The case (300 writes while 200 streams are open), then the mixed load.
      await burst(burstWrites);
      mark("after burst");
      await mixed(loadSeconds);
      mark("end");

      // The readers are told the newest position; every stream is still open.
      let head = "";
      for (let more = true; more; ) {
        const r = await call(load, s.url, "SyncService/Pull", {
          cursor: head,
          limit: maxPullLimit,
        });
        head = r?.nextCursor ?? head;
        more = r?.hasMore === true;
      }
      const lastPoke = (r: (typeof reading)[number]) =>
        r.got.filter((m) => !m.heartbeat).at(-1)?.cursor;
      await eventually(() => {
        for (const r of reading) expect(lastPoke(r)).toBe(head);
      });
      const endedReaders = reading.filter((r) => r.ended).map((r) => String(r.error));
      const slowClosedByServer = closedSlow;

      // The clients leave; the server lets go of what the streams held.
      abort.abort();
      for (const socket of slow) socket.destroy();
      await sleep(5_000);
      mark("clients gone 5 s");
      clearInterval(sampler);

      const start = rss.get("start") ?? 0;
      const highest = Math.max(...[...rss.values()]);
      const growth = Math.round((highest - start) * 10) / 10;
      console.log(
        `load on ${kind}: ${burstWrites} writes in a burst and ${loadSeconds} s mixed, ` +
          `${load.calls} calls (${load.writes} writes, ${load.pulls} pulls), ${streams} ` +
          `Subscribe streams (${readers} reading), ${load.failures.length} failures; server RSS ` +
          `MiB ${JSON.stringify(Object.fromEntries(rss))}, peak ${Math.round(peak * 10) / 10}; ` +
          `growth from the start ${growth} MiB (bound ${rssGrowthBoundMiB[kind]})`,
      );
      expect(load.failures.slice(0, 10)).toEqual([]);
      expect(endedReaders).toEqual([]);
      expect(slowClosedByServer).toBe(0);
      expect(s.alive()).toBe(true);
      expect(s.complaints.slice(0, 10)).toEqual([]);
      expect(growth).toBeLessThanOrEqual(rssGrowthBoundMiB[kind]);
    } finally {
      clearInterval(sampler);
    }
  }, 180_000);
});

/**
 * `pnpm bench` figures of the record RPCs, over HTTP/1.1 with JSON bodies as a browser or a script
 * calls them, against the raw database doing the same work in the same run (rpc-raw.ts says what
 * the raw side runs, in the server's process beside the database, timed there):
 *
 * - rpc-create-inspection: CreateInspection of one hive of the sample season, 32 requests in
 *   flight; requests/s of ours against one raw transaction of the same statements per request,
 *   32 in flight too. A round is `requests` calls of one side; sides alternate round by round.
 *   Ratio = ours / raw requests/s; details: p50/p99 of each call's latency, and the server
 *   process's CPU time per request of each side (on PGlite the database's work is in it too).
 * - rpc-list-inspections: ListInspections of the season's hive with the most inspections, one page
 *   of 50, one call after another; raw: the page's select and the count, serialized to JSON.
 * - rpc-list-dashboard: GetDashboard on the season; raw: the queries it runs, in one snapshot,
 *   serialized to JSON.
 *   Both rpc-list runs: a round is a block of calls of one side, sides alternate block by block;
 *   the sample is the block's median latency. Ratio = raw / ours latency; details have p50/p99 of
 *   every call and, as the floor under any HTTP call, the p50 of GET /healthz on the same server.
 *
 * The server runs in a process of its own (server-process.ts); this process is the client. The
 * season is seeded first (seedSeason, through the server's handlers in process), the lists are
 * measured on it, then the creates add to it. Quick: 2 hives per apiary instead of 8, fewer and
 * smaller rounds.
 */
import {
  alternate,
  type BenchContext,
  type BenchRun,
  compared,
  quantile,
  round,
} from "./report.ts";
import { inFlight, inspectionRequest } from "./rpc-raw.ts";
import { call, type ServerProcess, startServerProcess } from "./server-client.ts";

const concurrency = 32;

const sizes = (quick: boolean) =>
  quick
    ? { hivesPerApiary: 2, createRounds: 3, requests: 100, listRounds: 4, block: 20 }
    : { hivesPerApiary: 8, createRounds: 7, requests: 600, listRounds: 10, block: 50 };

/** p50 and p99 of latencies in ms, rounded. */
function percentiles(prefix: string, latencies: number[]): Record<string, number> {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    [`${prefix} p50 ms`]: round(quantile(sorted, 0.5), 2),
    [`${prefix} p99 ms`]: round(quantile(sorted, 0.99), 2),
  };
}

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  const size = sizes(ctx.quick);
  const server = await startServerProcess(ctx.databaseUrl);
  try {
    const seedStart = performance.now();
    const season = await server.ask("seedSeason", { hivesPerApiary: size.hivesPerApiary });
    const seedSeconds = round((performance.now() - seedStart) / 1000, 1);
    const hiveId = season.hiveId ?? "";
    const setting = `sample season, ${size.hivesPerApiary} hives per apiary (4 apiaries), seeded in ${seedSeconds} s${ctx.quick ? "; quick: smaller season and rounds" : ""}`;
    const lists = await listFigures(ctx, server, hiveId, season.rows ?? 0, setting);
    const create = await createFigure(ctx, server, hiveId, setting);
    return [create, ...lists];
  } finally {
    await server.stop();
  }
}

async function createFigure(
  ctx: BenchContext,
  server: ServerProcess,
  hiveId: string,
  setting: string,
): Promise<BenchRun> {
  const { createRounds, requests } = sizes(ctx.quick);
  const latencies = { ours: [] as number[], raw: [] as number[] };
  const body = { hiveId, ...inspectionRequest };
  /** The server process's CPU seconds spent in each side's rounds. */
  const cpu = { ours: 0, raw: 0 };
  const ours = async () => {
    const before = await server.cpu();
    const r = await inFlight(requests, concurrency, () =>
      call(server.url, "InspectionService/CreateInspection", body),
    );
    cpu.ours += (await server.cpu()) - before;
    latencies.ours.push(...r.latenciesMs);
    return requests / r.seconds;
  };
  const raw = async () => {
    const before = await server.cpu();
    const r = await server.ask("rawCreateInspections", { hiveId, n: requests, concurrency });
    cpu.raw += (await server.cpu()) - before;
    latencies.raw.push(...(r.latenciesMs ?? []));
    return requests / (r.seconds ?? Number.NaN);
  };
  // One round each to warm up; its latencies are dropped.
  await ours();
  await raw();
  latencies.ours.length = 0;
  latencies.raw.length = 0;
  cpu.ours = 0;
  cpu.raw = 0;
  const samples = await alternate(createRounds, 0, ours, raw);
  const cpuMsPerRequest = (seconds: number) => round((seconds * 1000) / (createRounds * requests));
  return compared(
    {
      name: "rpc-create-inspection",
      database: ctx.database,
      unit: "requests/s",
      baseline: `the same statements by hand, one transaction per request, ${concurrency} in flight`,
      target: "ratio ≥ 0.7",
      notes: `${createRounds} rounds of ${requests} requests per side, ${concurrency} in flight, after a round each to warm up; ${setting}`,
      details: {
        ...percentiles("ours", latencies.ours),
        ...percentiles("raw", latencies.raw),
        "server process CPU ms/request (ours)": cpuMsPerRequest(cpu.ours),
        "server process CPU ms/request (raw)": cpuMsPerRequest(cpu.raw),
      },
    },
    samples,
    "better",
    (ratio) => ratio >= 0.7,
  );
}

async function listFigures(
  ctx: BenchContext,
  server: ServerProcess,
  hiveId: string,
  hiveInspections: number,
  setting: string,
): Promise<BenchRun[]> {
  const { listRounds, block } = sizes(ctx.quick);
  const floor: number[] = [];
  const healthz = async () => {
    const r = await inFlight(block, 1, () => fetch(`${server.url}/healthz`).then((x) => x.text()));
    floor.push(...r.latenciesMs);
  };
  const figure = async (
    name: string,
    ours: () => Promise<unknown>,
    raw: () => Promise<{ latenciesMs?: number[] }>,
    what: string,
  ): Promise<BenchRun> => {
    const all = { ours: [] as number[], raw: [] as number[] };
    const median = (xs: number[]) =>
      quantile(
        [...xs].sort((a, b) => a - b),
        0.5,
      );
    const samples = await alternate(
      listRounds,
      1,
      async () => {
        const r = await inFlight(block, 1, ours);
        all.ours.push(...r.latenciesMs);
        await healthz();
        return median(r.latenciesMs);
      },
      async () => {
        const r = await raw();
        all.raw.push(...(r.latenciesMs ?? []));
        return median(r.latenciesMs ?? []);
      },
    );
    // The warm-up round's calls are the first block of each side.
    all.ours.splice(0, block);
    all.raw.splice(0, block);
    const httpFloor = percentiles("GET /healthz", floor.splice(0))["GET /healthz p50 ms"] ?? 0;
    return compared(
      {
        name,
        database: ctx.database,
        unit: "ms (p50)",
        baseline: "the raw queries, rows serialized to JSON, in the server process",
        target: "ratio ≥ 0.5",
        notes: `${what}; ${listRounds} blocks of ${block} calls per side, one at a time, alternating after a block each to warm up; value = median of block medians; ${setting}`,
        details: {
          ...percentiles("ours", all.ours),
          ...percentiles("raw", all.raw),
          "GET /healthz p50 ms": httpFloor,
        },
      },
      samples,
      "worse",
      (ratio) => ratio >= 0.5,
    );
  };

  const page = (await call(server.url, "InspectionService/ListInspections", {
    hiveId,
    page: { pageSize: 50 },
  })) as { inspections?: unknown[] };
  const rows = page.inspections?.length ?? 0;
  if (rows === 0) throw new Error("ListInspections of the season's hive answered no inspections");
  return [
    await figure(
      "rpc-list-inspections",
      () =>
        call(server.url, "InspectionService/ListInspections", { hiveId, page: { pageSize: 50 } }),
      () => server.ask("rawListInspections", { hiveId, n: block }),
      `ListInspections of one hive, page size 50 (${rows} rows in the page, ${hiveInspections} of the hive)`,
    ),
    await figure(
      "rpc-list-dashboard",
      () => call(server.url, "StatsService/GetDashboard", {}),
      () => server.ask("rawDashboard", { n: block }),
      "GetDashboard",
    ),
  ];
}

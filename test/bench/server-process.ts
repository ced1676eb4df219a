/**
 * The server side of `pnpm bench`, in a process of its own (as in production:
 * the device that pushes and pulls is another machine). It runs the real
 * server on the database its environment names (DATABASE_URL, else PGlite in
 * memory) and, on request from the figure modules (server-client.ts) over IPC, the raw database doing the
 * same work, timed here, beside the database: PGlite lives in this process,
 * so the raw side must too.
 *
 * Messages in: {id, op: "setup", apiaryId, hiveId}, {id, op: "rawPush"},
 * {id, op: "rawPull"}, {id, op: "cpu"}, {id, op: "stop"}; for the RPC figures (rpc.ts,
 * fan-out.ts; the raw work is rpc-raw.ts's): {id, op: "seedSeason", hivesPerApiary} (the sample
 * season through the server's handlers in process; answers the hive with the most inspections
 * and their number), {id, op: "rawCreateInspections", hiveId, n, concurrency},
 * {id, op: "rawListInspections", hiveId, n}, {id, op: "rawCreateReadings", batches} (readings.ts:
 * CreateReadings' rows by hand; answers the seconds of all batches, one after another), {id, op: "rawDashboard", n} and
 * {id, op: "notifyRoundTrips", n} (each answers every call's latency), and {id, op: "listeners"}
 * (rows = the open Subscribe streams' feed listeners: the server's own count). Each is answered with
 * {id, …}; the first message out is {ready: url}.
 */
import { loadConfig, localUserId, localOrganizationId as org, startServer } from "@hivekeep/server";
import pino from "pino";
import { inProcessTransport } from "../../server/src/seed/in-process.ts";
import { seedSeason } from "../../server/src/seed/season.ts";
import {
  type BenchReading,
  createRpcRawTables,
  inFlight,
  notifyRoundTrips,
  rawCreateInspection,
  rawCreateReadings,
  rawDashboard,
  rawListInspections,
} from "./rpc-raw.ts";
import { batch, createRawTables, inspections, rawPull, rawPush } from "./workload.ts";

export type Request =
  | { id: number; op: "setup"; apiaryId: string; hiveId: string }
  | { id: number; op: "rawPush" | "rawPull" | "cpu" | "stop" }
  | { id: number; op: "seedSeason"; hivesPerApiary: number }
  | { id: number; op: "rawCreateInspections"; hiveId: string; n: number; concurrency: number }
  | { id: number; op: "rawListInspections"; hiveId: string; n: number }
  | { id: number; op: "rawCreateReadings"; batches: BenchReading[][] }
  | { id: number; op: "rawDashboard"; n: number }
  | { id: number; op: "notifyRoundTrips"; n: number }
  | { id: number; op: "listeners" };

export interface Reply {
  id: number;
  seconds?: number;
  rows?: number;
  /** CPU time this process has used (user + system), for "cpu". */
  cpuSeconds?: number;
  /** Each call's latency in ms, in order (the raw RPC work, NOTIFY round trips). */
  latenciesMs?: number[];
  /** seedSeason: the hive with the most inspections. */
  hiveId?: string;
  error?: string;
}

const send = (message: unknown) => process.send?.(message);

const server = await startServer(
  loadConfig({
    HIVEKEEP_PORT: "0",
    HIVEKEEP_DATA_DIR: ":memory:",
    HIVEKEEP_PWA_DIR: "/nonexistent",
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  }),
  { log: pino({ level: "silent" }) },
);
const { db } = server;
let apiaryId = "";
let hiveId = "";
const seq = { n: 0 };

async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { seconds: (performance.now() - start) / 1000, value };
}

async function handle(request: Request): Promise<Omit<Reply, "id">> {
  switch (request.op) {
    case "setup":
      apiaryId = request.apiaryId;
      hiveId = request.hiveId;
      await createRawTables(db);
      return {};
    case "rawPush": {
      const changes = inspections(apiaryId, hiveId, batch);
      return { seconds: (await timed(() => rawPush(db, org, changes, seq))).seconds };
    }
    case "rawPull": {
      const { seconds, value } = await timed(() => rawPull(db, org));
      return { seconds, rows: value };
    }
    case "seedSeason":
      return seed(request.hivesPerApiary);
    case "rawCreateInspections": {
      await createRpcRawTables(db, org);
      const { hiveId, n, concurrency } = request;
      return inFlight(n, concurrency, () => rawCreateInspection(db, org, localUserId, hiveId));
    }
    case "rawCreateReadings": {
      await createRpcRawTables(db, org);
      const { batches } = request;
      const { seconds } = await timed(async () => {
        for (const readings of batches) await rawCreateReadings(db, org, localUserId, readings);
      });
      return { seconds };
    }
    case "rawListInspections":
      return blockOf(request.n, () => rawListInspections(db, org, request.hiveId, 50));
    case "rawDashboard":
      return blockOf(request.n, () => rawDashboard(db, org, localUserId));
    case "notifyRoundTrips":
      return { latenciesMs: await notifyRoundTrips(db, request.n) };
    case "listeners":
      return { rows: server.notifier.size() };
    case "cpu": {
      const { user, system } = process.cpuUsage();
      return { cpuSeconds: (user + system) / 1e6 };
    }
    case "stop":
      await server.close();
      return {};
  }
}

/** `n` calls one after another. */
const blockOf = (n: number, call: () => Promise<unknown>) => inFlight(n, 1, call);

/**
 * The sample season (seedSeason), through the server's own handlers in process (no HTTP: the
 * rules of the API, faster); answers the hive with the most inspections and their number.
 */
async function seed(hivesPerApiary: number): Promise<Omit<Reply, "id">> {
  const transport = inProcessTransport(db, server.notifier);
  await seedSeason(transport, { now: new Date("2026-10-01T12:00:00Z"), hivesPerApiary });
  const [top] = await db.query<{ hive_id: string; n: number }>(
    `select hive_id, count(*) as n from inspections
     where organization_id = $1 and complete and not deleted
     group by hive_id order by 2 desc, 1 limit 1`,
    [org],
  );
  return { hiveId: top?.hive_id ?? "", rows: Number(top?.n ?? 0) };
}

process.on("message", (request: Request) => {
  handle(request).then(
    (reply) => {
      send({ id: request.id, ...reply });
      if (request.op === "stop") process.disconnect();
    },
    (err: unknown) => send({ id: request.id, error: String(err) }),
  );
});
send({ ready: server.url });

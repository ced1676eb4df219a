/**
 * The server side of `pnpm bench`, in a process of its own (as in production:
 * the device that pushes and pulls is another machine). It runs the real
 * server on the database its environment names (DATABASE_URL, else PGlite in
 * memory) and, on request from run.ts over IPC, the raw database doing the
 * same work, timed here, beside the database: PGlite lives in this process,
 * so the raw side must too.
 *
 * Messages in: {id, op: "setup", apiaryId, hiveId}, {id, op: "rawPush"},
 * {id, op: "rawPull"}, {id, op: "cpu"}, {id, op: "stop"}. Each is answered with {id, …};
 * the first message out is {ready: url}.
 */
import { loadConfig, localOrganizationId as org, startServer } from "@hivekeep/server";
import pino from "pino";
import { batch, createRawTables, inspections, rawPull, rawPush } from "./workload.ts";

export type Request =
  | { id: number; op: "setup"; apiaryId: string; hiveId: string }
  | { id: number; op: "rawPush" | "rawPull" | "cpu" | "stop" };

export interface Reply {
  id: number;
  seconds?: number;
  rows?: number;
  /** CPU time this process has used (user + system), for "cpu". */
  cpuSeconds?: number;
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
    case "cpu": {
      const { user, system } = process.cpuUsage();
      return { cpuSeconds: (user + system) / 1e6 };
    }
    case "stop":
      await server.close();
      return {};
  }
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

/**
 * The bench's side of the server process (server-process.ts): forks it on the database a URL
 * names (PGlite in memory when undefined), waits for its `{ready: url}`, and asks it for the
 * operations it offers over IPC, each answered by a Reply with the same id.
 */
import { type ChildProcess, fork } from "node:child_process";
import { join } from "node:path";
import type { Reply, Request } from "./server-process.ts";

/** What a request carries besides its id and op. */
type Extra<Op extends Request["op"]> = Omit<Extract<Request, { op: Op }>, "id" | "op">;

export interface ServerProcess {
  readonly url: string;
  /** Asks the server process for `op`; rejects with the error it answered. */
  ask<Op extends Request["op"]>(op: Op, extra?: Extra<Op>): Promise<Reply>;
  /** The server process's CPU seconds so far (user + system). */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

/** Node's options that write a CPU profile into `dir` when the process exits; none without one. */
const profiling = (dir: string | undefined) => (dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : []);

export async function startServerProcess(databaseUrl: string | undefined): Promise<ServerProcess> {
  const child: ChildProcess = fork(join(import.meta.dirname, "server-process.ts"), [], {
    // BENCH_SERVER_PROFILE=<dir>: the server process writes a CPU profile there when it stops.
    execArgv: ["--import", "tsx", ...profiling(process.env.BENCH_SERVER_PROFILE)],
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
  const ask = <Op extends Request["op"]>(op: Op, extra?: Extra<Op>): Promise<Reply> =>
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

/** One JSON call of a service method (`Service/Method`); throws on an HTTP error. */
export async function call(url: string, method: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${url}/hivekeep.v1.${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** A new apiary with one hive, through the JSON API. */
export async function newHive(url: string, name: string) {
  const { apiary } = (await call(url, "ApiaryService/CreateApiary", { name })) as {
    apiary: { id: string };
  };
  const { hive } = (await call(url, "HiveService/CreateHive", {
    apiaryId: apiary.id,
    name: `${name} 1`,
  })) as { hive: { id: string } };
  return { apiaryId: apiary.id, hiveId: hive.id };
}

/**
 * Starts the real server in process on a free port, on PGlite (in memory) or
 * on a fresh database of the Postgres server, and gives typed clients over
 * HTTP in both encodings plus raw JSON fetch.
 */
import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import {
  type Config,
  loadConfig,
  type RunningServer,
  type StartOptions,
  startServer,
} from "@hivekeep/server";
import pino from "pino";
import { createScratchDatabase, type DbKind } from "./databases.ts";
import { templatePglite } from "./pglite-template.ts";

export interface TestServer {
  readonly url: string;
  readonly server: RunningServer;
  /** A typed client; binary protobuf unless json is true. */
  client<S extends DescService>(service: S, opts?: { json?: boolean }): Client<S>;
  /** POSTs a JSON body (object or raw string) to /hivekeep.v1.<service>/<method>. */
  call(path: string, body: unknown, headers?: Record<string, string>): Promise<JsonReply>;
  /** The same server, every request sent with `Authorization: Bearer <token>`. */
  as(token: string): TestServer;
  stop(): Promise<void>;
}

export interface JsonReply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by the tests.
  readonly body: any;
}

export async function startTestServer(
  kind: DbKind,
  env: Record<string, string> = {},
  options: Omit<StartOptions, "log" | "db"> = {},
): Promise<TestServer> {
  const scratch = kind === "postgres" ? await createScratchDatabase({ migrated: true }) : undefined;
  const config: Config = loadConfig({
    HIVEKEEP_PORT: "0",
    HIVEKEEP_LOG_LEVEL: "silent",
    HIVEKEEP_PWA_DIR: "/nonexistent",
    HIVEKEEP_DATA_DIR: ":memory:",
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  // An embedded database in memory starts from the migrated template (pglite-template.ts).
  const db =
    config.databaseUrl === undefined && config.dataDir === undefined
      ? await templatePglite()
      : undefined;
  let server: RunningServer;
  try {
    server = await startServer(config, {
      log: pino({ level: "silent" }),
      ...options,
      ...(db ? { db } : {}),
    });
  } catch (err) {
    await db?.close();
    await scratch?.drop();
    throw err;
  }
  const stop = async () => {
    // Closes the database too, the template's as well (server.ts).
    await server.close();
    await scratch?.drop();
  };
  return view(server, {}, stop);
}

function view(
  server: RunningServer,
  auth: Record<string, string>,
  stop: () => Promise<void>,
): TestServer {
  const transport = (json: boolean) =>
    createConnectTransport({
      baseUrl: server.url,
      httpVersion: "1.1",
      useBinaryFormat: !json,
      interceptors: [
        (next) => (req) => {
          for (const [k, v] of Object.entries(auth)) req.header.set(k, v);
          return next(req);
        },
      ],
    });
  const transports = { binary: transport(false), json: transport(true) };
  return {
    url: server.url,
    server,
    client: (service, opts) =>
      createClient(service, opts?.json ? transports.json : transports.binary),
    async call(path, body, headers = {}) {
      const res = await fetch(`${server.url}/hivekeep.v1.${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth, ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text === "" ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: the test sees the raw text.
      }
      return { status: res.status, body: parsed };
    },
    as: (token) => view(server, { authorization: `Bearer ${token}` }, stop),
    stop,
  };
}

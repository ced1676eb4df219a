/**
 * Starts the real server in process on a free port, on PGlite (in memory) or
 * on a fresh database of the Postgres server, and gives typed clients over
 * HTTP in both encodings plus raw JSON fetch.
 */
import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { type Config, loadConfig, type RunningServer, startServer } from "@hivekeep/server";
import pino from "pino";
import { createScratchDatabase, type DbKind } from "./databases.ts";

export interface TestServer {
  readonly url: string;
  readonly server: RunningServer;
  /** A typed client; binary protobuf unless json is true. */
  client<S extends DescService>(service: S, opts?: { json?: boolean }): Client<S>;
  /** POSTs a JSON body (object or raw string) to /hivekeep.v1.<service>/<method>. */
  call(path: string, body: unknown, headers?: Record<string, string>): Promise<JsonReply>;
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
  options: { heartbeatMs?: number } = {},
): Promise<TestServer> {
  const scratch = kind === "postgres" ? await createScratchDatabase() : undefined;
  const config: Config = loadConfig({
    HIVEKEEP_PORT: "0",
    HIVEKEEP_LOG_LEVEL: "silent",
    HIVEKEEP_PWA_DIR: "/nonexistent",
    HIVEKEEP_DATA_DIR: ":memory:",
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  const server = await startServer(config, { log: pino({ level: "silent" }), ...options });
  const transports = {
    binary: createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    json: createConnectTransport({
      baseUrl: server.url,
      httpVersion: "1.1",
      useBinaryFormat: false,
    }),
  };
  return {
    url: server.url,
    server,
    client: (service, opts) =>
      createClient(service, opts?.json ? transports.json : transports.binary),
    async call(path, body, headers = {}) {
      const res = await fetch(`${server.url}/hivekeep.v1.${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
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
    async stop() {
      await server.close();
      await scratch?.drop();
    },
  };
}

/**
 * Where a contract test runs: the real server over HTTP on one database, or a device's local
 * operations (`createHivekeepClient` over fake-indexeddb) with no server behind it at all. Both
 * answer the same surface the contract tests use (`call`, `client`, and through `call`, the
 * change feed), so one test file and one set of assertions holds both to the same contract.
 *
 * The device target:
 * - `call(path, json)` parses the JSON with Connect's own JSON serialization (the server's parse
 *   path and options: unknown fields refused, snake_case accepted, enum names and numbers), calls the method on
 *   the device's local transport (`client.transport`), and answers what the server would have
 *   written: the response with Connect's JSON options (default values omitted), or an error as
 *   `{code, message}` with the HTTP status Connect gives that code.
 * - The change feed is the device's outbox: what a local write queued, in order, which is what it
 *   will push. `SyncService/Pull` answers the outbox entries after `cursor` (an outbox seq) in
 *   Pull's wire shape, so `pullAll`, `feedHead` and `feedReader` read it unchanged. It has no
 *   `serverTime` (only a server has that clock).
 * - `seed(changes)` merges changes into the replica as if pulled from the server (the device
 *   received them; they are not its own writes, so they stay out of the outbox/feed), like the
 *   server target's seed writes them through its write path as if another device pushed them.
 * - No network: the account is given (no WhoAmI), sync is never started, and its fetch throws.
 */
import { randomUUID } from "node:crypto";
import { create, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import { type Client, ConnectError, createClient } from "@connectrpc/connect";
import { createMethodSerializationLookup } from "@connectrpc/connect/protocol";
import { codeToHttpStatus, errorToJson } from "@connectrpc/connect/protocol-connect";
import { createHivekeepClient, type HivekeepClient } from "@hivekeep/client-core";
import {
  type Change,
  defaultPullLimit,
  formatCursor,
  maxPullLimit,
  parseCursor,
  requestedLimit,
  toWire,
} from "@hivekeep/client-core/core";
import { toConnectError } from "@hivekeep/client-core/ops";
import * as proto from "@hivekeep/proto";
import { ChangeSchema, type PullRequest, PullResponseSchema } from "@hivekeep/proto";
import { localOrganizationId, localUserId, requestJsonOptions } from "@hivekeep/server";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterAll, beforeAll, it } from "vitest";
import { storedCursor } from "../../client-core/src/device/pull-feed.ts";
import { applyPulled } from "../../client-core/src/device/replica-sync.ts";
import { seedChanges } from "./command-seed.ts";
import { type DbKind, databaseKinds } from "./databases.ts";
import { type JsonReply, startTestServer, type TestServer } from "./server.ts";

export type TargetKind = DbKind | "device";

/**
 * Every target: each database the server runs on, then the device. TEST_DATABASES (CI's second
 * run, on Postgres only) leaves the device out unless it names "device".
 */
export const targetKinds: TargetKind[] = [
  ...databaseKinds,
  ...(!process.env.TEST_DATABASES || process.env.TEST_DATABASES.split(",").includes("device")
    ? (["device"] as const)
    : []),
];

export interface TestTarget {
  readonly kind: TargetKind;
  /** The caller's organization and user: what the target stamps on the records it writes. */
  readonly organizationId: string;
  readonly userId: string;
  /** POSTs a JSON body (object or raw string) to /hivekeep.v1.<service>/<method>, or its device equivalent. */
  call(path: string, body: unknown): Promise<JsonReply>;
  /** A typed client (on the server binary protobuf unless json is true; on the device, local). */
  client<S extends DescService>(service: S, opts?: { json?: boolean }): Client<S>;
  /** Puts changes made elsewhere (another device, another user) into the target's data. */
  seed(changes: readonly Change[]): Promise<void>;
}

/**
 * `it` for a test that only makes sense over HTTP against a server; on the device it is skipped,
 * its name carries the reason and the reason is printed. (A real difference of the device's
 * answers is a bug, not a use of this: mark such a test `it.fails` for the device with a
 * `// device parity: <reason>` comment.)
 */
export function serverOnly(kind: TargetKind, reason: string) {
  return (name: string, fn: () => Promise<void>) => {
    if (kind !== "device") return it(name, fn);
    console.info(`[device] skipping "${name}": server only (${reason})`);
    return it.skip(`${name} (server only: ${reason})`, fn);
  };
}

/**
 * A target for the tests of the enclosing describe: started before them, stopped after them.
 * The object stands for the running target, so it can be handed to helpers before it starts.
 */
export function useTestTarget(kind: TargetKind): TestTarget {
  let running: TestTarget | undefined;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (kind === "device") {
      const device = await startDeviceTarget();
      running = device.target;
      stop = device.stop;
    } else {
      const server = await startTestServer(kind);
      running = serverTarget(kind, server);
      stop = () => server.stop();
    }
  });
  afterAll(async () => {
    await stop?.();
  });
  const started = (): TestTarget => {
    if (!running) throw new Error("the test target starts in beforeAll: use it in tests and hooks");
    return running;
  };
  return {
    kind,
    get organizationId() {
      return started().organizationId;
    },
    get userId() {
      return started().userId;
    },
    call: (path, body) => started().call(path, body),
    client: (service, opts) => started().client(service, opts),
    seed: (changes) => started().seed(changes),
  };
}

function serverTarget(kind: DbKind, server: TestServer): TestTarget {
  return {
    kind,
    // The single-user mode's tenant (the test server's default).
    organizationId: localOrganizationId,
    userId: localUserId,
    call: (path, body) => server.call(path, body),
    client: (service, opts) => server.client(service, opts),
    seed: (changes) => seedChanges(server, changes),
  };
}

/** Any network use by the device target is a bug of the test: it fails loudly. */
const noNetwork: typeof fetch = async (input) => {
  throw new Error(`the device target must not use the network (fetch ${String(input)})`);
};

const services = new Map<string, DescService>(
  (Object.values(proto) as unknown[])
    .filter((v): v is DescService => (v as { kind?: unknown })?.kind === "service")
    .map((s) => [s.typeName, s]),
);

/** The device's view of the HTTP path `<Service>/<Method>`: the method, or an error. */
function methodOf(path: string): DescMethodUnary {
  const [serviceName, methodName] = path.split("/");
  const method = services
    .get(`hivekeep.v1.${serviceName}`)
    ?.methods.find((m) => m.name === methodName);
  if (method?.methodKind !== "unary") {
    throw new Error(`the device target has no unary method ${path}`);
  }
  return method as DescMethodUnary;
}

// The server's limits are far above anything the tests send; the serialization wants some.
const limits = { readMaxBytes: 0xffffffff, writeMaxBytes: 0xffffffff };

/** The JSON body a Connect server writes for an error (code name in snake_case, message). */
function errorReply(err: unknown): JsonReply {
  const ce = ConnectError.from(err);
  return { status: codeToHttpStatus(ce.code), body: errorToJson(ce, undefined) };
}

async function startDeviceTarget(): Promise<{ target: TestTarget; stop: () => Promise<void> }> {
  const account = { organizationId: randomUUID(), userId: localUserId };
  const device: HivekeepClient = await createHivekeepClient({
    baseUrl: "http://device-only.invalid",
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    fetch: noNetwork,
    // The single-user id, as the server's single-user mode answers it: tests compare authorId
    // and personal-task scopes with it. The organization can be anything.
    account,
  });
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  /** SyncService/Pull over the outbox: entries after seq `cursor`, `limit` at a time. */
  async function pull(bytes: Uint8Array): Promise<JsonReply> {
    const io = createMethodSerializationLookup(
      methodOf("SyncService/Pull"),
      {},
      requestJsonOptions,
      limits,
    );
    let req: PullRequest;
    try {
      req = io.getI(false).parse(bytes) as PullRequest;
    } catch (err) {
      return errorReply(err);
    }
    let after: number;
    let limit: number;
    try {
      // The server's cursor grammar and limits, over outbox seqs.
      limit = requestedLimit(req.limit, defaultPullLimit, maxPullLimit, "limit");
      after = parseCursor(req.cursor);
    } catch (err) {
      return errorReply(toConnectError(err));
    }
    const entries = await device.db.outbox
      .where("seq")
      .above(after)
      .limit(limit + 1)
      .toArray();
    const page = entries.slice(0, limit);
    const res = create(PullResponseSchema, {
      changes: page.map(({ change }) => create(ChangeSchema, toWire(change))),
      nextCursor: page.length > 0 ? formatCursor(page.at(-1)?.seq ?? after) : req.cursor,
      hasMore: entries.length > limit,
    });
    return { status: 200, body: JSON.parse(decoder.decode(io.getO(false).serialize(res))) };
  }

  const target: TestTarget = {
    kind: "device",
    ...account,
    async call(path, body) {
      const bytes = encoder.encode(typeof body === "string" ? body : JSON.stringify(body));
      if (path === "SyncService/Pull") return pull(bytes);
      const method = methodOf(path);
      const io = createMethodSerializationLookup(method, {}, requestJsonOptions, limits);
      try {
        const input = io.getI(false).parse(bytes);
        // biome-ignore lint/suspicious/noExplicitAny: the method is chosen by name at run time.
        const call = (createClient(method.parent, device.transport) as any)[method.localName];
        const output = await call(input);
        return { status: 200, body: JSON.parse(decoder.decode(io.getO(false).serialize(output))) };
      } catch (err) {
        return errorReply(err);
      }
    },
    client: (service) => createClient(service, device.transport),
    async seed(changes) {
      await applyPulled(device.db, changes, await storedCursor(device.db));
    },
  };
  return { target, stop: () => device.close() };
}

/**
 * What the contract tests share: a server per suite, the records most of them
 * start from, reading the change feed (Pull) and checking replies.
 */
import { maxPullLimit } from "@hivekeep/client-core/core";
import { afterAll, beforeAll, expect } from "vitest";
import type { DbKind } from "./databases.ts";
import { type JsonReply, startTestServer, type TestServer } from "./server.ts";

/** A change as Pull answers it in JSON (default values are left out, contract §2.1.4). */
export interface WireChange {
  entity: string;
  entityId: string;
  scopeId: string;
  op: string;
  payloadJson: string;
  hlc: string;
  authorId: string;
}

/**
 * What the helpers below need of a target: the JSON call. A TestServer and a TestTarget
 * (test/support/target.ts: the server or a device's local operations) both have it.
 */
export interface Caller {
  call(path: string, body: unknown): Promise<JsonReply>;
}

/** The page of a List* reply in JSON (contract §8). */
export interface PageJson {
  total: number;
  nextPageToken?: string;
}

/**
 * A test server for the tests of the enclosing describe: started before them,
 * stopped after them. The object stands for the running server, so it can be
 * handed to helpers before the server has started.
 */
export function useTestServer(
  kind: DbKind,
  env?: Record<string, string>,
  options?: Parameters<typeof startTestServer>[2],
): TestServer {
  let running: TestServer | undefined;
  beforeAll(async () => {
    running = await startTestServer(kind, env, options);
  });
  afterAll(async () => {
    await running?.stop();
  });
  const started = (): TestServer => {
    if (!running) throw new Error("the test server starts in beforeAll: use it in tests and hooks");
    return running;
  };
  return {
    get url() {
      return started().url;
    },
    get server() {
      return started().server;
    },
    client: (service, opts) => started().client(service, opts),
    call: (path, body, headers) => started().call(path, body, headers),
    as: (token) => started().as(token),
    stop: () => started().stop(),
  };
}

/** Creates an apiary with just a name; answers its id. */
export const newApiary = async (t: Caller, name: string): Promise<string> =>
  (await t.call("ApiaryService/CreateApiary", { name })).body.apiary.id;

/** Creates a hive with just an apiary and a name; answers its id. */
export const newHive = async (t: Caller, apiaryId: string, name: string): Promise<string> =>
  (await t.call("HiveService/CreateHive", { apiaryId, name })).body.hive.id;

/** The start of most service tests: the apiary "Lindenhof" with one hive, "Hive 1". */
export async function withApiaryAndHive(t: Caller): Promise<{ apiaryId: string; hiveId: string }> {
  const apiaryId = await newApiary(t, "Lindenhof");
  const hiveId = await newHive(t, apiaryId, "Hive 1");
  return { apiaryId, hiveId };
}

/** Calls like `t.call`, expects HTTP 200 (with the body as the failure message) and answers the body. */
export async function callOk(t: Caller, path: string, body: unknown): Promise<JsonReply["body"]> {
  const r = await t.call(path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/**
 * An error reply (contract §7): the HTTP status and a body of exactly code and
 * message, which it answers.
 */
export function expectError(r: JsonReply, status: number): { code: string; message: string } {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(Object.keys(r.body).sort()).toEqual(["code", "message"]);
  return r.body;
}

/**
 * Every change after `cursor` ("": the whole feed), pulled `maxPullLimit` at a time, and
 * the cursor after the last of them. On the device target the feed is its outbox.
 */
export async function pullAll(
  t: Caller,
  cursor = "",
): Promise<{ changes: WireChange[]; nextCursor: string }> {
  const changes: WireChange[] = [];
  for (;;) {
    const { body } = await t.call("SyncService/Pull", { cursor, limit: maxPullLimit });
    changes.push(...(body.changes ?? []));
    cursor = body.nextCursor;
    if (!body.hasMore) return { changes, nextCursor: cursor };
  }
}

/**
 * The end of the feed: a cursor after every change written so far. A call that
 * "writes nothing" leaves `pullAll(t, head)` empty.
 */
export const feedHead = async (t: Caller): Promise<string> => (await pullAll(t)).nextCursor;

/**
 * Reads the feed on from where it stopped: each call answers the changes
 * written since the call before (the first call: the whole feed).
 */
export function feedReader(t: Caller): () => Promise<WireChange[]> {
  let cursor = "";
  return async () => {
    const read = await pullAll(t, cursor);
    cursor = read.nextCursor;
    return read.changes;
  };
}

/**
 * A hive "Mover" created now at apiary "A", given a queen of 2024 (introduced
 * 2024-05-01) and then one of 2025 (2025-06-01), and moved to apiary "B" a few
 * milliseconds later: a history for records frozen as of their date.
 */
export async function movedHiveWithTwoQueens(t: Caller) {
  const a = await newApiary(t, "A");
  const b = await newApiary(t, "B");
  const hive = (await t.call("HiveService/CreateHive", { apiaryId: a, name: "Mover" })).body.hive;
  const queen = async (year: number, introducedAt: string): Promise<string> =>
    (await callOk(t, "QueenService/CreateQueen", { hiveId: hive.id, year, introducedAt })).queen.id;
  const oldQueen = await queen(2024, "2024-05-01T00:00:00Z");
  const newQueen = await queen(2025, "2025-06-01T00:00:00Z");
  await new Promise((resolve) => setTimeout(resolve, 5));
  await callOk(t, "HiveService/RelocateHive", { id: hive.id, targetApiaryId: b });
  return { a, b, hive, oldQueen, newQueen };
}

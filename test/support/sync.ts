/**
 * What the SyncService tests share: devices that stamp like real ones (a
 * hybrid logical clock per node id), changes in the wire shape of both
 * encodings, and Push calls that answer either the reply or the rejection.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { Code, ConnectError } from "@connectrpc/connect";
import { type Clock, createClock, formatHlc, tick } from "@hivekeep/client-core/core";
import { ChangeOp, PushRejectionSchema, SyncService } from "@hivekeep/proto";
import { expect } from "vitest";
import type { JsonReply, TestServer } from "./server.ts";

/** A change as a test writes it: payload as an object, op by name. */
export interface TestChange {
  readonly entity: string;
  readonly entityId: string;
  readonly scopeId: string;
  readonly op: "upsert" | "delete";
  readonly payload: Record<string, unknown>;
  readonly hlc: string;
  /** What the device claims; the server ignores it. */
  readonly authorId?: string;
}

/** One rejected change, as the PushRejection error detail lists it. */
export interface RejectionJson {
  readonly index: number;
  readonly code: string;
  readonly reason: string;
}

/** A device: its node id and a hybrid logical clock that follows Date.now(). */
export function device(node: string) {
  let clock: Clock = createClock(node);
  return {
    node,
    /** The next stamp of this device; `offsetMs` shifts its wall clock. */
    stamp(offsetMs = 0): string {
      const next = tick(clock, Date.now() + offsetMs);
      clock = next.clock;
      return next.hlc;
    },
  };
}

/** A stamp at an exact time: for tests that order writes of several devices. */
export const hlcAt = (ms: number, node: string, counter = 0): string =>
  formatHlc({ ms, counter, node });

export const upsert = (
  entity: string,
  entityId: string,
  scopeId: string,
  hlc: string,
  payload: Record<string, unknown>,
): TestChange => ({ entity, entityId, scopeId, op: "upsert", payload, hlc });

export const tombstone = (
  entity: string,
  entityId: string,
  scopeId: string,
  hlc: string,
): TestChange => ({ entity, entityId, scopeId, op: "delete", payload: {}, hlc });

/** An apiary's create: its scope is its own id. */
export const apiaryUpsert = (id: string, hlc: string, payload: Record<string, unknown>) =>
  upsert("apiary", id, id, hlc, payload);

/** The proto3 JSON form of a change (enum by name). */
export const toJson = (c: TestChange) => ({
  entity: c.entity,
  entityId: c.entityId,
  scopeId: c.scopeId,
  op: c.op === "delete" ? "CHANGE_OP_DELETE" : "CHANGE_OP_UPSERT",
  payloadJson: JSON.stringify(c.payload),
  hlc: c.hlc,
  ...(c.authorId === undefined ? {} : { authorId: c.authorId }),
});

/** The typed-client form of a change. */
export const toMessage = (c: TestChange) => ({
  entity: c.entity,
  entityId: c.entityId,
  scopeId: c.scopeId,
  op: c.op === "delete" ? ChangeOp.DELETE : ChangeOp.UPSERT,
  payloadJson: JSON.stringify(c.payload),
  hlc: c.hlc,
  authorId: c.authorId ?? "",
});

/** Push over HTTP JSON; answers the raw reply. */
export const pushJson = (t: TestServer, changes: readonly TestChange[]): Promise<JsonReply> =>
  t.call("SyncService/Push", { changes: changes.map(toJson) });

/** Push over HTTP JSON, expecting success; answers the body. */
export async function pushOk(
  t: TestServer,
  changes: readonly TestChange[],
): Promise<{ conflicts?: unknown[]; serverTime: string }> {
  const r = await pushJson(t, changes);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/**
 * Push with the typed binary client, expecting it to fail; answers the Connect
 * code name, the message and the rejections decoded from the PushRejection
 * error detail.
 */
export async function pushRejected(
  t: TestServer,
  changes: readonly TestChange[],
): Promise<{ code: string; message: string; rejections: RejectionJson[] }> {
  try {
    await t.client(SyncService).push({ changes: changes.map(toMessage) });
  } catch (err) {
    const ce = ConnectError.from(err);
    const details = ce.findDetails(PushRejectionSchema);
    return {
      code: codeName(ce.code),
      message: ce.rawMessage,
      rejections: details.flatMap((d) =>
        d.rejections.map((r) => ({ index: r.index, code: r.code, reason: r.reason })),
      ),
    };
  }
  throw new Error("expected the push to be rejected, but it succeeded");
}

/** The rejections of a JSON error body's PushRejection detail (base64 binary). */
export function jsonRejections(body: {
  details?: { type: string; value: string }[];
}): RejectionJson[] {
  const detail = body.details?.find((d) => d.type === "hivekeep.v1.PushRejection");
  if (!detail) return [];
  // Connect JSON leaves base64 padding out.
  const msg = fromBinary(PushRejectionSchema, base64Decode(detail.value));
  return msg.rejections.map((r) => ({ index: r.index, code: r.code, reason: r.reason }));
}

/** Connect's snake_case code name ("invalid_argument") of a Code. */
export const codeName = (code: Code): string =>
  Code[code].replace(/[A-Z]/g, (c, i: number) => (i === 0 ? c : `_${c}`)).toLowerCase();

/** A Subscribe message as the tests compare it. */
export interface Poke {
  readonly cursor: string;
  readonly heartbeat: boolean;
}

/**
 * Reads a Subscribe stream in the background. `next()` and `until()` wait for an event (a
 * message, or the stream's end), not for a while: without a ceiling they wait as long as the
 * test may run, so a slow machine makes them late, never wrong.
 */
export function streamReader(stream: AsyncIterable<Poke>) {
  const got: Poke[] = [];
  const waiting = new Set<() => void>();
  let ended = false;
  let error: unknown;
  const wake = () => {
    for (const w of waiting) w();
  };
  void (async () => {
    try {
      for await (const m of stream) {
        got.push({ cursor: m.cursor, heartbeat: m.heartbeat });
        wake();
      }
    } catch (e) {
      error = e;
    } finally {
      ended = true;
      wake();
    }
  })();
  /** Resolves once `done()` holds (checked at each message and at the end), or after timeoutMs. */
  const whenever = (done: () => boolean, timeoutMs?: number) =>
    new Promise<void>((resolve) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => settle(), timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        waiting.delete(check);
        resolve();
      };
      const check = () => {
        if (done() || ended) settle();
      };
      waiting.add(check);
      check();
    });
  return {
    got,
    get ended() {
      return ended;
    },
    get error() {
      return error;
    },
    /** Resolves once the stream has ended (`error` says how). */
    closed: (): Promise<void> => whenever(() => ended),
    /** The next message, or undefined when the stream ends first (or none arrives within timeoutMs). */
    async next(timeoutMs?: number): Promise<Poke | undefined> {
      const want = got.length + 1;
      await whenever(() => got.length >= want, timeoutMs);
      return got[want - 1];
    },
    /**
     * The first message so far that matches, else the first to come; undefined when the stream
     * ends first (or none arrives within timeoutMs).
     */
    async until(match: (m: Poke) => boolean, timeoutMs?: number): Promise<Poke | undefined> {
      await whenever(() => got.some(match), timeoutMs);
      return got.find(match);
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

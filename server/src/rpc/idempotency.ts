/**
 * The Idempotency-Key header (IETF httpapi draft-ietf-httpapi-idempotency-key-header) on the
 * record services' Create calls, AddInspectionPhoto and CreateReadings: a call retried with the
 * same key (same tenant, same user behind the credential, same method) within 24 hours gets the
 * first answer again and writes nothing. Without the header a call runs as it always did.
 *
 * - The call runs in one database transaction that the call's store joins (`keyTxKey`, read by
 *   session.ts): its write and the key's row (with the answer) commit together or not at all. A
 *   crash before the commit leaves neither; after it, a retry finds the answer. A failed call
 *   stores nothing (nothing was written): its retry runs again.
 * - The same key with another request (its binary protobuf differs: another body, whatever the
 *   JSON spelling) is refused with failed_precondition (the draft's 422).
 * - The same key while its first call still runs is refused with aborted (the draft's 409):
 *   in this process a set of running keys says so at once; across processes the transaction's
 *   advisory lock on the key does.
 * - A key that is not 1 to 255 printable ASCII characters is invalid_argument (core's rule).
 * - Keys older than 24 hours are forgotten: never found again, and deleted by a sweep that runs
 *   at most hourly, after a call that stored a key.
 *
 * AuthService's Create calls are left out: their answers are secrets (an API key, an
 * invitation token) that are stored only as hashes.
 */
import { createHash } from "node:crypto";
import { fromJsonString, toBinary, toJsonString } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextKey,
  type Interceptor,
  type StreamResponse,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { parseIdempotencyKey } from "@hivekeep/client-core/core";
import { AuthService } from "@hivekeep/proto";
import type { Queryable } from "../db/db.ts";
import {
  findAnswer,
  type IdempotencySlot,
  lockSlot,
  storeAnswer,
  sweepIdempotencyKeys,
} from "../store/idempotency-keys.ts";
import { callerKey } from "./context.ts";
import type { Deps } from "./deps.ts";

export const idempotencyKeyHeader = "Idempotency-Key";

/** The transaction a keyed call runs in: its store writes there (session.ts). */
export const keyTxKey = createContextKey<Queryable | undefined>(undefined, {
  description: "the transaction of a call with an Idempotency-Key",
});

/** How often the sweep of expired keys runs at most (per process). */
export const sweepEveryMs = 60 * 60 * 1000;

/** Whether the header applies to a method: the record services' creating calls. */
export function takesIdempotencyKey(serviceName: string, methodName: string): boolean {
  if (serviceName === AuthService.typeName) return false;
  return (
    methodName.startsWith("Create") ||
    methodName === "AddInspectionPhoto" ||
    methodName === "CreateReadings"
  );
}

const running = () =>
  new ConnectError(
    "a request with this Idempotency-Key is still running: try again once it has answered",
    Code.Aborted,
  );

export function idempotencyInterceptor(deps: Deps): Interceptor {
  /** The slots of keyed calls running in this process. */
  const inFlight = new Set<string>();
  let lastSweepMs = Number.NEGATIVE_INFINITY;
  return (next) => async (req) => {
    const header = req.header.get(idempotencyKeyHeader);
    if (header === null || req.stream) return next(req);
    if (!takesIdempotencyKey(req.service.typeName, req.method.name)) return next(req);
    const parsed = parseIdempotencyKey(header);
    if ("error" in parsed) throw new ConnectError(parsed.error, Code.InvalidArgument);
    const caller = req.contextValues.get(callerKey);
    // The auth interceptor has refused a call without a caller already.
    if (caller === undefined) return next(req);
    const slot: IdempotencySlot = {
      organizationId: caller.organizationId,
      ownerId: caller.userId,
      method: `${req.service.typeName}/${req.method.name}`,
      key: parsed.key,
    };
    const slotId = JSON.stringify(slot);
    if (inFlight.has(slotId)) throw running();
    inFlight.add(slotId);
    try {
      const answer = await keyedCall(deps, slot, req, next);
      const nowMs = deps.clock.nowMs();
      if (answer.stored && nowMs - lastSweepMs >= sweepEveryMs) {
        lastSweepMs = nowMs;
        await sweepIdempotencyKeys(deps.db, nowMs).catch((err: unknown) =>
          deps.log.warn({ err }, "sweeping expired idempotency keys failed"),
        );
      }
      return answer.response;
    } finally {
      inFlight.delete(slotId);
    }
  };
}

/** The request's fingerprint: SHA-256 of its binary protobuf (one for every JSON spelling). */
const fingerprintOf = (req: UnaryRequest): string =>
  createHash("sha256").update(toBinary(req.method.input, req.message)).digest("hex");

/**
 * The headers of a replayed answer. What an interceptor answers replaces the handler's response
 * headers, and a unary answer's only one is its Content-Type, which follows the request's
 * (Connect: application/json or application/proto).
 */
function replayHeader(req: UnaryRequest): Headers {
  const sent = req.header.get("content-type") ?? "";
  const type = /^application\/(proto|json)\b/i.exec(sent)?.[1]?.toLowerCase() ?? "json";
  return new Headers({ "content-type": `application/${type}` });
}

async function keyedCall(
  deps: Deps,
  slot: IdempotencySlot,
  req: UnaryRequest,
  next: (req: UnaryRequest) => Promise<UnaryResponse | StreamResponse>,
): Promise<{ response: UnaryResponse | StreamResponse; stored: boolean }> {
  const fingerprint = fingerprintOf(req);
  return deps.db.transaction(async (tx) => {
    if (!(await lockSlot(tx, slot))) throw running();
    const nowMs = deps.clock.nowMs();
    const first = await findAnswer(tx, slot, nowMs);
    if (first !== undefined) {
      if (first.fingerprint !== fingerprint) {
        throw new ConnectError(
          "this Idempotency-Key was used for another request within 24 hours: " +
            "send a new key for a new request",
          Code.FailedPrecondition,
        );
      }
      const message = fromJsonString(req.method.output, first.response);
      const response: UnaryResponse = {
        stream: false,
        service: req.service,
        method: req.method,
        header: replayHeader(req),
        trailer: new Headers(),
        message,
      };
      return { response, stored: false };
    }
    req.contextValues.set(keyTxKey, tx);
    const response = await next(req);
    if (response.stream) return { response, stored: false };
    const json = toJsonString(req.method.output, response.message);
    await storeAnswer(tx, slot, { fingerprint, response: json }, nowMs);
    return { response, stored: true };
  });
}

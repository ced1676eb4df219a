/**
 * A Push's outcome, from the answers a device meets: through the real sync client
 * (sync/sync-client.ts) over a fake fetch that answers as the server (Connect's error JSON) or a
 * proxy (its own page) would. No outcome depends on an error's message.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { PushRejectionSchema, PushResponseSchema } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import type { SyncChange } from "../protocol/wire.ts";
import { createSyncClient } from "../sync/sync-client.ts";
import { type PushOutcome, pushBatch, readPushResponse } from "./push-delegate.ts";

const change = (i: number): SyncChange => ({
  entity: "apiary",
  entityId: `a${i}`,
  scopeId: `a${i}`,
  op: 1,
  payloadJson: JSON.stringify({ name: `Apiary ${i}` }),
  hlc: `0000000000001-0000-dtest${i}`,
  authorId: "",
});
const batch = [change(0), change(1), change(2)];

/** Pushes `batch` through the sync client to a fetch that answers `answer()`. */
async function outcomeOf(answer: () => Response | Promise<Response>): Promise<PushOutcome> {
  const client = createSyncClient({
    baseUrl: "https://hivekeep.test",
    fetch: async () => answer(),
  });
  // As create-client.ts's transport reads a PushResponse.
  const push = async (changes: readonly SyncChange[]) =>
    readPushResponse(await client.push(changes));
  return pushBatch({ push }, batch);
}

/** The server's answer to a failed call: Connect's error JSON with the code's status. */
function connectError(status: number, error: ConnectError, headers: HeadersInit = {}): Response {
  return new Response(new Uint8Array(errorToJsonBytes(error, {})), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** The message in each of these is one no rule matches: only codes and headers decide. */
const neutral = "refused";

describe("push delegate outcomes", () => {
  it("sent: the server's time from the response", async () => {
    const serverTime = { seconds: 1_777_000_000n, nanos: 5_000_000 };
    const outcome = await outcomeOf(
      () =>
        new Response(toBinary(PushResponseSchema, create(PushResponseSchema, { serverTime })), {
          headers: { "content-type": "application/proto" },
        }),
    );
    expect(outcome).toEqual({ kind: "sent", serverTimeMs: 1_777_000_000_005, conflicts: [] });
  });

  it("sent: the columns that lost, as Push's conflicts name them (issue 25)", async () => {
    const conflicts = [
      { entity: "hive", entityId: "h1", columns: ["note"], winningHlc: "001777000000000:00000:b" },
    ];
    const outcome = await outcomeOf(
      () =>
        new Response(toBinary(PushResponseSchema, create(PushResponseSchema, { conflicts })), {
          headers: { "content-type": "application/proto" },
        }),
    );
    expect(outcome).toMatchObject({ kind: "sent", conflicts });
  });

  it("too-large: the server's resource_exhausted for a body over its limit, whatever it says", async () => {
    const outcome = await outcomeOf(() =>
      connectError(429, new ConnectError(neutral, Code.ResourceExhausted)),
    );
    expect(outcome.kind).toBe("too-large");
  });

  it("too-large: a proxy's 413 page (not Connect's JSON)", async () => {
    const outcome = await outcomeOf(
      () =>
        new Response("<html>nginx says no</html>", {
          status: 413,
          statusText: "Content Too Large",
          headers: { "content-type": "text/html" },
        }),
    );
    expect(outcome.kind).toBe("too-large");
    expect(outcome.kind !== "sent" && outcome.error.code).toBe(Code.ResourceExhausted);
  });

  it("retry-later: a rate limit (resource_exhausted with Retry-After) is waited out, not halved", async () => {
    const outcome = await outcomeOf(() =>
      connectError(429, new ConnectError("too large", Code.ResourceExhausted), {
        "retry-after": "30",
      }),
    );
    expect(outcome.kind).toBe("retry-later");
  });

  it("retry-later: no connection, a proxy's 502, a server error", async () => {
    const offline = await outcomeOf(() => {
      throw new TypeError("fetch failed");
    });
    expect(offline.kind).toBe("retry-later");
    const gateway = await outcomeOf(() => new Response("bad gateway", { status: 502 }));
    expect(gateway.kind).toBe("retry-later");
    const internal = await outcomeOf(() =>
      connectError(500, new ConnectError(neutral, Code.Internal)),
    );
    expect(internal.kind).toBe("retry-later");
  });

  it("rejected: one refusal per named change in the batch, with every reason", async () => {
    const rejection = create(PushRejectionSchema, {
      rejections: [
        { index: 2, code: "invalid_argument", reason: "name: too long" },
        { index: 0, code: "permission_denied", reason: "not a member" },
        { index: 0, code: "invalid_argument", reason: "hlc: malformed" },
        // Outside the batch: ignored.
        { index: 7, code: "invalid_argument", reason: "?" },
      ],
    });
    const error = new ConnectError(neutral, Code.PermissionDenied, undefined, [
      { desc: PushRejectionSchema, value: rejection },
    ]);
    const outcome = await outcomeOf(() => connectError(403, error));
    expect(outcome.kind === "rejected" && outcome.refused).toEqual([
      { index: 2, code: "invalid_argument", reason: "name: too long" },
      { index: 0, code: "permission_denied", reason: "not a member; hlc: malformed" },
    ]);
  });

  it("failed: unauthenticated, and a refusal that names no change of the batch", async () => {
    const auth = await outcomeOf(() =>
      connectError(401, new ConnectError(neutral, Code.Unauthenticated)),
    );
    expect(auth.kind).toBe("failed");
    expect(auth.kind !== "sent" && auth.error.code).toBe(Code.Unauthenticated);
    const invalid = await outcomeOf(() =>
      connectError(400, new ConnectError(neutral, Code.InvalidArgument)),
    );
    expect(invalid.kind).toBe("failed");
  });
});

/**
 * The device's sync client (client-core/src/sync) against the real server:
 * its hand-written Push and Pull messages mean the same to the server as a
 * generated Connect client's, and its errors are the same ConnectErrors
 * (code, message, PushRejection details).
 */
import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  createSyncClient,
  nextPageHeader,
  type PullPage,
  type SyncChange,
} from "@hivekeep/client-core/sync";
import { ChangeOp, PullRequestSchema, PushRejectionSchema, SyncService } from "@hivekeep/proto";
import { localUserId } from "@hivekeep/server";
import { describe, expect, it } from "vitest";
import { loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { useTestServer, withApiaryAndHive } from "../support/fixtures.ts";
import { device } from "../support/sync.ts";

const inspection = (apiaryId: string, hiveId: string, hlc: string, note: string): SyncChange => ({
  entity: "inspection",
  entityId: randomUUID(),
  scopeId: apiaryId,
  op: ChangeOp.UPSERT,
  payloadJson: JSON.stringify({
    hive_id: hiveId,
    apiary_id: apiaryId,
    date: new Date().toISOString(),
    note,
  }),
  hlc,
  authorId: "",
});

describe.each(databaseKinds)("device sync client on %s", (kind) => {
  const t = useTestServer(kind);

  it("pushes a batch and pulls the same changes a Connect client pulls", async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const d = device("client-core-a");
    const sync = createSyncClient({ baseUrl: t.url });
    // Non-ASCII text and a long payload travel intact both ways.
    const pushed = [
      inspection(apiaryId, hiveId, d.stamp(), "Königin gesehen 🐝, Brut ✓"),
      inspection(apiaryId, hiveId, d.stamp(), "x".repeat(5000)),
      inspection(apiaryId, hiveId, d.stamp(), ""),
    ];
    const reply = await sync.push(pushed);
    expect(reply.conflicts).toEqual([]);
    expect(Math.abs(Number(reply.serverTime?.seconds) * 1000 - Date.now())).toBeLessThan(60_000);

    const connect = t.client(SyncService);
    const connectJson = t.client(SyncService, { json: true });
    let cursor = "";
    for (;;) {
      const ours = await sync.pull(cursor, 2);
      const theirs = await connect.pull({ cursor, limit: 2 });
      // The feed laid out for the wire by the database (binary) and decoded
      // to strings (JSON) are the same changes.
      const json = await connectJson.pull({ cursor, limit: 2 });
      expect(theirs.changes).toEqual(json.changes);
      expect(ours.changes).toEqual(
        theirs.changes.map(({ entity, entityId, scopeId, op, payloadJson, hlc, authorId }) => ({
          entity,
          entityId,
          scopeId,
          op,
          payloadJson,
          hlc,
          authorId,
        })),
      );
      expect(ours.nextCursor).toBe(theirs.nextCursor);
      expect(ours.hasMore).toBe(theirs.hasMore);
      expect(ours.serverTimeMs).toBeGreaterThan(0);
      cursor = ours.nextCursor;
      if (!ours.hasMore) break;
    }
    const all = await sync.pull("", 5000);
    const mine = all.changes.filter((c) => pushed.some((p) => p.entityId === c.entityId));
    expect(mine.map((c) => JSON.parse(c.payloadJson).note)).toEqual(
      pushed.map((p) => JSON.parse(p.payloadJson).note),
    );
    // The server names the author, whatever the device claims.
    expect(new Set(mine.map((c) => c.authorId))).toEqual(new Set([localUserId]));
  });

  it("reads the whole feed page by page, asking ahead, and stops when told", async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const d = device("client-core-p");
    const sync = createSyncClient({ baseUrl: t.url });
    await sync.push(
      Array.from({ length: 7 }, (_, i) => inspection(apiaryId, hiveId, d.stamp(), `p${i}`)),
    );
    const oneByOne = [];
    let cursor = "";
    for (;;) {
      const page = await sync.pull(cursor, 3);
      oneByOne.push(page);
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    const pages = [];
    for await (const page of sync.pages("", 3)) pages.push(page);
    expect(pages.map((p) => [p.changes, p.nextCursor, p.hasMore])).toEqual(
      oneByOne.map((p) => [p.changes, p.nextCursor, p.hasMore]),
    );
    expect(pages.length).toBeGreaterThan(2);
    // Stopping after the first page cancels the page asked for ahead.
    for await (const page of sync.pages("", 3)) {
      expect(page.changes).toHaveLength(3);
      break;
    }
    await expect(
      (async () => {
        for await (const _ of sync.pages("bad", 3)) {
          /* the first page already fails */
        }
      })(),
    ).rejects.toMatchObject({ code: Code.InvalidArgument });
  });

  it("pulls a page of several 256 KiB chunks the same in binary and JSON", async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const d = device("client-core-c");
    const sync = createSyncClient({ baseUrl: t.url });
    // About 1.2 MB of changes: the binary page travels in five chunks.
    const pushed = Array.from({ length: 240 }, (_, i) =>
      inspection(apiaryId, hiveId, d.stamp(), `${i} ${"Brut ✓ ".repeat(700)}`),
    );
    await sync.push(pushed);
    const binary = await t.client(SyncService).pull({ cursor: "", limit: 5000 });
    const json = await t.client(SyncService, { json: true }).pull({ cursor: "", limit: 5000 });
    expect(binary.changes).toEqual(json.changes);
    const ours = await sync.pull("", 5000);
    expect(ours.changes.map((c) => c.payloadJson)).toEqual(json.changes.map((c) => c.payloadJson));
    const notes = ours.changes
      .filter((c) => pushed.some((p) => p.entityId === c.entityId))
      .map((c) => JSON.parse(c.payloadJson).note);
    expect(notes).toEqual(pushed.map((p) => JSON.parse(p.payloadJson).note));
  });

  it("names the next page's cursor in a header exactly when more follow", async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const d = device("client-core-h");
    const sync = createSyncClient({ baseUrl: t.url });
    await sync.push(
      Array.from({ length: 5 }, (_, i) => inspection(apiaryId, hiveId, d.stamp(), `h${i}`)),
    );
    let cursor = "";
    for (let json = 0; json < 2; json++) {
      for (;;) {
        const res = await fetch(`${t.url}/hivekeep.v1.SyncService/Pull`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ cursor, limit: 2 }),
        });
        const page = (await res.json()) as { nextCursor: string; hasMore?: boolean };
        expect(res.headers.get(nextPageHeader)).toBe(page.hasMore ? page.nextCursor : null);
        cursor = page.nextCursor;
        if (!page.hasMore) break;
      }
      const binary = await sync.pull("", 2);
      expect(binary.hasMore).toBe(true);
      cursor = "";
    }
  });

  it("asks for the next page from the header before reading this page's body; the body decides", async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const d = device("client-core-q");
    await createSyncClient({ baseUrl: t.url }).push(
      Array.from({ length: 7 }, (_, i) => inspection(apiaryId, hiveId, d.stamp(), `q${i}`)),
    );
    // Pages without serverTime, which differs between reads.
    const content = ({ changes, nextCursor, hasMore }: PullPage) => ({
      changes,
      nextCursor,
      hasMore,
    });
    const expected = [];
    for await (const page of createSyncClient({ baseUrl: t.url }).pages("", 3)) {
      expected.push(content(page));
    }
    // A fetch that logs requests and body reads, and may rewrite the hint.
    const recording = (rewrite?: (hint: string) => string) => {
      const events: string[] = [];
      const cancelled: string[] = [];
      const doFetch: typeof fetch = async (input, init) => {
        const body = init?.body as Uint8Array;
        const { cursor } = fromBinary(PullRequestSchema, body);
        events.push(`ask ${cursor}`);
        init?.signal?.addEventListener("abort", () => cancelled.push(cursor));
        const res = await fetch(input, init);
        const headers = new Headers(res.headers);
        const hint = headers.get(nextPageHeader);
        if (hint !== null && rewrite) headers.set(nextPageHeader, rewrite(hint));
        const bytes = await res.arrayBuffer();
        const wrapped = new Response(bytes, { status: res.status, headers });
        const read = wrapped.arrayBuffer.bind(wrapped);
        Object.defineProperty(wrapped, "arrayBuffer", {
          value: () => {
            events.push(`read ${cursor}`);
            return read();
          },
        });
        return wrapped;
      };
      return { events, cancelled, sync: createSyncClient({ baseUrl: t.url, fetch: doFetch }) };
    };

    const honest = recording();
    const pages = [];
    for await (const page of honest.sync.pages("", 3)) pages.push(content(page));
    expect(pages).toEqual(expected);
    const cursors = ["", ...expected.slice(0, -1).map((p) => p.nextCursor)];
    // Each next page is asked for before the page before it is read.
    expect(honest.events).toEqual([
      `ask ${cursors[0]}`,
      ...cursors.slice(1).flatMap((c, i) => [`ask ${c}`, `read ${cursors[i]}`]),
      `read ${cursors.at(-1)}`,
    ]);

    // A hint the body does not confirm is cancelled, and the body's cursor is used.
    const lying = recording(() => "1");
    const again = [];
    for await (const page of lying.sync.pages("", 3)) again.push(content(page));
    expect(again).toEqual(expected);
    expect(lying.cancelled.filter((c) => c === "1").length).toBeGreaterThan(0);
  });

  it("throws the ConnectError with every rejected change as a PushRejection", async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const d = device("client-core-b");
    const sync = createSyncClient({ baseUrl: t.url });
    const good = inspection(apiaryId, hiveId, d.stamp(), "fine");
    const err = await sync
      .push([
        good,
        { ...inspection(apiaryId, hiveId, d.stamp(), "x"), entity: "beehive" },
        { ...inspection(apiaryId, hiveId, d.stamp(), "x"), hlc: "yesterday" },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    const e = err as ConnectError;
    expect(e.code).toBe(Code.InvalidArgument);
    expect(e.rawMessage).toMatch(/^2 changes rejected, nothing written/);
    const [detail] = e.findDetails(PushRejectionSchema);
    expect(detail?.rejections.map((r) => [r.index, r.code])).toEqual([
      [1, "invalid_argument"],
      [2, "invalid_argument"],
    ]);
    // Nothing of the batch was written.
    const all = await sync.pull("", 5000);
    expect(all.changes.some((c) => c.entityId === good.entityId)).toBe(false);
  });

  it("answers a malformed cursor and an unreachable server with ConnectErrors", async () => {
    const sync = createSyncClient({ baseUrl: `${t.url}/` });
    await expect(sync.pull("not-a-cursor")).rejects.toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: expect.stringMatching(/cursor "not-a-cursor" is malformed/),
    });
    const closed = createSyncClient({ baseUrl: "http://127.0.0.1:9" });
    await expect(closed.pull("")).rejects.toMatchObject({ code: Code.Unavailable });
  });

  it("fails a binary Pull with internal on a feed row whose stored head is not base64, and goes on", async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const sync = createSyncClient({ baseUrl: t.url });
    const change = inspection(apiaryId, hiveId, device("client-core-m").stamp(), "fine");
    await sync.push([change]);
    const { db } = t.server;
    const where = "where entity = 'inspection' and entity_id = $1";
    const [row] = await db.query<{ seq: number; change_head: string }>(
      `select seq, change_head from changes ${where}`,
      [change.entityId],
    );
    // Every stored head is base64; this one is not.
    await db.query(`update changes set change_head = '[]' ${where}`, [change.entityId]);
    try {
      const from = String((row?.seq ?? 1) - 1);
      await expect(
        t.client(SyncService, { json: false }).pull({ cursor: from }),
      ).rejects.toMatchObject({ code: Code.Internal });
      await expect(sync.pull(from)).rejects.toMatchObject({ code: Code.Internal });
      // JSON Pull reads the plain columns.
      const json = await t.client(SyncService, { json: true }).pull({ cursor: from, limit: 1 });
      expect(json.changes[0]?.entityId).toBe(change.entityId);
      // The connection and the server go on.
      expect((await sync.pull("", 1)).changes).toHaveLength(1);
    } finally {
      await db.query(`update changes set change_head = $2 ${where}`, [
        change.entityId,
        row?.change_head,
      ]);
    }
    expect((await sync.pull(String((row?.seq ?? 1) - 1), 1)).changes[0]?.entityId).toBe(
      change.entityId,
    );
  });
});

describe.each(databaseKinds)("device sync client in login mode on %s", (kind) => {
  const t = useTestServer(kind, loginEnv, { throttle: relaxedThrottle });

  it("sends the session token and is refused without one", async () => {
    const account = await signUp(t);
    const { apiaryId, hiveId } = await withApiaryAndHive(account.t);
    const signedIn = createSyncClient({
      baseUrl: t.url,
      headers: () => ({ authorization: `Bearer ${account.token}` }),
    });
    const d = device("client-core-c");
    await signedIn.push([inspection(apiaryId, hiveId, d.stamp(), "signed in")]);
    const page = await signedIn.pull("");
    expect(page.changes.some((c) => c.payloadJson.includes("signed in"))).toBe(true);

    const anonymous = createSyncClient({ baseUrl: t.url });
    await expect(anonymous.pull("")).rejects.toMatchObject({ code: Code.Unauthenticated });
    await expect(
      anonymous.push([inspection(apiaryId, hiveId, d.stamp(), "x")]),
    ).rejects.toMatchObject({ code: Code.Unauthenticated });
  });
});

/** SyncService.Subscribe: pokes, heartbeats, scoping and shutdown over HTTP/1.1. */
import { createApiary, createTask } from "@hivekeep/client-core/core";
import { type SubscribeResponse, SyncService } from "@hivekeep/proto";
import { localOrganizationId, localUserId } from "@hivekeep/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deps } from "../../server/src/rpc/deps.ts";
import { defaultHeartbeatMs, defaultPokeIntervalMs } from "../../server/src/rpc/subscribe.ts";
import { feedHead } from "../../server/src/store/feed.ts";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import { seedContext } from "../support/command-seed.ts";
import { databaseKinds } from "../support/databases.ts";
import { eventually } from "../support/main-process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import {
  manualTiming,
  openSubscribe,
  watchedNotifier,
  watchedTiming,
} from "../support/subscribe-handler.ts";
import { streamReader } from "../support/sync.ts";

describe.each(databaseKinds)("Subscribe on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, {}, { heartbeatMs: 400 });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const head = async () =>
    (await t.call("SyncService/Pull", { cursor: "" })).body.nextCursor as string;
  const write = (name: string) => t.call("ApiaryService/CreateApiary", { name });

  it("pokes at once when the device is already behind", async () => {
    await write("Before");
    const abort = new AbortController();
    const r = streamReader(
      t.client(SyncService).subscribe({ cursor: "" }, { signal: abort.signal }),
    );
    const first = await r.next();
    abort.abort();
    expect(first).toEqual({ cursor: await head(), heartbeat: false });
  });

  it("pokes when the feed advances, with the new cursor", async () => {
    const abort = new AbortController();
    const r = streamReader(
      t.client(SyncService).subscribe({ cursor: await head() }, { signal: abort.signal }),
    );
    await write("During");
    const poke = await r.next();
    abort.abort();
    expect(poke).toEqual({ cursor: await head(), heartbeat: false });
  });

  it("opens with a heartbeat when up to date, and sends one again when nothing happens", async () => {
    const abort = new AbortController();
    const r = streamReader(
      t.client(SyncService).subscribe({ cursor: await head() }, { signal: abort.signal }),
    );
    const opening = await r.next();
    const beat = await r.next();
    abort.abort();
    expect(opening).toEqual({ cursor: "", heartbeat: true });
    expect(beat).toEqual({ cursor: "", heartbeat: true });
  });

  it("is not woken by another tenant's writes or another user's personal task", async () => {
    // The handler on its own, on this database and its real notifier, with its time on a clock
    // the test moves (it never does here): the stream never beats or paces on its own, and each
    // step waits for a known event (the notifier dispatched a write; the stream handled what
    // woke it and waits again), never for "no message within so many ms".
    const { db, notifier } = t.server;
    const other = "00000000-0000-7000-8000-0000000000aa";
    await db.query(
      "insert into organizations (id, name) values ($1, 'Other') on conflict do nothing",
      [other],
    );
    const from = (await feedHead(db, localOrganizationId)) ?? 0;
    const heard = watchedNotifier(notifier);
    const watched = watchedTiming(
      manualTiming({ heartbeatMs: defaultHeartbeatMs, pokeIntervalMs: defaultPokeIntervalMs })
        .timing,
    );
    const deps = { db, notifier: heard.notifier } as unknown as Deps;
    const s = openSubscribe(deps, String(from), localUserId, watched.timing);
    // Up to date: the stream opens with a heartbeat, at once (before any timer).
    expect(await s.stream.next()).toEqual({
      done: false,
      value: expect.objectContaining({ cursor: "", heartbeat: true }),
    });
    expect(watched.waits).toEqual([]);
    const waiting = watched.nextWait();
    let first: IteratorResult<SubscribeResponse> | undefined;
    const firstRead = s.stream.next().then((r) => {
      first = r;
    });
    // Subscribed, up to date, waiting for the feed (or its next heartbeat).
    expect(await waiting).toBe(watched.timing.heartbeatMs);

    // Another tenant's write: dispatched by the notifier, never to this stream.
    const delivered = heard.nextDelivery(other);
    await writeTenant(db, other, (w) =>
      w.apply(createApiary(seedContext(), { name: "Theirs", address: "", lat: 0, lng: 0 }).changes),
    );
    expect(await delivered).toBe(await feedHead(db, other));
    expect(heard.heard).toEqual([]);

    // Another user's personal task in this tenant: it wakes the stream, which finds nothing
    // it may see and waits again, without a message.
    const waitsAgain = watched.nextWait();
    const personal = createTask(
      { ...seedContext(), authorId: "another-user" },
      { hive: undefined, apiaryExists: false },
      { title: "Their errand", hiveId: "", apiaryId: "", priority: 0 },
    );
    await writeTenant(db, localOrganizationId, (w) => w.apply(personal.changes));
    const theirs = (await feedHead(db, localOrganizationId)) ?? 0;
    await heard.heardSeq(theirs);
    // Handled once the stream waits again (or, were it wrong, once it poked).
    await Promise.race([waitsAgain, firstRead]);
    expect(first).toBeUndefined();
    expect(await waitsAgain).toBe(watched.timing.heartbeatMs);
    expect(heard.heard).toEqual([theirs]);

    // Our own write is the next message: a poke with its position.
    await writeTenant(db, localOrganizationId, (w) =>
      w.apply(createApiary(seedContext(), { name: "Ours", address: "", lat: 0, lng: 0 }).changes),
    );
    const ours = (await feedHead(db, localOrganizationId)) ?? 0;
    await firstRead;
    expect(first).toEqual({
      done: false,
      value: expect.objectContaining({ cursor: String(ours), heartbeat: false }),
    });
    s.end();
    expect(await s.stream.next()).toEqual({ done: true, value: undefined });
    expect(heard.notifier.size()).toBe(0);
  });

  it("leaves no listener behind when subscribers go away, a reader that lagged included", async () => {
    // Streams of the tests before end on the server a moment after their clients went away.
    await eventually(() => expect(t.server.notifier.size()).toBe(0));
    const gone = new AbortController();
    const r1 = streamReader(
      t.client(SyncService).subscribe({ cursor: await head() }, { signal: gone.signal }),
    );
    // A subscriber that never reads: its stream is open but nothing is consumed.
    const slow = new AbortController();
    const stream = t
      .client(SyncService)
      .subscribe({ cursor: await head() }, { signal: slow.signal });
    const it = stream[Symbol.asyncIterator]();
    // Each stream is subscribed once it has sent its first message (the opening heartbeat: both
    // are up to date); the slow one is read no further during the burst.
    expect(await r1.next()).toEqual({ cursor: "", heartbeat: true });
    let m = await it.next();
    expect(m).toEqual({ done: false, value: expect.objectContaining({ heartbeat: true }) });
    expect(t.server.notifier.size()).toBe(2);
    for (let i = 0; i < 30; i++) await write(`Burst ${i}`);
    // The reader that lagged still reaches the newest cursor.
    const got: string[] = [];
    while (!m.done && got.length < 40) {
      if (!m.value.heartbeat) got.push(m.value.cursor);
      if (m.value.cursor === (await head())) break;
      m = await it.next();
    }
    expect(got.at(-1)).toBe(await head());
    gone.abort();
    slow.abort();
    await r1.closed();
    // The server ends each stream once it sees its request gone.
    await eventually(() => expect(t.server.notifier.size()).toBe(0));
  });

  it("rejects a malformed cursor with invalid_argument", async () => {
    const r = streamReader(t.client(SyncService).subscribe({ cursor: "abc" }));
    await r.closed();
    expect(r.got).toEqual([]);
    expect(String(r.error)).toMatch(/invalid_argument/);
  });
});

describe("Subscribe and shutdown", () => {
  it("ends open streams cleanly when the server stops", async () => {
    const t = await startTestServer("pglite");
    await t.call("ApiaryService/CreateApiary", { name: "Before" });
    const r = streamReader(t.client(SyncService).subscribe({ cursor: "" }));
    // Open and waiting: it has poked (it started behind).
    expect(await r.next()).toMatchObject({ heartbeat: false });
    await t.stop();
    await r.closed();
    expect(r.error).toBeUndefined();
    expect(r.got).toHaveLength(1);
  });
});

/** SyncService.Subscribe: pokes, heartbeats, scoping and shutdown over HTTP/1.1. */
import { createApiary, createTask } from "@hivekeep/client-core/core";
import { SyncService } from "@hivekeep/proto";
import { localOrganizationId } from "@hivekeep/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import { seedContext } from "../support/command-seed.ts";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
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

  it("sends a heartbeat when nothing happens", async () => {
    const abort = new AbortController();
    const r = streamReader(
      t.client(SyncService).subscribe({ cursor: await head() }, { signal: abort.signal }),
    );
    const beat = await r.next(3_000);
    abort.abort();
    expect(beat).toEqual({ cursor: "", heartbeat: true });
  });

  it("is not woken by another tenant's writes or another user's personal task", async () => {
    const other = "00000000-0000-7000-8000-0000000000aa";
    await t.server.db.query(
      "insert into organizations (id, name) values ($1, 'Other') on conflict do nothing",
      [other],
    );
    const abort = new AbortController();
    const r = streamReader(
      t.client(SyncService).subscribe({ cursor: await head() }, { signal: abort.signal }),
    );
    await writeTenant(t.server.db, other, (w) =>
      w.apply(createApiary(seedContext(), { name: "Theirs", address: "", lat: 0, lng: 0 }).changes),
    );
    const personal = createTask(
      { ...seedContext(), authorId: "another-user" },
      { hive: undefined, apiaryExists: false },
      { title: "Their errand", hiveId: "", apiaryId: "", priority: 0 },
    );
    await writeTenant(t.server.db, localOrganizationId, (w) => w.apply(personal.changes));
    // The first message is a heartbeat, not a poke (waited for generously: on a
    // loaded machine the stream may take a while to open); then our own write pokes.
    const first = await r.next(10_000);
    await write("Ours");
    // Heartbeats (every 400 ms) until the poke: the first message that is not one, waited for
    // generously, so a loaded machine that delays the notification does not fail the test.
    const poke = await r.until((m) => !m.heartbeat, 30_000);
    abort.abort();
    expect(first).toEqual({ cursor: "", heartbeat: true });
    expect(poke).toEqual({ cursor: await head(), heartbeat: false });
  });

  it("leaves no listener behind when subscribers go away, a reader that lagged included", async () => {
    const before = t.server.notifier.size();
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
    const firstRead = it.next();
    await expect.poll(() => t.server.notifier.size()).toBe(before + 2);
    for (let i = 0; i < 30; i++) await write(`Burst ${i}`);
    // The reader that lagged still reaches the newest cursor.
    const got: string[] = [];
    let m = await firstRead;
    while (!m.done && got.length < 40) {
      if (!m.value.heartbeat) got.push(m.value.cursor);
      if (m.value.cursor === (await head())) break;
      m = await it.next();
    }
    expect(got.at(-1)).toBe(await head());
    gone.abort();
    slow.abort();
    await r1.next(500);
    await expect.poll(() => t.server.notifier.size()).toBe(before);
  });

  it("rejects a malformed cursor with invalid_argument", async () => {
    const r = streamReader(t.client(SyncService).subscribe({ cursor: "abc" }));
    await r.next(2_000);
    expect(r.ended).toBe(true);
    expect(String(r.error)).toMatch(/invalid_argument/);
  });
});

describe("Subscribe and shutdown", () => {
  it("ends open streams cleanly when the server stops", async () => {
    const t = await startTestServer("pglite");
    const r = streamReader(t.client(SyncService).subscribe({ cursor: "" }));
    await new Promise((res) => setTimeout(res, 200));
    await t.stop();
    await r.next(2_000);
    expect(r.ended).toBe(true);
  });
});

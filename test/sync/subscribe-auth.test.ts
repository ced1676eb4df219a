/**
 * A Subscribe stream outlives the checks of its token at the start. When the credential ends
 * (Logout, SwitchOrganization, a removed member, a revoked API key) the revoking transaction
 * notifies the streams through the feed notifier and they end with unauthenticated at once,
 * before they poke again: the heartbeat is a minute here, so none of these tests waits for it.
 * Each revocation is followed by a write the stream would poke, so a stream that outlives its
 * credential shows at once (event order, no timing). A session's expiry ends its stream through
 * the stream's own timer; a lost notification still ends it at the heartbeat's check. With two
 * server processes on Postgres, a revocation on one ends a stream on the other.
 */
import { type Client, Code, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { createApiary } from "@hivekeep/client-core/core";
import { SyncService } from "@hivekeep/proto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../server/src/auth/caller.ts";
import { callerForToken } from "../../server/src/auth/caller-store.ts";
import { createSession } from "../../server/src/auth/session-store.ts";
import type { Queryable } from "../../server/src/db/db.ts";
import type { Deps } from "../../server/src/rpc/deps.ts";
import { feedHead } from "../../server/src/store/feed.ts";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import { type Account, invite, loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { seedContext } from "../support/command-seed.ts";
import { databaseKinds, lastingDatabase } from "../support/databases.ts";
import { callOk } from "../support/fixtures.ts";
import { startMainProcess } from "../support/main-process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import {
  manualTiming,
  openSubscribe,
  watchedNotifier,
  watchedTiming,
} from "../support/subscribe-handler.ts";
import { streamReader } from "../support/sync.ts";

/** Longer than any of these tests: a stream that ends here did not wait for its heartbeat. */
const heartbeatMs = 60_000;

type Reader = ReturnType<typeof streamReader>;

/** Resolves once the stream has more than `n` messages, or has ended. */
const beyond = (reader: Reader, n: number) => reader.until(() => reader.got.length > n);

/** A change in the account's tenant: every stream of the tenant would poke it. */
async function write(db: Parameters<typeof writeTenant>[0], a: Account, name: string) {
  await writeTenant(db, a.organizationId, (w) =>
    w.apply(
      createApiary({ ...seedContext(), authorId: a.userId }, { name, address: "", lat: 0, lng: 0 })
        .changes,
    ),
  );
}

/** Each stream pokes a write (so it is open and listening), and goes on. */
async function pokedBy(readers: readonly Reader[], writing: () => Promise<void>) {
  const before = readers.map((r) => r.got.length);
  await writing();
  for (const [i, reader] of readers.entries()) {
    await beyond(reader, before[i] ?? 0);
    expect(reader.got.slice(before[i])).toEqual([expect.objectContaining({ heartbeat: false })]);
    expect(reader.ended).toBe(false);
  }
}

/**
 * After their credential ended, the streams end with unauthenticated before they poke the
 * write that follows (a stream that outlived its credential would poke it within a poke
 * interval), and none sent a heartbeat after its opening one.
 */
async function endsBeforePoking(readers: readonly Reader[], writing: () => Promise<void>) {
  const before = readers.map((r) => r.got.length);
  await writing();
  for (const [i, reader] of readers.entries()) {
    await beyond(reader, before[i] ?? 0);
    expect(reader.got.slice(before[i])).toEqual([]);
    expect(reader.ended).toBe(true);
    expect(reader.error).toMatchObject({ code: Code.Unauthenticated });
    expect(reader.got.filter((m) => m.heartbeat)).toEqual([reader.got[0]]);
  }
}

/**
 * A stream of the tenant from its feed's head (so it pokes only what comes next), once it is
 * open: up to date, its first message is the opening heartbeat.
 */
async function subscribedFrom(
  db: Queryable,
  organizationId: string,
  client: Client<typeof SyncService>,
  signal?: AbortSignal,
): Promise<Reader> {
  const head = (await feedHead(db, organizationId)) ?? 0;
  const reader = streamReader(
    client.subscribe({ cursor: head === 0 ? "" : String(head) }, { signal }),
  );
  expect(await reader.next()).toEqual({ cursor: "", heartbeat: true });
  return reader;
}

describe.each(databaseKinds)("Subscribe and ended credentials on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, loginEnv, { heartbeatMs, throttle: relaxedThrottle });
  });
  afterAll(async () => {
    await t?.stop();
  });
  // The streams that go on are closed after each test (the server's stop would wait for them).
  let streams = new AbortController();
  afterEach(() => {
    streams.abort();
    streams = new AbortController();
  });

  /** A stream of the account's tenant, as the token (the account's session by default). */
  const subscribed = (a: Account, token = a.token) =>
    subscribedFrom(t.server.db, a.organizationId, t.as(token).client(SyncService), streams.signal);

  it("Logout ends the session's stream at once; another session's stream goes on", async () => {
    const a = await signUp(t);
    const other = await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
    const mine = await subscribed(a);
    const theirs = await subscribed(a, other.sessionToken);
    await pokedBy([mine, theirs], () => write(t.server.db, a, "First"));
    await callOk(a.t, "AuthService/Logout", {});
    const still = theirs.got.length;
    await endsBeforePoking([mine], () => write(t.server.db, a, "Second"));
    // The other session's stream pokes that write, and goes on.
    await beyond(theirs, still);
    expect(theirs.got.slice(still)).toEqual([expect.objectContaining({ heartbeat: false })]);
    expect(theirs.ended).toBe(false);
    await callOk(t.as(other.sessionToken), "AuthService/Logout", {});
    await endsBeforePoking([theirs], () => write(t.server.db, a, "Third"));
  });

  it("removing a member ends their session's and their key's streams at once", async () => {
    const owner = await signUp(t);
    const inv = await invite(owner);
    const member = await signUp(t, { email: inv.email, invitationToken: inv.token });
    const { apiKey } = await callOk(member.t, "AuthService/CreateApiKey", { name: "tracker" });
    const session = await subscribed(member);
    const key = await subscribed(member, apiKey);
    const owners = await subscribed(owner);
    await pokedBy([session, key, owners], () => write(t.server.db, owner, "Before"));
    await callOk(owner.t, "AuthService/RemoveMember", { userId: member.userId });
    await pokedBy([owners], () =>
      endsBeforePoking([session, key], () => write(t.server.db, owner, "After")),
    );
  });

  it("revoking an API key ends its stream at once; the session's goes on", async () => {
    const a = await signUp(t);
    const { apiKey, key: created } = await callOk(a.t, "AuthService/CreateApiKey", {
      name: "scale",
    });
    const key = await subscribed(a, apiKey);
    const session = await subscribed(a);
    await pokedBy([key, session], () => write(t.server.db, a, "Weighed"));
    await callOk(a.t, "AuthService/RevokeApiKey", { id: created.id });
    await pokedBy([session], () =>
      endsBeforePoking([key], () => write(t.server.db, a, "Weighed again")),
    );
  });

  it("SwitchOrganization ends the stream of the session switched from", async () => {
    const a = await signUp(t);
    const elsewhere = await signUp(t, { organizationName: "Elsewhere" });
    const inv = await invite(elsewhere, "ROLE_MEMBER", a.email);
    await callOk(t, "AuthService/Login", {
      email: a.email,
      password: a.password,
      invitationToken: inv.token,
    });
    const stream = await subscribed(a);
    await pokedBy([stream], () => write(t.server.db, a, "Home"));
    await callOk(a.t, "AuthService/SwitchOrganization", {
      organizationId: elsewhere.organizationId,
    });
    await endsBeforePoking([stream], () => write(t.server.db, a, "Home again"));
  });

  it("an idle stream ends once its credential ended, without any timer firing", async () => {
    // The handler on its own, on its clock that never moves: only the notification can end it.
    // The user's other session has a stream too: the notification names the session that
    // ended, so that stream does not even check.
    const { db } = t.server;
    const a = await signUp(t);
    const other = await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
    const caller = await callerForToken(db, a.token);
    const otherCaller = await callerForToken(db, other.sessionToken);
    if (caller === undefined || otherCaller === undefined) throw new Error("a session is unknown");
    const clock = manualTiming({ heartbeatMs, pokeIntervalMs: 1_000 });
    const watched = watchedTiming(clock.timing);
    const heard = watchedNotifier(t.server.notifier);
    const deps = { db, notifier: heard.notifier } as unknown as Deps;
    const s = openSubscribe(deps, "", caller, watched.timing);
    const goesOn = openSubscribe(deps, "", otherCaller, watched.timing);
    // Up to date, each opens with a heartbeat, without waiting.
    for (const stream of [s.stream, goesOn.stream]) {
      expect((await stream.next()).value).toMatchObject({ heartbeat: true });
    }
    expect(watched.waits).toEqual([]);
    const waiting = watched.nextWait();
    // Handled at once: the stream ends while Logout is answered, before the test awaits it.
    const ended = s.stream.next().then(
      () => undefined,
      (err: unknown) => err,
    );
    // It waits for the feed, a heartbeat away (the session's end is a month away).
    expect(await waiting).toBe(heartbeatMs);
    const otherWaiting = watched.nextWait();
    const otherNext = goesOn.stream.next();
    expect(await otherWaiting).toBe(heartbeatMs);
    await callOk(a.t, "AuthService/Logout", {});
    expect(await ended).toMatchObject({ code: Code.Unauthenticated });
    expect(heard.ended).toBe(1);
    expect(clock.timing.now()).toBe(0);
    goesOn.end();
    expect(await otherNext).toEqual({ done: true, value: undefined });
    expect(heard.notifier.size()).toBe(0);
  });

  it("a session's stream ends when the session expires", async () => {
    // The stream's timer never waits past the session's end; at that end it checks the session
    // (here the database's clock is moved on instead of waiting: the session is made to end).
    const { db } = t.server;
    const a = await signUp(t);
    const ttlMs = 5_000;
    const session = await createSession(db, {
      organizationId: a.organizationId,
      userId: a.userId,
      ttlMs,
    });
    const caller = (await callerForToken(db, session.token)) as Caller;
    expect(caller.expiresInMs).toBeGreaterThan(0);
    expect(caller.expiresInMs).toBeLessThanOrEqual(ttlMs);
    const clock = manualTiming({ heartbeatMs, pokeIntervalMs: 1_000 });
    const watched = watchedTiming(clock.timing);
    const heard = watchedNotifier(t.server.notifier);
    const deps = { db, notifier: heard.notifier } as unknown as Deps;
    const s = openSubscribe(deps, "", caller, watched.timing);
    expect((await s.stream.next()).value).toMatchObject({ heartbeat: true });
    const waiting = watched.nextWait();
    const next = s.stream.next();
    const untilEnd = await waiting;
    expect(untilEnd).toBe(caller.expiresInMs);
    const credential = caller.credential as { tokenHash: string };
    await db.query("update sessions set expires_at = now() where token_hash = $1", [
      credential.tokenHash,
    ]);
    clock.advance(untilEnd);
    await expect(next).rejects.toMatchObject({ code: Code.Unauthenticated });
    expect(clock.timing.now()).toBe(untilEnd);
    expect(clock.timing.now()).toBeLessThan(heartbeatMs);
    expect(heard.ended).toBe(0);
    expect(heard.notifier.size()).toBe(0);
  });

  it("a stream kept busy by pokes still ends after Logout when the notification is lost", async () => {
    // The handler on its own, on this database, with its time on a clock the test moves: a
    // write comes every poke interval, well within the heartbeat interval, however slow the
    // machine. The notification of the Logout is lost, so the session is checked only before a
    // poke once a heartbeat interval has passed since the last check: the stream ends at the
    // first poke due then.
    const a = await signUp(t);
    const { db } = t.server;
    const caller = await callerForToken(db, a.token);
    if (caller === undefined) throw new Error("the new session is unknown");
    const shortBeatMs = 1_000;
    const pokeIntervalMs = 100;
    const clock = manualTiming({ heartbeatMs: shortBeatMs, pokeIntervalMs });
    const watched = watchedTiming(clock.timing);
    const heard = watchedNotifier(t.server.notifier, { loseCredentialNews: true });
    const deps = { db, notifier: heard.notifier } as unknown as Deps;
    const from = (await feedHead(db, a.organizationId)) ?? 0;
    const s = openSubscribe(deps, String(from), caller, watched.timing);
    // Up to date: the opening heartbeat, which checks nothing (the stream just began).
    expect((await s.stream.next()).value).toMatchObject({ heartbeat: true });
    const pokes: unknown[] = [];
    const cursors: string[] = [];
    let error: unknown;
    for (let i = 0; error === undefined && i < 20; i++) {
      const waiting = watched.nextWait();
      // Handled at once: the stream may end (Unauthenticated) while the write below is under
      // way, before the loop awaits it, and a rejection nobody handled yet fails the run.
      const next = s.stream.next().then(
        (r) => void pokes.push(r.value),
        (err: unknown) => {
          error = err;
        },
      );
      // It waits for the feed (a heartbeat is shortBeatMs away); a poke interval passes.
      expect(await waiting).toBe(shortBeatMs);
      clock.advance(pokeIntervalMs);
      await write(db, a, `Busy ${i}`);
      cursors.push(String(await feedHead(db, a.organizationId)));
      await next;
      if (i === 2) await callOk(a.t, "AuthService/Logout", {});
    }
    expect(error).toMatchObject({ code: Code.Unauthenticated });
    // The notification came and was lost.
    expect(heard.ended).toBe(1);
    // Ended at the write a heartbeat interval after the stream began (its last check); every
    // message before was the poke of its write.
    expect(clock.timing.now()).toBe(shortBeatMs);
    expect(pokes).toEqual(
      cursors.slice(0, -1).map((cursor) => expect.objectContaining({ cursor, heartbeat: false })),
    );
    expect(pokes).toHaveLength(shortBeatMs / pokeIntervalMs - 1);
    expect(heard.notifier.size()).toBe(0);
  });
});

describe.skipIf(!databaseKinds.includes("postgres"))(
  "Subscribe across two server processes",
  () => {
    it("removing a member on one process ends their stream on the other at once", async () => {
      // A: in this process, where the owner removes the member; B: `tsx server/src/main.ts` on
      // the same Postgres database, holding the member's stream (its heartbeat is 25 s away).
      const database = await lastingDatabase("postgres");
      const a = await startTestServer(
        "pglite",
        { ...loginEnv, ...database.env },
        { heartbeatMs, throttle: relaxedThrottle },
      );
      const b = await startMainProcess({ ...loginEnv, ...database.env });
      try {
        const owner = await signUp(a);
        const inv = await invite(owner);
        const member = await signUp(a, { email: inv.email, invitationToken: inv.token });
        const { apiKey } = await callOk(member.t, "AuthService/CreateApiKey", { name: "tracker" });
        const onB = createClient(
          SyncService,
          createConnectTransport({
            baseUrl: b.url,
            httpVersion: "1.1",
            interceptors: [
              (next) => (req) => {
                req.header.set("authorization", `Bearer ${apiKey}`);
                return next(req);
              },
            ],
          }),
        );
        const stream = await subscribedFrom(a.server.db, owner.organizationId, onB);
        await pokedBy([stream], () => write(a.server.db, owner, "Before"));
        await callOk(owner.t, "AuthService/RemoveMember", { userId: member.userId });
        await endsBeforePoking([stream], () => write(a.server.db, owner, "After"));
      } finally {
        b.child.kill("SIGTERM");
        await b.exited;
        await a.stop();
        await database.drop();
      }
    });
  },
);

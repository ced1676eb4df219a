/**
 * A Subscribe stream outlives the checks of its token at the start: when the
 * session is revoked (Logout, a removed member) or an API key is revoked, the
 * stream ends with unauthenticated at its next heartbeat (or, when pokes keep it
 * busy, at the first poke a heartbeat interval after its last check).
 */
import { Code } from "@connectrpc/connect";
import { createApiary } from "@hivekeep/client-core/core";
import { SyncService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerForToken } from "../../server/src/auth/caller-store.ts";
import type { Deps } from "../../server/src/rpc/deps.ts";
import { feedHead } from "../../server/src/store/feed.ts";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import { invite, loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { seedContext } from "../support/command-seed.ts";
import { databaseKinds } from "../support/databases.ts";
import { callOk } from "../support/fixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import {
  manualTiming,
  openSubscribe,
  watchedNotifier,
  watchedTiming,
} from "../support/subscribe-handler.ts";
import { streamReader } from "../support/sync.ts";

describe.each(databaseKinds)("Subscribe and revoked credentials on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, loginEnv, { heartbeatMs: 300, throttle: relaxedThrottle });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const beat = { cursor: "", heartbeat: true };
  const ends = async (reader: ReturnType<typeof streamReader>) => {
    await reader.closed();
    expect(reader.error).toMatchObject({ code: Code.Unauthenticated });
  };

  it("Logout ends the session's stream; another session's stream goes on", async () => {
    const a = await signUp(t);
    const other = await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
    const mine = streamReader(a.t.client(SyncService).subscribe({ cursor: "" }));
    const theirs = streamReader(
      t.as(other.sessionToken).client(SyncService).subscribe({ cursor: "" }),
    );
    expect(await mine.until((m) => m.heartbeat)).toEqual(beat);
    await callOk(a.t, "AuthService/Logout", {});
    await ends(mine);
    const before = theirs.got.length;
    expect(
      await theirs.until((m, i = theirs.got.indexOf(m)) => m.heartbeat && i >= before),
    ).toEqual(beat);
    expect(theirs.ended).toBe(false);
    await callOk(t.as(other.sessionToken), "AuthService/Logout", {});
    await ends(theirs);
  });

  it("a stream kept busy by pokes (no heartbeats) still ends after Logout", async () => {
    // The handler on its own, on this database, with its time on a clock the test moves: a
    // write comes every poke interval, well within the heartbeat interval, however slow the
    // machine. The session is checked before a poke once a heartbeat interval has passed since
    // the last check, so the stream ends at the first poke due then.
    const a = await signUp(t);
    const { db } = t.server;
    const caller = await callerForToken(db, a.token);
    if (caller === undefined) throw new Error("the new session is unknown");
    const heartbeatMs = 1_000;
    const pokeIntervalMs = 100;
    const clock = manualTiming({ heartbeatMs, pokeIntervalMs });
    const watched = watchedTiming(clock.timing);
    const heard = watchedNotifier(t.server.notifier);
    const deps = { db, notifier: heard.notifier } as unknown as Deps;
    const from = (await feedHead(db, a.organizationId)) ?? 0;
    const s = openSubscribe(deps, String(from), caller, watched.timing);
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
      // It waits for the feed (a heartbeat is heartbeatMs away); a poke interval passes.
      expect(await waiting).toBe(heartbeatMs);
      clock.advance(pokeIntervalMs);
      await writeTenant(db, a.organizationId, (w) =>
        w.apply(
          createApiary(
            { ...seedContext(), authorId: a.userId },
            { name: `Busy ${i}`, address: "", lat: 0, lng: 0 },
          ).changes,
        ),
      );
      cursors.push(String(await feedHead(db, a.organizationId)));
      await next;
      if (i === 2) await callOk(a.t, "AuthService/Logout", {});
    }
    expect(error).toMatchObject({ code: Code.Unauthenticated });
    // Ended at the write a heartbeat interval after the stream began (its last check); every
    // message before was the poke of its write.
    expect(clock.timing.now()).toBe(heartbeatMs);
    expect(pokes).toEqual(
      cursors.slice(0, -1).map((cursor) => expect.objectContaining({ cursor, heartbeat: false })),
    );
    expect(pokes).toHaveLength(heartbeatMs / pokeIntervalMs - 1);
    expect(heard.notifier.size()).toBe(0);
  });

  it("removing a member ends their key's stream", async () => {
    const owner = await signUp(t);
    const inv = await invite(owner);
    const member = await signUp(t, { email: inv.email, invitationToken: inv.token });
    const { apiKey } = await callOk(member.t, "AuthService/CreateApiKey", { name: "tracker" });
    const stream = streamReader(t.as(apiKey).client(SyncService).subscribe({ cursor: "" }));
    expect(await stream.until((m) => m.heartbeat)).toEqual(beat);
    await callOk(owner.t, "AuthService/RemoveMember", { userId: member.userId });
    await ends(stream);
  });
});

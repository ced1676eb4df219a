/**
 * A Subscribe stream outlives the checks of its token at the start: when the
 * session is revoked (Logout, a removed member) or an API key is revoked, the
 * stream ends with unauthenticated at its next heartbeat.
 */
import { Code } from "@connectrpc/connect";
import { SyncService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invite, loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { callOk, newApiary } from "../support/fixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { streamReader } from "../support/sync.ts";

describe.each(databaseKinds)("Subscribe and revoked credentials on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, loginEnv, { heartbeatMs: 300, throttle: relaxedThrottle });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const ends = async (reader: ReturnType<typeof streamReader>) => {
    for (let i = 0; i < 40 && !reader.ended; i++) await new Promise((r) => setTimeout(r, 100));
    expect(reader.ended).toBe(true);
    expect(reader.error).toMatchObject({ code: Code.Unauthenticated });
  };

  it("Logout ends the session's stream; another session's stream goes on", async () => {
    const a = await signUp(t);
    const other = await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
    const mine = streamReader(a.t.client(SyncService).subscribe({ cursor: "" }));
    const theirs = streamReader(
      t.as(other.sessionToken).client(SyncService).subscribe({ cursor: "" }),
    );
    expect(await mine.until((m) => m.heartbeat)).toBeTruthy();
    await callOk(a.t, "AuthService/Logout", {});
    await ends(mine);
    const before = theirs.got.length;
    expect(
      await theirs.until((m, i = theirs.got.indexOf(m)) => m.heartbeat && i >= before),
    ).toBeTruthy();
    expect(theirs.ended).toBe(false);
    await callOk(t.as(other.sessionToken), "AuthService/Logout", {});
    await ends(theirs);
  });

  it("a stream kept busy by pokes (no heartbeats) still ends after Logout", async () => {
    const a = await signUp(t);
    const writer = await callOk(t, "AuthService/Login", { email: a.email, password: a.password });
    const stream = streamReader(a.t.client(SyncService).subscribe({ cursor: "" }));
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing; i++) {
        await newApiary(t.as(writer.sessionToken), `Busy ${i}`);
        await new Promise((r) => setTimeout(r, 40));
      }
    })();
    try {
      expect(await stream.until((m) => !m.heartbeat)).toBeTruthy();
      await callOk(a.t, "AuthService/Logout", {});
      await ends(stream);
      // Busy: only pokes, never a heartbeat (pokes come at most one per interval, so the check
      // that ends it is the one before the next poke).
      expect(stream.got.some((m) => m.heartbeat)).toBe(false);
    } finally {
      writing = false;
      await writes;
    }
  });

  it("removing a member ends their key's stream", async () => {
    const owner = await signUp(t);
    const inv = await invite(owner);
    const member = await signUp(t, { email: inv.email, invitationToken: inv.token });
    const { apiKey } = await callOk(member.t, "AuthService/CreateApiKey", { name: "tracker" });
    const stream = streamReader(t.as(apiKey).client(SyncService).subscribe({ cursor: "" }));
    expect(await stream.until((m) => m.heartbeat)).toBeTruthy();
    await callOk(owner.t, "AuthService/RemoveMember", { userId: member.userId });
    await ends(stream);
  });
});

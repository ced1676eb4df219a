/**
 * Hosted mode: the device's session is revoked (Logout elsewhere, an expired session) while it
 * syncs in the background. Sync pauses with `unauthenticated`; every queued change is kept and
 * nothing reaches the network while the token stays the one refused. Once `getToken` gives a
 * new token (the user signed in again), the engine resumes by itself and pushes everything.
 */
import { Code } from "@connectrpc/connect";
import type { HivekeepClient } from "@hivekeep/client-core";
import { ApiaryService, InspectionService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { callOk } from "../support/fixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, expectConverged, Network, openDevice, settle } from "./harness.ts";

describe.each(databaseKinds)("a revoked session on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind, loginEnv, { throttle: relaxedThrottle });
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });

  it("pauses sync with nothing lost, and a new token resumes it", async () => {
    const account = await signUp(t);
    let token = account.token;
    const net = new Network(t.url);
    const a = await openDevice({
      net,
      getToken: async () => token,
      // The timer trigger notices the new token; short so the test does not wait long.
      intervalMs: 100,
      debounceMs: 10,
      random: () => 0,
    });
    open.push(a);
    a.sync.start();
    const apiaryId = (await a.apiaries.createApiary({ name: "Before" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "B1" })).hive?.id ?? "";
    await eventually(() => expect(a.sync.status).toMatchObject({ pending: 0, syncing: false }));

    // The session ends (signed out on another device).
    await callOk(account.t, "AuthService/Logout", {});
    const written: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await a.inspections.createInspection({ hiveId, note: `while revoked ${i}` });
      written.push(r.inspection?.id ?? "");
    }
    const queued = await a.db.outbox.count();
    expect(queued).toBeGreaterThanOrEqual(10);
    await eventually(() =>
      expect(a.sync.status).toMatchObject({
        paused: true,
        syncing: false,
        pending: queued,
        lastError: expect.objectContaining({ code: Code.Unauthenticated }),
      }),
    );
    const pending = a.sync.status.pending;

    // Paused: an explicit sync fails at once, without a request, and keeps everything.
    const pushes = net.pushes;
    await expect(a.sync.syncNow()).rejects.toMatchObject({ code: Code.Unauthenticated });
    expect(net.pushes).toBe(pushes);
    expect(a.sync.status.pending).toBe(pending);
    await a.apiaries.createApiary({ name: "Also while revoked" });

    // Signed in again: the next trigger (the timer) resumes sync by itself.
    const login = await callOk(t, "AuthService/Login", {
      email: account.email,
      password: account.password,
    });
    token = login.sessionToken;
    await eventually(() =>
      expect(a.sync.status).toMatchObject({ paused: false, pending: 0, syncing: false }),
    );
    const server = t.as(token);
    const listed = await server.client(InspectionService).listInspections({ hiveId });
    expect(listed.inspections.map((i) => i.id).sort()).toEqual([...written].sort());
    const apiaries = await server.client(ApiaryService).listApiaries({});
    expect(apiaries.apiaries.map((x) => x.name).sort()).toEqual(["Also while revoked", "Before"]);

    a.sync.stop();
    const b = await openDevice({ net: new Network(t.url), getToken: async () => token });
    open.push(b);
    await settle([a, b]);
    await expectConverged(server, [a, b]);
  });
});

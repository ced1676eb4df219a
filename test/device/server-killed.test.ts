/**
 * The server process is killed (SIGKILL) in the middle of a device's push loop and started
 * again on the same database. The device, syncing in the background with real timers, retries
 * by itself (backoff) and finishes: every write it had acknowledged before the kill is on the
 * server, and every change of its outbox is in the feed exactly once. No timing is asserted:
 * the test polls for the end state with generous limits.
 */
import type { ChildProcess } from "node:child_process";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import type { HivekeepClient } from "@hivekeep/client-core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { databaseKinds, lastingDatabase } from "../support/databases.ts";
import { startMainProcess as runServer } from "../support/main-process.ts";
import type { TestServer } from "../support/server.ts";
import { changeKey, eventually, feedCounts, Network, openDevice } from "./harness.ts";

/** Typed clients of a server process (what the feed helpers need). */
function clients(url: string): Pick<TestServer, "client"> {
  const transport = createConnectTransport({ baseUrl: url, httpVersion: "1.1" });
  return { client: (service) => createClient(service, transport) };
}

describe.each(databaseKinds)("the server killed in a device's push loop on %s", (kind) => {
  const children: ChildProcess[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(() => {
    for (const c of children) c.kill("SIGKILL");
  });
  afterAll(async () => {
    for (const fn of cleanup) await fn();
  });

  it("loses no acknowledged write, duplicates nothing, and resumes by itself", async () => {
    const database = await lastingDatabase(kind);
    cleanup.push(() => database.drop());
    let server = await runServer(database.env);
    children.push(server.child);

    const net = new Network(server.url);
    const client: HivekeepClient = await openDevice({ net, pushBatch: 20, random: () => 0 });
    cleanup.push(() => client.close());
    net.offline = true;
    const apiaryId = (await client.apiaries.createApiary({ name: "Killed" })).apiary?.id ?? "";
    const hiveId = (await client.hives.createHive({ apiaryId, name: "K1" })).hive?.id ?? "";
    for (let i = 0; i < 150; i++) {
      await client.inspections.createInspection({ hiveId, note: `k${i}` });
    }
    const queued = (await client.db.outbox.orderBy("seq").toArray()).map((e) =>
      changeKey(e.change),
    );
    expect(queued.length).toBeGreaterThan(300);

    // The fifth Push is in flight when the server dies.
    let pushes = 0;
    let killed: Promise<unknown> | undefined;
    net.intercept = async (url, _init, forward) => {
      if (url.endsWith(".SyncService/Push") && ++pushes === 5 && killed === undefined) {
        const response = forward();
        server.child.kill("SIGKILL");
        killed = server.exited;
        return response;
      }
      return forward();
    };
    net.offline = false;
    client.sync.start();
    await eventually(() => expect(killed).toBeDefined(), 120_000);
    await killed;
    // What the device holds as acknowledged now must survive.
    const left = new Set((await client.db.outbox.toArray()).map((e) => changeKey(e.change)));
    const acknowledged = queued.filter((k) => !left.has(k));
    expect(acknowledged.length).toBeGreaterThanOrEqual(4 * 20);
    expect(left.size).toBeGreaterThan(0);

    // Restarted on the same database (another port); the device is not told anything.
    server = await runServer(database.env);
    children.push(server.child);
    net.target = server.url;
    await eventually(
      () => expect(client.sync.status).toMatchObject({ pending: 0, syncing: false }),
      120_000,
    );
    client.sync.stop();

    const counts = await feedCounts(clients(server.url));
    for (const key of acknowledged) expect(counts.get(key), key).toBe(1);
    for (const key of queued) expect(counts.get(key), key).toBe(1);
    expect(client.sync.status.quarantined).toEqual([]);
  }, 300_000);
});

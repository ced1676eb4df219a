/**
 * The outbox reaches the server exactly once: a device that queued 500 writes offline pushes
 * them in batches and the feed holds each of its changes once; a push whose response is lost
 * (the server applied the batch, the device never heard) is pushed again and the server treats
 * it as a no-op; a batch larger than the server takes is split, not retried forever.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { HivekeepClient } from "@hivekeep/client-core";
import { InspectionService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { changeKey, expectConverged, feedCounts, Network, openDevice, settle } from "./harness.ts";

/** The outbox as change keys, in order. */
const outboxKeys = async (c: HivekeepClient) =>
  (await c.db.outbox.orderBy("seq").toArray()).map((e) => changeKey(e.change));

describe.each(databaseKinds)("device outbox on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });
  const device = async (net: Network, pushBatch?: number) => {
    const c = await openDevice({ net, ...(pushBatch ? { pushBatch } : {}) });
    open.push(c);
    return c;
  };

  it("pushes 500 writes queued offline, each exactly once", async () => {
    const net = new Network(t.url);
    const a = await device(net, 120);
    net.offline = true;
    const apiaryId = (await a.apiaries.createApiary({ name: "Far field" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "Far 1" })).hive?.id ?? "";
    for (let i = 0; i < 498; i++) {
      await a.inspections.createInspection({ hiveId, note: `visit ${i}`, frames: i % 10 });
    }
    const queued = await outboxKeys(a);
    expect(queued.length).toBeGreaterThanOrEqual(500);
    expect(new Set(queued).size).toBe(queued.length);
    await expect(a.sync.syncNow()).rejects.toMatchObject({ code: Code.Unavailable });
    expect(a.sync.status.pending).toBe(queued.length);

    net.offline = false;
    const pushesBefore = net.pushes;
    await a.sync.syncNow();
    expect(a.sync.status.pending).toBe(0);
    expect(net.pushes - pushesBefore).toBe(Math.ceil(queued.length / 120));
    const counts = await feedCounts(t);
    for (const key of queued) expect(counts.get(key), key).toBe(1);
    const listed = await t
      .client(InspectionService)
      .listInspections({ hiveId, page: { pageSize: 1 } });
    expect(listed.page?.total).toBe(498);

    const b = await device(new Network(t.url));
    await settle([a, b]);
    await expectConverged(t, [a, b]);
  });

  // Push refuses an OR-set removal of a tag the server never received (issue 27): the outbox
  // goes out in order, so a photo added and removed offline reaches it add first.
  it("pushes a photo added and removed offline add first, one change a Push: nothing is refused", async () => {
    const net = new Network(t.url);
    const a = await device(net, 1);
    net.offline = true;
    const apiaryId = (await a.apiaries.createApiary({ name: "Photo field" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "Ph 1" })).hive?.id ?? "";
    const inspectionId = (await a.inspections.createInspection({ hiveId })).inspection?.id ?? "";
    const photo = (s: string) => `data:image/png;base64,${s}`;
    for (const p of ["AAAA", "BBBB"]) {
      await a.inspections.addInspectionPhoto({ inspectionId, photo: photo(p) });
    }
    await a.inspections.removeInspectionPhoto({ inspectionId, photo: photo("AAAA") });
    net.offline = false;
    await a.sync.syncNow();
    expect(a.sync.status.pending).toBe(0);
    expect(a.sync.status.quarantined).toEqual([]);
    const stored = async () =>
      (await t.client(InspectionService).getInspection({ id: inspectionId })).inspection?.photoKeys;
    expect(await stored()).toEqual([photo("BBBB")]);

    // Another device removes the photo it pulled: the server holds the add it names.
    const b = await device(new Network(t.url));
    await b.sync.syncNow();
    await b.inspections.removeInspectionPhoto({ inspectionId, photo: photo("BBBB") });
    await b.sync.syncNow();
    expect(b.sync.status.quarantined).toEqual([]);
    expect(await stored()).toEqual([]);
    await settle([a, b]);
    await expectConverged(t, [a, b]);
  });

  it("pushes again a batch whose response was lost, and the server adds nothing", async () => {
    const net = new Network(t.url);
    const a = await device(net, 50);
    const apiaryId = (await a.apiaries.createApiary({ name: "Lost answers" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "L1" })).hive?.id ?? "";
    for (let i = 0; i < 120; i++) {
      await a.inspections.createInspection({ hiveId, note: `lost ${i}` });
    }
    const queued = await outboxKeys(a);

    // The second Push reaches the server, which applies it; its response never arrives.
    let pushes = 0;
    net.intercept = async (url, _init, forward) => {
      const response = await forward();
      if (url.endsWith(".SyncService/Push") && ++pushes === 2) {
        await response.arrayBuffer();
        throw new TypeError("fetch failed: connection reset");
      }
      return response;
    };
    const err = await a.sync.syncNow().then(
      () => undefined,
      (e) => ConnectError.from(e),
    );
    expect(err?.code).toBe(Code.Unavailable);
    // The first batch is acknowledged; the second is still queued although the server has it.
    const left = await outboxKeys(a);
    expect(left).toEqual(queued.slice(50));
    let counts = await feedCounts(t);
    for (const key of queued.slice(0, 100)) expect(counts.get(key), key).toBe(1);
    for (const key of queued.slice(100)) expect(counts.get(key), key).toBeUndefined();

    net.intercept = undefined;
    await a.sync.syncNow();
    expect(a.sync.status.pending).toBe(0);
    expect(a.sync.status.quarantined).toEqual([]);
    counts = await feedCounts(t);
    for (const key of queued) expect(counts.get(key), key).toBe(1);
    const b = await device(new Network(t.url));
    await settle([a, b]);
    await expectConverged(t, [a, b]);
  });
});

describe.each(databaseKinds)("device outbox against a small body limit on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind, { HIVEKEEP_MAX_BODY: "256KiB" });
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });

  it("splits a batch the server finds too large instead of retrying it forever", async () => {
    const net = new Network(t.url);
    const a = await openDevice({ net });
    open.push(a);
    const apiaryId = (await a.apiaries.createApiary({ name: "Photos" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "P1" })).hive?.id ?? "";
    const inspectionId = (await a.inspections.createInspection({ hiveId })).inspection?.id ?? "";
    // Ten photos of 60 KiB: 600 KiB in one batch of the default size.
    for (let i = 0; i < 10; i++) {
      const photo = `data:image/jpeg;base64,${String(i).repeat(60 * 1024)}`;
      await a.inspections.addInspectionPhoto({ inspectionId, photo });
    }
    const queued = await outboxKeys(a);
    const refused: number[] = [];
    net.intercept = async (url, _init, forward) => {
      const response = await forward();
      if (url.endsWith(".SyncService/Push") && response.status === 429) {
        refused.push(response.status);
      }
      return response;
    };
    // The server answers a body over its limit with resource_exhausted (in full, while it
    // drains the rest of the body), or a proxy by closing the connection (a network error to
    // the device): each attempt sends half the last batch, so a few attempts (the background
    // sync makes them after its backoff) get everything through.
    const failures: string[] = [];
    for (let attempt = 0; attempt < 8 && a.sync.status.pending > 0; attempt++) {
      await a.sync.syncNow().catch((e) => failures.push(ConnectError.from(e).message));
    }
    expect(refused.length, failures.join("; ")).toBeGreaterThan(0);
    expect(a.sync.status.pending).toBe(0);
    expect(a.sync.status.quarantined).toEqual([]);
    const counts = await feedCounts(t);
    for (const key of queued) expect(counts.get(key), key).toBe(1);
    const b = await openDevice({ net: new Network(t.url) });
    open.push(b);
    await settle([a, b]);
    await expectConverged(t, [a, b]);
  });
});

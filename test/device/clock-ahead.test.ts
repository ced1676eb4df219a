/**
 * A device whose clock runs two hours ahead (`now` injected into createHivekeepClient). Writes
 * it makes before it ever reached the server carry stamps the server refuses (more than 60 s
 * ahead); the engine learns the server's time, re-stamps them (an OR-set removal naming a
 * re-stamped add follows it) and pushes them again: accepted, and the replicas converge.
 * No refused stamp is left anywhere: not in a row, a photo tag, the outbox or the feed. Once the
 * device knows the server's time, its new writes are accepted on the first push.
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import { type Hlc, hlcMs, isTooFarAhead } from "@hivekeep/client-core/core";
import { InspectionService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { edited, expectConverged, feed, Network, openDevice, settle, stampsIn } from "./harness.ts";

const hours = 3_600_000;
const photo = (s: string) => `data:image/png;base64,${s}`;

describe.each(databaseKinds)("a device clock two hours ahead on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });

  it("re-stamps the writes the server refused, and the replicas converge", async () => {
    const aheadNet = new Network(t.url);
    const ahead = await openDevice({ net: aheadNet, now: () => Date.now() + 2 * hours });
    const other = await openDevice({ net: new Network(t.url) });
    open.push(ahead, other);

    // Before any contact: stamped with the wrong clock.
    const x = (await ahead.apiaries.createApiary({ name: "Ahead" })).apiary?.id ?? "";
    const h = (await ahead.hives.createHive({ apiaryId: x, name: "A1" })).hive?.id ?? "";
    const i = (await ahead.inspections.createInspection({ hiveId: h })).inspection?.id ?? "";
    await ahead.inspections.addInspectionPhoto({ inspectionId: i, photo: photo("AAAA") });
    await ahead.inspections.addInspectionPhoto({ inspectionId: i, photo: photo("BBBB") });
    await ahead.inspections.removeInspectionPhoto({ inspectionId: i, photo: photo("AAAA") });
    await ahead.queens.createQueen({ hiveId: h, year: 2025 });
    const refused = new Set((await ahead.db.outbox.toArray()).map((e) => e.change.hlc as string));
    expect([...refused].every((s) => isTooFarAhead(s as Hlc, Date.now()))).toBe(true);

    await ahead.sync.syncNow();
    expect(ahead.sync.status.pending).toBe(0);
    expect(ahead.sync.status.quarantined).toEqual([]);
    // Accepted under new stamps; the removal still removed the photo it named.
    const onServer = await t.client(InspectionService).getInspection({ id: i });
    expect(onServer.inspection?.photoKeys).toEqual([photo("BBBB")]);

    // Once the device knows the server's time, a new write goes through on the first push.
    await ahead.hives.updateHive({
      hive: edited((await ahead.hives.getHive({ id: h })).hive, { note: "later" }),
    });
    const pushes = aheadNet.pushes;
    await ahead.sync.syncNow();
    expect(aheadNet.pushes - pushes).toBe(1);

    // The other device writes too, then everyone syncs.
    await other.sync.syncNow();
    await other.inspections.addInspectionPhoto({ inspectionId: i, photo: photo("CCCC") });
    await settle([ahead, other]);
    await expectConverged(t, [ahead, other]);

    const limit = Date.now() + 60_000;
    for (const c of [ahead, other]) {
      const stamps = await stampsIn(c);
      expect(stamps.filter((s) => refused.has(s))).toEqual([]);
      expect(stamps.filter((s) => hlcMs(s) > limit)).toEqual([]);
    }
    const fed = await feed(t);
    expect(fed.filter((c) => refused.has(c.hlc))).toEqual([]);
  });

  it("re-stamps after the clock jumps ahead on a device that knew the server's time", async () => {
    let skewMs = 0;
    const net = new Network(t.url);
    const jumpy = await openDevice({ net, now: () => Date.now() + skewMs });
    const other = await openDevice({ net: new Network(t.url) });
    open.push(jumpy, other);
    const x = (await other.apiaries.createApiary({ name: "Jump" })).apiary?.id ?? "";
    const h = (await other.hives.createHive({ apiaryId: x, name: "J1" })).hive?.id ?? "";
    const i = (await other.inspections.createInspection({ hiveId: h })).inspection?.id ?? "";
    await other.inspections.addInspectionPhoto({ inspectionId: i, photo: photo("AAAA") });
    await settle([other, jumpy]);

    // The phone's clock is set two hours ahead; it edits rows it has from the server.
    skewMs = 2 * hours;
    const { hive } = await jumpy.hives.getHive({ id: h });
    await jumpy.hives.updateHive({ hive: edited(hive, { note: "after the jump" }) });
    await jumpy.inspections.removeInspectionPhoto({ inspectionId: i, photo: photo("AAAA") });
    await jumpy.inspections.addInspectionPhoto({ inspectionId: i, photo: photo("DDDD") });
    const refused = new Set((await jumpy.db.outbox.toArray()).map((e) => e.change.hlc as string));
    expect([...refused].every((s) => isTooFarAhead(s as Hlc, Date.now()))).toBe(true);

    await jumpy.sync.syncNow();
    expect(jumpy.sync.status.quarantined).toEqual([]);
    expect(jumpy.sync.status.pending).toBe(0);
    await settle([jumpy, other]);
    await expectConverged(t, [jumpy, other]);
    expect(
      (await t.client(InspectionService).getInspection({ id: i })).inspection?.photoKeys,
    ).toEqual([photo("DDDD")]);
    for (const c of [jumpy, other]) {
      expect((await stampsIn(c)).filter((s) => refused.has(s))).toEqual([]);
    }
  });
});

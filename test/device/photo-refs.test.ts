/**
 * Photos by reference on a device (core/photo-ref.ts, device/photos.ts; issue 29): a first sync
 * brings references, not photos; a photo is fetched when shown and kept; the photos of recent
 * visits are fetched ahead for use offline; a device's own photos stay in full (never merged
 * twice with their echo); photos are removed by photo or by reference alike.
 */
import { createHash } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HivekeepClient } from "@hivekeep/client-core";
import type { OrSetState } from "@hivekeep/client-core/core";
import { InspectionService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { expectConverged, Network, openDevice, settle } from "./harness.ts";

const ref = (dataUrl: string) =>
  `hkphoto:${createHash("sha256").update(dataUrl, "utf8").digest("base64url")}`;
const photo = (seed: string, kib: number) =>
  `data:image/jpeg;base64,${Buffer.alloc(kib * 768, seed).toString("base64")}`;
const day = 86_400_000;

describe.each(databaseKinds)("photos by reference on a device on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });
  const device = async (net = new Network(t.url)) => {
    const c = await openDevice({ net });
    open.push(c);
    return { c, net };
  };
  /** The photo set of an inspection row as the replica holds it. */
  const photoSet = async (c: HivekeepClient, id: string) =>
    (await c.db.table("inspections").get(id))?.values.photo_keys as OrSetState | undefined;
  /** Every GetPhoto call that went out, by network. */
  const countPhotoCalls = (net: Network) => {
    const calls = { n: 0 };
    net.intercept = (url, _init, forward) => {
      if (url.endsWith("/GetPhoto")) calls.n += 1;
      return forward();
    };
    return calls;
  };

  it("a new device pulls references, fetches a photo when shown, and keeps it for offline", async () => {
    const { c: a } = await device();
    const apiaryId = (await a.apiaries.createApiary({ name: "Refs" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "R1" })).hive?.id ?? "";
    const old = await a.inspections.createInspection({
      hiveId,
      date: timestampFromDate(new Date(Date.now() - 60 * day)),
      note: "old visit",
    });
    const recent = await a.inspections.createInspection({ hiveId, note: "this week" });
    const [oldId, recentId] = [old.inspection?.id ?? "", recent.inspection?.id ?? ""];
    const [p, q] = [photo("p", 300), photo("q", 200)];
    await a.inspections.addInspectionPhoto({ inspectionId: oldId, photo: p });
    await a.inspections.addInspectionPhoto({ inspectionId: recentId, photo: q });
    await settle([a]);
    // The device that took them holds them in full, once each, after its own echo came back.
    expect((await photoSet(a, oldId))?.adds.map((x) => x.value)).toEqual([p]);
    expect((await photoSet(a, recentId))?.adds.map((x) => x.value)).toEqual([q]);

    const net = new Network(t.url);
    const calls = countPhotoCalls(net);
    const { c: b } = await device(net);
    await b.sync.syncNow();
    // References in the replica, no photo in the rows.
    expect((await photoSet(b, oldId))?.adds.map((x) => x.value)).toEqual([ref(p)]);
    const got = await b.inspections.getInspection({ id: oldId });
    expect(got.inspection?.photoKeys).toEqual([ref(p)]);
    // The recent visit's photo is fetched ahead; the old one is not.
    expect(await b.photos.keepRecent()).toBeLessThanOrEqual(1);
    expect((await b.db.photos.toArray()).map((x) => x.ref)).toEqual([ref(q)]);
    // Kept for 90 days (a setting), the 60-day-old visit's photo comes too.
    await b.photos.keepRecent(90);
    expect((await b.db.photos.toArray()).map((x) => x.ref).sort()).toEqual([ref(p), ref(q)].sort());
    await b.db.photos.delete(ref(p));

    // Shown: fetched once, then from the device, offline too.
    expect(await b.photos.resolve(oldId, ref(p))).toEqual({ kind: "ready", src: p });
    const fetched = calls.n;
    net.offline = true;
    expect(await b.photos.resolve(oldId, ref(p))).toEqual({ kind: "ready", src: p });
    expect(await b.photos.resolve(recentId, ref(q))).toEqual({ kind: "ready", src: q });
    expect(calls.n).toBe(fetched);
    // A photo in full is shown as it is; one not on the device cannot be shown offline.
    expect(await b.photos.resolve(oldId, p)).toEqual({ kind: "ready", src: p });
    await b.db.photos.clear();
    expect(await b.photos.resolve(oldId, ref(p))).toEqual({ kind: "missing", reason: "offline" });
    net.offline = false;
    // Removed meanwhile: gone.
    await t.client(InspectionService).removeInspectionPhoto({ inspectionId: oldId, photo: p });
    expect(await b.photos.resolve(oldId, ref(p))).toEqual({ kind: "missing", reason: "gone" });
    await settle([a, b]);
    await expectConverged(t, [a, b]);
  });

  it("a backup made on the device carries the photos, fetched; offline without them it fails", async () => {
    const { c: a } = await device();
    const apiaryId = (await a.apiaries.createApiary({ name: "Backup" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "B1" })).hive?.id ?? "";
    const id = (await a.inspections.createInspection({ hiveId })).inspection?.id ?? "";
    const p = photo("b", 100);
    await a.inspections.addInspectionPhoto({ inspectionId: id, photo: p });
    await settle([a]);
    const net = new Network(t.url);
    const { c: b } = await device(net);
    await b.sync.syncNow();
    await b.db.photos.clear();
    const backup = async () => {
      let text = "";
      for await (const part of b.transfer.exportBackup({})) text += part.chunk;
      return JSON.parse(text);
    };
    net.offline = true;
    await expect(backup()).rejects.toThrow(/not on this device/);
    net.offline = false;
    const file = await backup();
    expect(file.records.inspection.find((r: { id: string }) => r.id === id).photo_keys).toEqual([
      p,
    ]);
  });

  it("removes a photo held by reference, by its reference or by the photo itself", async () => {
    const { c: a } = await device();
    const apiaryId = (await a.apiaries.createApiary({ name: "Removals" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "R2" })).hive?.id ?? "";
    const id = (await a.inspections.createInspection({ hiveId })).inspection?.id ?? "";
    const [p, q] = [photo("1", 50), photo("2", 50)];
    for (const x of [p, q]) await a.inspections.addInspectionPhoto({ inspectionId: id, photo: x });
    await settle([a]);
    const { c: b } = await device();
    await b.sync.syncNow();
    // Adding a photo the device holds by reference changes nothing (it is there).
    const before = await b.db.outbox.count();
    await b.inspections.addInspectionPhoto({ inspectionId: id, photo: p });
    expect(await b.db.outbox.count()).toBe(before);
    await b.inspections.removeInspectionPhoto({ inspectionId: id, photo: ref(p) });
    await b.inspections.removeInspectionPhoto({ inspectionId: id, photo: q });
    await settle([b, a]);
    const stored = await t.client(InspectionService).getInspection({ id });
    expect(stored.inspection?.photoKeys).toEqual([]);
    expect(b.sync.status.quarantined).toEqual([]);
    await expectConverged(t, [a, b]);
  });

  it("two devices that add the same photo offline each list it once, in full, as the server does", async () => {
    const { c: a, net: netA } = await device();
    const { c: b, net: netB } = await device();
    const apiaryId = (await a.apiaries.createApiary({ name: "Twice" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "T1" })).hive?.id ?? "";
    const id = (await a.inspections.createInspection({ hiveId })).inspection?.id ?? "";
    await settle([a, b]);
    const p = photo("t", 50);
    netA.offline = true;
    netB.offline = true;
    await a.inspections.addInspectionPhoto({ inspectionId: id, photo: p });
    await b.inspections.addInspectionPhoto({ inspectionId: id, photo: p });
    netA.offline = false;
    netB.offline = false;
    await settle([a, b]);
    // Two adds (two tags) of one photo: each device took the other's in full.
    for (const c of [a, b]) {
      expect((await photoSet(c, id))?.adds.map((x) => x.value)).toEqual([p, p]);
      expect((await c.inspections.getInspection({ id })).inspection?.photoKeys).toEqual([p]);
    }
    await expectConverged(t, [a, b]);
  });
});

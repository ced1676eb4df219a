/**
 * Quarantine with a realistic refusal: the server's database is replaced by an empty one (a
 * restore, a re-install) while a device has offline writes about rows only the old database
 * had. The device's cursor is refused and it pulls again from the start; the server refuses the
 * writes about the vanished apiary and hive (scope not writable, unknown hive) and the device
 * sets exactly those aside with the server's reasons while its other writes sync. Once the old
 * rows are restored, a retried change goes through; a discarded one takes its row back to the
 * server's version with the device's other pending change to it still applied.
 *
 * (An apiary deleted on the server meanwhile is no refusal: tombstoned rows count as existing,
 * so an offline write about them stays valid — push-facts.ts.)
 */
import { Code } from "@connectrpc/connect";
import type { HivekeepClient } from "@hivekeep/client-core";
import { HiveService, SyncService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { edited, expectConverged, feed, Network, openDevice, settle } from "./harness.ts";

describe.each(databaseKinds)("device quarantine on %s", (kind) => {
  let before: TestServer;
  let after: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    before = await startTestServer(kind);
    after = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await before?.stop();
    await after?.stop();
  });

  it("sets refused changes aside with their reasons, syncs the rest, retries and discards", async () => {
    const net = new Network(before.url);
    const a = await openDevice({ net });
    open.push(a);
    const x = (await a.apiaries.createApiary({ name: "Old home" })).apiary?.id ?? "";
    const hive = (await a.hives.createHive({ apiaryId: x, name: "Old 1", note: "as confirmed" }))
      .hive;
    const h = hive?.id ?? "";
    await a.inspections.createInspection({ hiveId: h, note: "confirmed visit" });
    await a.sync.syncNow();

    // The server now runs on an empty database; the device does not know yet.
    net.target = after.url;
    const i1 = (await a.inspections.createInspection({ hiveId: h, note: "offline visit" }))
      .inspection?.id;
    await a.hives.updateHive({ hive: edited(hive, { note: "offline note" }) });
    const y = (await a.apiaries.createApiary({ name: "New home" })).apiary?.id ?? "";
    const h2 = (await a.hives.createHive({ apiaryId: y, name: "New 1" })).hive?.id ?? "";

    await a.sync.syncNow();
    const held = a.sync.status.quarantined;
    // The inspection, its event and the hive edit: all about rows the server no longer has.
    expect(held.map((q) => `${q.change.entity}/${q.change.entityId}`).sort()).toEqual(
      [`inspection/${i1}`, `hive/${h}`, expect.stringMatching(/^event\//)].sort(),
    );
    for (const q of held) {
      expect(q.code).toBe("permission_denied");
      expect(q.reason).toContain(`scope ${x} is not an apiary the caller can write`);
    }
    expect(held.find((q) => q.change.entity === "inspection")?.reason).toContain(
      `hive_id references unknown hive ${h}`,
    );
    // Everything else synced, and the device pulled the new feed from its start.
    expect(a.sync.status.pending).toBe(0);
    const s = after.client(HiveService);
    expect((await s.getHive({ id: h2 })).hive?.apiaryId).toBe(y);
    await expect(s.getHive({ id: h })).rejects.toMatchObject({ code: Code.NotFound });
    // Quarantined changes stay applied on the device.
    expect((await a.inspections.getInspection({ id: i1 ?? "" })).inspection?.note).toBe(
      "offline visit",
    );
    expect((await a.hives.getHive({ id: h })).hive?.note).toBe("offline note");

    // The fix: the old rows are restored (the old database's feed pushed to the new server).
    await after.client(SyncService).push({ changes: await feed(before) });
    await a.sync.syncNow();
    expect(a.sync.status.quarantined).toHaveLength(3);

    // Retry the inspection and its event: accepted now.
    for (const q of held.filter((q) => q.change.entity !== "hive")) await a.sync.retry(q.id);
    expect(a.sync.status.quarantined).toHaveLength(1);
    await a.sync.syncNow();
    expect(a.sync.status.quarantined).toHaveLength(1);
    expect(
      (await after.client(HiveService).getHive({ id: h })).hive?.note,
      "the restored hive",
    ).toBe("as confirmed");
    const onServer = await feed(after);
    expect(onServer.some((c) => c.entity === "inspection" && c.entityId === i1)).toBe(true);

    // Discard the hive edit while another change to the hive (a move) is pending: the hive
    // shows the server's note again, and still the move.
    await a.hives.relocateHive({ id: h, targetApiaryId: y });
    const edit = a.sync.status.quarantined[0];
    expect(edit?.change.entity).toBe("hive");
    await a.sync.discard(edit?.id ?? 0);
    expect(a.sync.status.quarantined).toEqual([]);
    expect((await a.hives.getHive({ id: h })).hive).toMatchObject({
      note: "as confirmed",
      apiaryId: y,
    });
    await a.sync.syncNow();
    expect((await s.getHive({ id: h })).hive).toMatchObject({ note: "as confirmed", apiaryId: y });

    const b = await openDevice({ net: new Network(after.url) });
    open.push(b);
    await settle([a, b]);
    await expectConverged(after, [a, b], { hive: [h, h2] });
  });

  // Issue 27: Push refuses a photo add past 20 stored photos, and a removal of a tag the server
  // never received. A photo added offline to an inspection another device filled meanwhile is
  // set aside; removing it on the device names that refused add's tag, so it is set aside too.
  it("sets aside a photo add past the cap, and then the removal of that photo; discarding both settles", async () => {
    const a = await openDevice({ net: new Network(before.url) });
    const b = await openDevice({ net: new Network(before.url) });
    open.push(a, b);
    const apiaryId = (await a.apiaries.createApiary({ name: "Photo cap" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId, name: "Cap 1" })).hive?.id ?? "";
    const inspectionId = (await a.inspections.createInspection({ hiveId })).inspection?.id ?? "";
    await a.sync.syncNow();
    await b.sync.syncNow();
    const photo = (s: string) => `data:image/png;base64,${s}`;
    const late = photo("LATE");
    await a.inspections.addInspectionPhoto({ inspectionId, photo: late });
    for (let i = 0; i < 20; i++) {
      await b.inspections.addInspectionPhoto({ inspectionId, photo: photo(`B${i}`) });
    }
    await b.sync.syncNow();

    await a.sync.syncNow();
    const [add, ...none] = a.sync.status.quarantined;
    expect(none).toEqual([]);
    expect(add?.reason).toContain("inspection.photo_keys holds at most 20 elements");
    // Set aside, it still shows on the device; removing it names the refused add's tag.
    const shown = async () =>
      (await a.inspections.getInspection({ id: inspectionId })).inspection?.photoKeys ?? [];
    expect(await shown()).toContain(late);
    await a.inspections.removeInspectionPhoto({ inspectionId, photo: late });
    await a.sync.syncNow();
    const removal = a.sync.status.quarantined.find((q) => q.id !== add?.id);
    expect(removal?.reason).toContain("is not the tag of an add this set received");
    expect(await shown()).not.toContain(late);

    for (const q of a.sync.status.quarantined) await a.sync.discard(q.id);
    expect(a.sync.status.quarantined).toEqual([]);
    expect(await shown()).toHaveLength(20);
    await settle([a, b]);
    await expectConverged(before, [a, b]);
  });
});

/**
 * Notices of overridden work (issue 25) with real device clients and the real server: a device
 * that worked offline on what another device deleted, or wrote a column another device wrote
 * later, learns of it after it syncs; the other device, whose write won, is told nothing.
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import { type Hlc, hlcMs, holdingApiaryId } from "@hivekeep/client-core/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { edited, expectConverged, Network, openDevice, settle } from "./harness.ts";

describe.each(databaseKinds)("device notices on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });

  async function twoDevices() {
    const list = [];
    for (let i = 0; i < 2; i++) {
      const net = new Network(t.url);
      const client = await openDevice({ net });
      open.push(client);
      list.push({ client, net });
    }
    const [a, b] = list;
    if (!a || !b) throw new Error("no devices");
    return { a, b };
  }

  it("A inspects and moves offline a hive B deletes: A is told of both, B of nothing", async () => {
    const { a, b } = await twoDevices();
    const x = (await a.client.apiaries.createApiary({ name: "Home" })).apiary?.id ?? "";
    const y = (await a.client.apiaries.createApiary({ name: "Heath" })).apiary?.id ?? "";
    const hive = (await a.client.hives.createHive({ apiaryId: x, name: "Linden" })).hive?.id ?? "";
    await settle([a.client, b.client]);

    a.net.offline = true;
    const inspection = (await a.client.inspections.createInspection({ hiveId: hive, note: "calm" }))
      .inspection?.id;
    await a.client.hives.relocateHive({ id: hive, targetApiaryId: y });
    await b.client.hives.deleteHive({ id: hive });
    await b.client.sync.syncNow();
    a.net.offline = false;
    await settle([a.client, b.client]);

    const notices = await a.client.notices.list();
    expect(notices.map((n) => [n.key, n.kind]).sort()).toEqual([
      [`hive/${hive}`, "deleted"],
      [`inspection/${inspection}`, "orphaned"],
    ]);
    const hiveNotice = notices.find((n) => n.key === `hive/${hive}`);
    expect(hiveNotice).toMatchObject({ record: { label: "Linden" }, mine: { apiary_id: y } });
    expect(notices.find((n) => n.kind === "orphaned")?.cause).toMatchObject({
      entity: "hive",
      id: hive,
      label: "Linden",
    });
    expect(await b.client.notices.list()).toEqual([]);
    // The inspection stays a record on both devices and the server.
    expect(
      (await a.client.inspections.getInspection({ id: inspection ?? "" })).inspection?.note,
    ).toBe("calm");
    await expectConverged(t, [a.client, b.client]);
    await a.client.notices.dismiss(`hive/${hive}`);
    expect((await a.client.notices.list()).map((n) => n.kind)).toEqual(["orphaned"]);
  });

  it("a hive created offline in an apiary deleted meanwhile moves to the holding apiary; its creator is told", async () => {
    const { a, b } = await twoDevices();
    const z = (await a.client.apiaries.createApiary({ name: "Moor" })).apiary?.id ?? "";
    await settle([a.client, b.client]);
    a.net.offline = true;
    const hive = (await a.client.hives.createHive({ apiaryId: z, name: "Offline" })).hive?.id ?? "";
    await b.client.apiaries.deleteApiary({ id: z });
    await b.client.sync.syncNow();
    a.net.offline = false;
    await settle([a.client, b.client]);

    const held = (await a.client.hives.getHive({ id: hive })).hive;
    expect(held?.apiaryId).toBe(holdingApiaryId(z));
    const holding = await a.client.apiaries.getApiary({ id: holdingApiaryId(z) });
    expect(holding.apiary?.name).toBe("Moor (restored)");
    const [notice] = await a.client.notices.list();
    expect(notice).toMatchObject({
      key: `hive/${hive}`,
      record: { label: "Offline" },
      cause: { entity: "apiary", id: z, label: "Moor" },
    });
    expect(await b.client.notices.list()).toEqual([]);
    await expectConverged(t, [a.client, b.client]);
  });

  it("a column A wrote offline that lost to B's later write is noticed with both values", async () => {
    const { a, b } = await twoDevices();
    const x = (await a.client.apiaries.createApiary({ name: "Orchard" })).apiary?.id ?? "";
    const hive = (await a.client.hives.createHive({ apiaryId: x, name: "Clover" })).hive;
    await settle([a.client, b.client]);
    a.net.offline = true;
    await a.client.hives.updateHive({ hive: edited(hive, { note: "from A" }) });
    // B writes later by its own clock: each device's clock is corrected by the offset it
    // measured, and two measurements differ by a few milliseconds.
    const aRow = await a.client.db.table("hives").get(hive?.id ?? "");
    const aMs = hlcMs(aRow.clock.note as Hlc);
    await vi.waitUntil(() => b.client.now().getTime() > aMs, { timeout: 10_000, interval: 1 });
    const onB = (await b.client.hives.getHive({ id: hive?.id ?? "" })).hive;
    await b.client.hives.updateHive({ hive: edited(onB, { note: "from B" }) });
    await b.client.sync.syncNow();
    a.net.offline = false;
    await settle([a.client, b.client]);

    expect(await a.client.notices.list()).toMatchObject([
      {
        key: `hive/${hive?.id}`,
        kind: "overwritten",
        record: { label: "Clover" },
        mine: { note: "from A" },
        won: { note: "from B" },
      },
    ]);
    expect(await b.client.notices.list()).toEqual([]);
    await expectConverged(t, [a.client, b.client]);
  });
});

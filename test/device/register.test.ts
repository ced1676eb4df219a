/**
 * The treatment register's trail travels through sync (issue 26): two real devices
 * (fake-indexeddb) and the real server. Both devices correct the same treatment offline (A the
 * dose, B the supplier) and A deletes another; after sync the timeline still has one event for
 * the corrected treatment, and the register answers the same on the server and on each device
 * (offline, from its replica): every version with its author, and the deleted entry with who
 * deleted it and when.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HivekeepClient } from "@hivekeep/client-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { edited, Network, openDevice, serverServices, settle } from "./harness.ts";

describe.each(databaseKinds)("the treatment register across devices on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });

  it("keeps both offline corrections and a delete in the register everywhere, one live event", async () => {
    const devices = [];
    for (let i = 0; i < 2; i++) {
      const net = new Network(t.url);
      const client = await openDevice({ net });
      open.push(client);
      devices.push({ client, net });
    }
    const [A, B] = devices;
    if (!A || !B) throw new Error("no devices");
    const a = A.client;
    const b = B.client;
    const home = (await a.apiaries.createApiary({ name: "Home" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId: home, name: "H1" })).hive?.id ?? "";
    const date = timestampFromDate(new Date("2025-09-01T08:00:00Z"));
    const treatment = (
      await a.treatments.createTreatment({ hiveId, product: "OA", dose: "30 ml", date })
    ).treatment;
    const wrong = (await a.treatments.createTreatment({ hiveId, product: "Wrong", date }))
      .treatment;
    await settle([a, b]);
    A.net.offline = true;
    B.net.offline = true;

    await a.treatments.updateTreatment({ treatment: edited(treatment, { dose: "50 ml" }) });
    await a.treatments.deleteTreatment({ id: wrong?.id ?? "" });
    await b.treatments.updateTreatment({ treatment: edited(treatment, { supplier: "Apotheke" }) });

    A.net.offline = false;
    B.net.offline = false;
    await settle([a, b]);

    const s = serverServices(t);
    const events = (await s.events.listEvents({ hiveId, limit: 1000 })).events;
    expect(events.filter((e) => e.refId === treatment?.id)).toHaveLength(1);
    const onServer = await s.treatments.getTreatmentRegister({ year: 2025 });
    const [corrected, deleted] = onServer.entries;
    expect(corrected?.treatment).toMatchObject({ dose: "50 ml", supplier: "Apotheke" });
    expect(corrected?.versions.map((v) => [v.treatment?.dose, v.treatment?.supplier])).toEqual(
      expect.arrayContaining([
        ["30 ml", ""],
        ["50 ml", ""],
        ["30 ml", "Apotheke"],
      ]),
    );
    expect(corrected?.versions).toHaveLength(3);
    expect(deleted).toMatchObject({ deleted: true, deletedBy: a.userId });
    expect(deleted?.treatment?.product).toBe("Wrong");
    for (const c of [a, b]) {
      const local = await c.treatments.getTreatmentRegister({ year: 2025 });
      expect(local).toEqual(onServer);
    }
  });
});

/**
 * Corrections made offline (issue 25) travel through sync: two real devices (fake-indexeddb)
 * and the real server. A corrects and deletes records offline (UpdateInspection with a new
 * date, DeleteInspection, UpdateTreatment, DeleteTreatment, UpdateTask, DeleteTask, DeleteQueen)
 * while B edits some of the same records; after sync every device holds the same rows, nothing
 * is pending or rejected (Push accepts every change the new commands write: event tombstones,
 * new events, moved scopes), and the devices' services answer what the server's answer.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HivekeepClient } from "@hivekeep/client-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { edited, expectConverged, Network, openDevice, serverServices, settle } from "./harness.ts";

describe.each(databaseKinds)("corrections made offline on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });

  it.each([
    ["A then B", [0, 1]],
    ["B then A", [1, 0]],
  ])("update and delete offline, then sync, converge (%s)", async (_name, order) => {
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
    const heath = (await a.apiaries.createApiary({ name: "Heath" })).apiary?.id ?? "";
    const hiveId = (await a.hives.createHive({ apiaryId: home, name: "H1" })).hive?.id ?? "";
    const when = (iso: string) => timestampFromDate(new Date(iso));
    const queen = async (year: number, iso: string) =>
      (
        await a.queens.createQueen({
          hiveId,
          year,
          introducedAt: when(iso),
        })
      ).queen?.id ?? "";
    const q1 = await queen(2024, "2024-05-01T00:00:00Z");
    const q2 = await queen(2025, "2025-06-01T00:00:00Z");
    const typo = (
      await a.inspections.createInspection({
        hiveId,
        note: "tpyo",
        date: when("2025-08-01T00:00:00Z"),
      })
    ).inspection;
    const wrong = (await a.inspections.createInspection({ hiveId, note: "wrong hive" })).inspection;
    const treatment = (await a.treatments.createTreatment({ hiveId, product: "OA" })).treatment;
    const spare = (await a.treatments.createTreatment({ hiveId, product: "Twice" })).treatment;
    const task = (await a.tasks.createTask({ title: "Feed", hiveId })).task;
    const gone = (await a.tasks.createTask({ title: "Typo task", hiveId })).task;
    await settle([a, b]);
    A.net.offline = true;
    B.net.offline = true;

    // A: corrects and removes.
    await a.inspections.updateInspection({
      inspection: edited(typo, { note: "typo", date: when("2024-08-01T00:00:00Z") }),
    });
    await a.inspections.deleteInspection({ id: wrong?.id ?? "" });
    await a.treatments.updateTreatment({
      treatment: edited(treatment, { product: "Oxalic acid" }),
    });
    await a.treatments.deleteTreatment({ id: spare?.id ?? "" });
    await a.tasks.updateTask({
      task: edited(task, { title: "Feed syrup", hiveId: "", apiaryId: heath }),
    });
    await a.tasks.deleteTask({ id: gone?.id ?? "" });
    await a.queens.deleteQueen({ id: q2 });
    // B: edits the same records meanwhile.
    await b.inspections.updateInspection({ inspection: edited(typo, { weightKg: 41 }) });
    await b.treatments.updateTreatment({ treatment: edited(treatment, { dose: "50 ml" }) });
    await b.tasks.setTaskDone({ id: task?.id ?? "", done: true });

    A.net.offline = false;
    B.net.offline = false;
    const clients = [a, b];
    for (const i of order) await clients[i]?.sync.syncNow();
    await settle(clients);
    await expectConverged(t, clients, {
      inspection: [wrong?.id ?? ""],
      queen: [q1, q2],
      task: [gone?.id ?? ""],
    });

    const s = serverServices(t);
    const inspection = (await s.inspections.getInspection({ id: typo?.id ?? "" })).inspection;
    // A's note and date (re-frozen to q1, the queen of 2024, the only one left), B's weight.
    expect(inspection).toMatchObject({ note: "typo", weightKg: 41, queenId: q1 });
    const tr = (await s.treatments.getTreatment({ id: treatment?.id ?? "" })).treatment;
    expect(tr).toMatchObject({ product: "Oxalic acid", dose: "50 ml" });
    const t2 = (await s.tasks.getTask({ id: task?.id ?? "" })).task;
    expect(t2).toMatchObject({ title: "Feed syrup", apiaryId: heath, hiveId: "", done: true });
    const queens = (await s.queens.listQueens({ hiveId })).queens;
    expect(queens.map((q) => [q.id, q.active])).toEqual([[q1, true]]);
    const events = (await s.events.listEvents({ hiveId, limit: 1000 })).events;
    // One event per record left, each naming what its record names now.
    for (const id of [typo?.id, treatment?.id]) {
      expect(
        events.filter((e) => e.refId === id),
        id,
      ).toHaveLength(1);
    }
    expect(events.filter((e) => e.refId === wrong?.id || e.refId === spare?.id)).toEqual([]);
    expect(events.find((e) => e.refId === typo?.id)?.queenId).toBe(q1);
    expect(events.find((e) => e.refId === treatment?.id)?.title).toBe("Oxalic acid");
  });
});

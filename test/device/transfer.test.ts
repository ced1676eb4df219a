/**
 * An import made on a device, offline, reaches every device (issue 26): a backup exported from
 * one server is imported on device A with no signal; once online, Push accepts every change the
 * plan wrote (tombstoned hive, photos, events, personal task), device B pulls them, and the
 * server's export then holds the same records as the file.
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import { TransferService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { callOk } from "../support/fixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { expectConverged, Network, openDevice, settle } from "./harness.ts";

const png = "data:image/png;base64,iVBORw0KGgo";

async function exportRecords(
  chunks: AsyncIterable<{ chunk: string }>,
): Promise<{ text: string; records: Record<string, { id: string }[]> }> {
  let text = "";
  for await (const m of chunks) text += m.chunk;
  const records: Record<string, { id: string }[]> = JSON.parse(text).records;
  const sorted = Object.fromEntries(
    Object.entries(records).map(([e, rows]) => [
      e,
      [...rows].sort((a, b) => (a.id < b.id ? -1 : 1)),
    ]),
  );
  return { text, records: sorted };
}

describe.each(databaseKinds)("an import on a device, offline, on %s", (kind) => {
  let source: TestServer;
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    source = await startTestServer(kind);
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await source?.stop();
    await t?.stop();
  });

  it("reaches the server and every other device", async () => {
    const apiaryId = (await callOk(source, "ApiaryService/CreateApiary", { name: "Home" })).apiary
      .id;
    const hive = async (name: string) =>
      (await callOk(source, "HiveService/CreateHive", { apiaryId, name })).hive.id;
    const kept = await hive("Kept");
    const gone = await hive("Gone");
    await callOk(source, "QueenService/CreateQueen", { hiveId: kept, year: 2025 });
    const inspectionId = (
      await callOk(source, "InspectionService/CreateInspection", {
        hiveId: gone,
        note: "last look",
      })
    ).inspection.id;
    await callOk(source, "InspectionService/AddInspectionPhoto", { inspectionId, photo: png });
    await callOk(source, "TreatmentService/CreateTreatment", { hiveId: kept, product: "Thymol" });
    await callOk(source, "HarvestService/CreateHarvest", { hiveId: kept, amountKg: 8 });
    await callOk(source, "TaskService/CreateTask", { title: "Personal" });
    await callOk(source, "HiveService/DeleteHive", { id: gone });
    const file = await exportRecords(source.client(TransferService).exportBackup({}));

    const A = { net: new Network(t.url) };
    const B = { net: new Network(t.url) };
    const a = await openDevice(A);
    const b = await openDevice(B);
    open.push(a, b);
    A.net.offline = true;
    const imported = await a.transfer.importRecords({ content: file.text });
    expect(imported.written).toBe(true);
    expect(await a.db.outbox.count()).toBeGreaterThan(0);

    A.net.offline = false;
    await settle([a, b]);
    await expectConverged(t, [a, b], { hive: [gone], inspection: [inspectionId] });
    expect(a.sync.status.quarantined).toEqual([]);
    const again = await exportRecords(t.client(TransferService).exportBackup({}));
    expect(again.records).toEqual(file.records);
    const fromB = await exportRecords(b.transfer.exportBackup({}));
    expect(fromB.records).toEqual(file.records);
  });
});

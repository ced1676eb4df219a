/**
 * TransferService in hosted mode (issue 26): a file naming another tenant's records is refused
 * and writes nothing, an organization's backup restores into another organization as a copy,
 * and a demo session may export but not import.
 */
import { TransferService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { callOk, expectError, pullAll, useTestServer } from "../support/fixtures.ts";
import type { TestServer } from "../support/server.ts";

async function exportText(t: TestServer): Promise<string> {
  let text = "";
  for await (const m of t.client(TransferService).exportBackup({})) text += m.chunk;
  return text;
}

describe.each(databaseKinds)("TransferService between tenants on %s", (kind) => {
  const t = useTestServer(
    kind,
    { ...loginEnv, HIVEKEEP_DEMO: "true" },
    { throttle: relaxedThrottle },
  );

  it("refuses a file that refers to another tenant's records, and copies a whole backup", async () => {
    const a = await signUp(t, { organizationName: "A" });
    const b = await signUp(t, { organizationName: "B" });
    const apiaryId = (await callOk(a.t, "ApiaryService/CreateApiary", { name: "A's" })).apiary.id;
    const hiveId = (await callOk(a.t, "HiveService/CreateHive", { apiaryId, name: "A1" })).hive.id;
    await callOk(a.t, "InspectionService/CreateInspection", {
      hiveId,
      date: "2026-05-01T10:00:00Z",
    });
    const file = await exportText(a.t);
    const parsed = JSON.parse(file);
    expect(parsed.organization).toEqual({ id: a.organizationId, name: "A" });

    // Only the inspection: its hive and apiary are A's, unknown to B.
    const onlyInspection = JSON.stringify({
      ...parsed,
      records: { inspection: parsed.records.inspection },
    });
    const { nextCursor } = await pullAll(b.t);
    const e = expectError(
      await b.t.call("TransferService/ImportRecords", { content: onlyInspection }),
      400,
    );
    expect(e.message).toContain(
      `refers to hive ${hiveId}, which is neither in the file nor in this organization`,
    );
    expect((await pullAll(b.t, nextCursor)).changes).toEqual([]);
    expectError(await b.t.call("HiveService/GetHive", { id: hiveId }), 404);

    // The whole backup is a copy in B: A's records stay A's.
    const copied = await callOk(b.t, "TransferService/ImportRecords", { content: file });
    expect(copied.written).toBe(true);
    const hive = (await callOk(b.t, "HiveService/GetHive", { id: hiveId })).hive;
    expect(hive).toMatchObject({ name: "A1", organizationId: b.organizationId });
    await callOk(b.t, "HiveService/UpdateHive", { hive: { ...hive, name: "B1" } });
    expect((await callOk(a.t, "HiveService/GetHive", { id: hiveId })).hive.name).toBe("A1");
  });

  it("a demo session may export but not import", { timeout: 120_000 }, async () => {
    const demo = t.as((await callOk(t, "AuthService/StartDemo", {})).sessionToken);
    const file = await exportText(demo);
    expect(JSON.parse(file).records.apiary.length).toBeGreaterThan(0);
    const e = expectError(
      await demo.call("TransferService/ImportRecords", { content: file, dryRun: true }),
      403,
    );
    expect(e.code).toBe("permission_denied");
  });
});

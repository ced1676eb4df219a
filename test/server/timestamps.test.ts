/** Request timestamps at the edges of what the API stores (years 0001–9999). */
import { create } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { HarvestService, InspectionService, QueenService, TaskService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const huge = create(TimestampSchema, { seconds: 10n ** 15n });

describe.each(databaseKinds)("timestamps on %s", (kind) => {
  let t: TestServer;
  let hiveId: string;
  beforeAll(async () => {
    t = await startTestServer(kind);
    const apiaryId = (await t.call("ApiaryService/CreateApiary", { name: "Old farm" })).body.apiary
      .id;
    hiveId = (await t.call("HiveService/CreateHive", { apiaryId, name: "H" })).body.hive.id;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("keeps a date of the year 0050 through a create and a later edit of the row", async () => {
    const created = await t.call("InspectionService/CreateInspection", {
      hiveId,
      date: "0050-06-01T12:00:00Z",
    });
    expect(created.body.inspection.date).toBe("0050-06-01T12:00:00Z");
    const photo = `data:image/png;base64,${"A".repeat(16)}`;
    const edited = await t.call("InspectionService/AddInspectionPhoto", {
      inspectionId: created.body.inspection.id,
      photo,
    });
    expect(edited.body.inspection.date).toBe("0050-06-01T12:00:00Z");
  });

  it("answers a binary timestamp beyond the year 9999 with invalid_argument naming the field", async () => {
    const calls: [string, () => Promise<unknown>][] = [
      ["date", () => t.client(InspectionService).createInspection({ hiveId, date: huge })],
      ["date", () => t.client(HarvestService).createHarvest({ hiveId, amountKg: 1, date: huge })],
      [
        "bestBefore",
        () => t.client(HarvestService).createHarvest({ hiveId, amountKg: 1, bestBefore: huge }),
      ],
      [
        "introducedAt",
        () => t.client(QueenService).createQueen({ hiveId, year: 2026, introducedAt: huge }),
      ],
      ["dueAt", () => t.client(TaskService).createTask({ title: "x", dueAt: huge })],
    ];
    for (const [field, call] of calls) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, field).toBeInstanceOf(ConnectError);
      expect((err as ConnectError).code, field).toBe(Code.InvalidArgument);
      expect((err as ConnectError).rawMessage, field).toContain(field);
    }
  });
});

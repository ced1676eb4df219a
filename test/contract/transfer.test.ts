/**
 * TransferService (issue 26) on every database over HTTP and on a device's local operations
 * (test/support/target.ts): a realistic organization made through the commands is exported,
 * imported into an empty organization and exported again with the same records; importing the
 * same file again writes nothing; hostile files each get their error and write nothing.
 */
import { TransferService } from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { callOk, expectError, feedHead, pullAll } from "../support/fixtures.ts";
import { serverOnly, type TestTarget, targetKinds, useTestTarget } from "../support/target.ts";

const png = (n: number) => `data:image/png;base64,${"iVBORw0KGgo".repeat(n)}`;

async function exportText(t: TestTarget): Promise<{ text: string; chunks: number }> {
  let text = "";
  let chunks = 0;
  for await (const m of t.client(TransferService).exportBackup({})) {
    text += m.chunk;
    chunks++;
  }
  return { text, chunks };
}

type Records = Record<string, { id: string; deleted?: boolean; [k: string]: unknown }[]>;
const recordsOf = (text: string): Records => JSON.parse(text).records;
/** Records by entity, each list in id order (the file's order within an entity is not a promise). */
const sorted = (records: Records): Records =>
  Object.fromEntries(
    Object.entries(records).map(([e, rows]) => [
      e,
      [...rows].sort((a, b) => (a.id < b.id ? -1 : 1)),
    ]),
  );

/** An organization as a beekeeper's season makes it, through the record services. */
async function season(t: TestTarget) {
  const apiary = async (body: object) =>
    (await callOk(t, "ApiaryService/CreateApiary", body)).apiary.id;
  const a = await apiary({ name: "Lindenhof", address: "Am Lindenhof 3", lat: 48.1, lng: 11.5 });
  const b = await apiary({ name: "Waldrand" });
  const hive = async (body: object) => (await callOk(t, "HiveService/CreateHive", body)).hive.id;
  const h1 = await hive({ apiaryId: a, name: "Volk 1", type: 1, boxes: 2, photo: png(3) });
  const h2 = await hive({ apiaryId: a, name: "Volk 2", type: 3 });
  const queen = async (year: number, introducedAt: string) =>
    (await callOk(t, "QueenService/CreateQueen", { hiveId: h1, year, introducedAt, marking: 5 }))
      .queen.id;
  await queen(2024, "2024-05-01T00:00:00Z");
  await queen(2025, "2025-06-01T00:00:00Z");
  await callOk(t, "HiveService/RelocateHive", { id: h1, targetApiaryId: b });
  const inspect = async (body: object) =>
    (await callOk(t, "InspectionService/CreateInspection", body)).inspection.id;
  const i1 = await inspect({
    hiveId: h1,
    date: "2026-05-02T09:30:00Z",
    note: "ruhig",
    weightKg: 38.5,
    queenSeen: true,
    frames: 10,
    broodFrames: 6,
    stores: 1,
    temperament: 2,
  });
  await callOk(t, "InspectionService/AddInspectionPhoto", { inspectionId: i1, photo: png(2) });
  await callOk(t, "InspectionService/AddInspectionPhoto", { inspectionId: i1, photo: png(1) });
  const i2 = await inspect({ hiveId: h2, date: "2026-04-20T10:00:00Z", note: "weisellos?" });
  await callOk(t, "InspectionService/AddInspectionPhoto", { inspectionId: i2, photo: png(4) });
  const treat = async (hiveId: string, date: string) =>
    (
      await callOk(t, "TreatmentService/CreateTreatment", {
        hiveId,
        product: "Oxuvar 5.7%",
        activeIngredient: "oxalic acid",
        dose: "50 ml",
        batchNumber: "L-22",
        withdrawalUntil: "2026-01-20T00:00:00Z",
        date,
      })
    ).treatment.id;
  await treat(h2, "2025-12-20T09:00:00Z");
  await treat(h1, "2025-12-21T09:00:00Z");
  const wrong = await treat(h1, "2025-12-22T09:00:00Z");
  await callOk(t, "TreatmentService/DeleteTreatment", { id: wrong });
  await callOk(t, "HarvestService/CreateHarvest", {
    hiveId: h1,
    amountKg: 12.5,
    date: "2026-06-30T12:00:00Z",
    variety: "Frühtracht",
    waterContent: 17.2,
  });
  await callOk(t, "TaskService/CreateTask", {
    title: "Gläser bestellen",
    dueAt: "2026-07-01T00:00:00Z",
  });
  await callOk(t, "TaskService/CreateTask", {
    title: "Honigraum aufsetzen",
    hiveId: h1,
    priority: 3,
  });
  await callOk(t, "HiveService/DeleteHive", { id: h2 });
  return { a, b, h1, h2, i2, wrong };
}

describe.each(targetKinds)("TransferService on %s", (kind) => {
  const source = useTestTarget(kind);
  const target = useTestTarget(kind);
  let made: Awaited<ReturnType<typeof season>>;
  let file: string;
  beforeAll(async () => {
    made = await season(source);
    file = (await exportText(source)).text;
  });

  it("exports every live record, the deleted ones live ones refer to and the register's trail", async () => {
    const parsed = JSON.parse(file);
    expect(parsed).toMatchObject({ format: "hivekeep-backup", version: 1 });
    expect(parsed.organization.id).toBe(source.organizationId);
    expect(Date.parse(parsed.exportedAt)).not.toBeNaN();
    const r: Records = parsed.records;
    expect(r.apiary?.map((x) => x.name).sort()).toEqual(["Lindenhof", "Waldrand"]);
    expect(r.hive?.find((h) => h.id === made.h2)).toMatchObject({ name: "Volk 2", deleted: true });
    expect(r.inspection?.find((i) => i.id === made.i2)).toMatchObject({
      hive_id: made.h2,
      photo_keys: [png(4)],
    });
    expect(r.inspection?.find((i) => i.hive_id === made.h1)?.photo_keys).toEqual([png(2), png(1)]);
    expect(r.placement).toHaveLength(3);
    expect(r.queen?.map((q) => q.active).sort()).toEqual([false, true]);
    expect(r.treatment?.find((x) => x.id === made.wrong)).toMatchObject({ deleted: true });
    const trail = r.event?.filter((e) => e.ref_entity === "treatment" && e.deleted);
    expect(trail?.map((e) => e.ref_id)).toEqual([made.wrong]);
    expect(r.task?.map((x) => x.title).sort()).toEqual(["Gläser bestellen", "Honigraum aufsetzen"]);
    expect(r.harvest?.[0]).toMatchObject({ amount_kg: 12.5, variety: "Frühtracht" });
  });

  it("a dry run previews the import and writes nothing", async () => {
    const head = await feedHead(target);
    const body = await callOk(target, "TransferService/ImportRecords", {
      content: file,
      dryRun: true,
    });
    expect(body.format).toBe("hivekeep");
    expect(body.written ?? false).toBe(false);
    expect(body.problems ?? []).toEqual([]);
    const hives = body.counts.find((c: { entity: string }) => c.entity === "hive");
    expect(hives).toEqual({ entity: "hive", created: 2 });
    expect((await pullAll(target, head)).changes).toEqual([]);
  });

  it("imports into an empty organization; exporting it again gives the same records", async () => {
    const body = await callOk(target, "TransferService/ImportRecords", { content: file });
    expect(body.written).toBe(true);
    const records = recordsOf(file);
    for (const c of body.counts) {
      expect(c.created ?? 0, c.entity).toBe(records[c.entity]?.length ?? 0);
      expect(c.existing ?? 0).toBe(0);
    }
    const again = (await exportText(target)).text;
    expect(sorted(recordsOf(again))).toEqual(sorted(records));
    // The imported records read as records of this organization.
    const hive = await callOk(target, "HiveService/GetHive", { id: made.h1 });
    expect(hive.hive).toMatchObject({
      name: "Volk 1",
      apiaryId: made.b,
      organizationId: target.organizationId,
    });
    expectError(await target.call("HiveService/GetHive", { id: made.h2 }), 404);
  });

  it("importing the same file again creates nothing and the feed does not move", async () => {
    const head = await feedHead(target);
    const body = await callOk(target, "TransferService/ImportRecords", { content: file });
    for (const c of body.counts) expect(c.created ?? 0).toBe(0);
    expect(body.counts.find((c: { entity: string }) => c.entity === "inspection").existing).toBe(2);
    expect((await pullAll(target, head)).changes).toEqual([]);
  });

  describe("hostile files get their error and write nothing", () => {
    const refused = async (content: string, status: number, message: RegExp) => {
      const head = await feedHead(target);
      const before = (await exportText(target)).text;
      const e = expectError(
        await target.call("TransferService/ImportRecords", { content }),
        status,
      );
      expect(e.message).toMatch(message);
      expect((await pullAll(target, head)).changes).toEqual([]);
      expect(recordsOf((await exportText(target)).text)).toEqual(recordsOf(before));
      return e;
    };
    const envelope = (records: object) =>
      JSON.stringify({
        format: "hivekeep-backup",
        version: 1,
        exportedAt: "2026-01-01T00:00:00Z",
        organization: { id: "x", name: "x" },
        records,
      });

    it("a truncated file", async () => {
      await refused(file.slice(0, Math.floor(file.length / 2)), 400, /not complete JSON/);
    });

    it("a wrong version", async () => {
      await refused(file.replace('"version":1', '"version":7'), 400, /backup version 7/);
    });

    it("another tenant's ids", async () => {
      const e = await refused(
        envelope({
          inspection: [
            {
              id: "0190a000-0000-7000-8000-00000000abcd",
              hive_id: "0190a000-0000-7000-8000-0000000000ff",
              date: "2026-05-01T00:00:00Z",
            },
          ],
        }),
        400,
        /refers to hive 0190a000-0000-7000-8000-0000000000ff, which is neither in the file nor in this organization/,
      );
      expect(e.code).toBe("invalid_argument");
    });

    it("wrong types, naming the first problems and how many", async () => {
      const hives = Array.from({ length: 5 }, (_, i) => ({
        id: `bad-${i}`,
        apiary_id: made.a,
        name: 3,
      }));
      await refused(
        envelope({ hive: hives }),
        400,
        /has 5 problems: hive bad-0: name must be a string;.*and 2 more/,
      );
    });

    serverOnly(kind, "the body limit is HTTP's")(
      "50 MB of junk: the body limit answers",
      async () => {
        const head = await feedHead(target);
        const junk = "\u00e4;x{".repeat(10 * 1024 * 1024).slice(0, 50 * 1024 * 1024);
        // The server answers while the client still uploads, and drains the rest. Under CI's
        // load the client once saw its connection reset before it read the answer (cause not
        // found: not reproduced by hand under load; the server ran on). A client sends such a
        // request again, as browsers do on a reset; up to two tries more here.
        let r: Awaited<ReturnType<typeof target.call>> | undefined;
        for (let attempt = 0; r === undefined; attempt++) {
          try {
            r = await target.call("TransferService/ImportRecords", { content: junk });
          } catch (err) {
            if (attempt >= 2 || !(err instanceof TypeError)) throw err;
          }
        }
        expect(r.status).toBe(429);
        expect(r.body.code).toBe("resource_exhausted");
        expect((await pullAll(target, head)).changes).toEqual([]);
        expect((await target.call("HiveService/GetHive", { id: made.h1 })).status).toBe(200);
      },
    );

    it("junk that fits the body limit is not a backup", async () => {
      await refused(
        `{"format":"hivekeep-backup","version":1,${"x".repeat(1e6)}`,
        400,
        /not complete JSON/,
      );
      const head = await feedHead(target);
      const e = expectError(
        await target.call("TransferService/ImportRecords", {
          content: "\u0001\u0002 binary;junk\n".repeat(1000),
          format: "hivekeep",
        }),
        400,
      );
      expect(e.message).toMatch(/not complete JSON/);
      expect((await pullAll(target, head)).changes).toEqual([]);
    });

    it("a dry run lists every problem with its place", async () => {
      const body = await callOk(target, "TransferService/ImportRecords", {
        content: envelope({ hive: [{ id: "h-x", apiary_id: made.a, name: "x", boxes: 99 }] }),
        dryRun: true,
      });
      expect(body.problems).toEqual([
        {
          entity: "hive",
          id: "h-x",
          column: "boxes",
          path: "records.hive[0].boxes",
          message: "hive h-x: boxes must be between 0 and 20",
        },
      ]);
    });

    it("a format hint no reader knows", async () => {
      const e = expectError(
        await target.call("TransferService/ImportRecords", { content: file, format: "xlsx" }),
        400,
      );
      expect(e.message).toMatch(/format "xlsx" is unknown/);
    });
  });
});

/**
 * The Idempotency-Key header (rpc/idempotency.ts) on every database: a retried Create answers
 * the first answer and writes nothing; another body under the key, a key still running and a
 * malformed key are refused and write nothing; keys are per method and per user; after 24 hours
 * (the server clock, moved by the test) a key is forgotten and swept.
 */
import { TaskService } from "@hivekeep/proto";
import { localOrganizationId, localUserId } from "@hivekeep/server";
import { describe, expect, it } from "vitest";
import { idempotencyKeyTtlMs, lockSlot } from "../../server/src/store/idempotency-keys.ts";
import { databaseKinds } from "../support/databases.ts";
import { expectError, feedHead, pullAll, useTestServer } from "../support/fixtures.ts";

describe.each(databaseKinds)("Idempotency-Key on %s", (kind) => {
  let nowMs = Date.parse("2026-06-01T08:00:00Z");
  const t = useTestServer(kind, {}, { now: () => nowMs });
  const keyed = (path: string, body: unknown, key: string) =>
    t.call(path, body, { "Idempotency-Key": key });
  const storedKeys = async () =>
    Number(
      (await t.server.db.query<{ n: number }>("select count(*) as n from idempotency_keys"))[0]?.n,
    );
  const listed = async (hiveId: string) =>
    (await t.call("InspectionService/ListInspections", { hiveId })).body.page?.total ?? 0;

  let hiveId = "";
  let firstId = "";
  it("a retried CreateInspection answers the first answer (body and status) and writes once", async () => {
    const apiary = await keyed("ApiaryService/CreateApiary", { name: "Scales" }, "apiary-1");
    expect(apiary.status).toBe(200);
    const hive = await keyed(
      "HiveService/CreateHive",
      { apiaryId: apiary.body.apiary.id, name: "Scale hive" },
      "hive-1",
    );
    hiveId = hive.body.hive.id;
    const reading = { hiveId, date: "2026-06-01T07:45:00Z", weightKg: 41.25, tempHive: 34.5 };
    const first = await keyed("InspectionService/CreateInspection", reading, "reading-0745");
    expect(first.status).toBe(200);
    firstId = first.body.inspection.id;
    const head = await feedHead(t);
    // The answer was lost; the scale sends the same request again, in another JSON spelling.
    const again = await keyed(
      "InspectionService/CreateInspection",
      { hive_id: hiveId, weight_kg: 41.25, temp_hive: 34.5, date: "2026-06-01T07:45:00.000Z" },
      '"reading-0745"',
    );
    expect(again).toEqual(first);
    const raw = await fetch(`${t.url}/hivekeep.v1.InspectionService/CreateInspection`, {
      method: "POST",
      headers: { "content-type": "application/json", "Idempotency-Key": "reading-0745" },
      body: JSON.stringify(reading),
    });
    expect(raw.headers.get("content-type")).toBe("application/json");
    expect(await raw.json()).toEqual(first.body);
    expect((await pullAll(t, head)).changes).toEqual([]);
    expect(await listed(hiveId)).toBe(1);
    // Other Create calls too: the apiary's answer comes back, no second apiary.
    const apiaryAgain = await keyed("ApiaryService/CreateApiary", { name: "Scales" }, "apiary-1");
    expect(apiaryAgain).toEqual(apiary);
    const apiaries = await t.call("ApiaryService/ListApiaries", {});
    expect(apiaries.body.page.total).toBe(1);
  });

  it("a binary protobuf client gets the first answer too", async () => {
    const client = t.client(TaskService);
    const headers = { "Idempotency-Key": "task-bin" };
    const first = await client.createTask({ title: "Weigh" }, { headers });
    const again = await client.createTask({ title: "Weigh" }, { headers });
    expect(again.task?.id).toBe(first.task?.id);
    const tasks = await client.listTasks({});
    expect(tasks.tasks.filter((x) => x.title === "Weigh")).toHaveLength(1);
  });

  it("AddInspectionPhoto and CreateReadings take the header", async () => {
    const { inspection } = (
      await t.call("InspectionService/CreateInspection", { hiveId, date: "2026-05-30T10:00:00Z" })
    ).body;
    const photo = `data:image/png;base64,${Buffer.from("comb").toString("base64")}`;
    const add = { inspectionId: inspection.id, photo };
    const first = await keyed("InspectionService/AddInspectionPhoto", add, "photo-1");
    expect(first.body.inspection.photoKeys).toEqual([photo]);
    const batch = {
      readings: [{ hiveId, date: "2026-05-31T00:00:00Z", weightKg: 40 }],
    };
    const created = await keyed("InspectionService/CreateReadings", batch, "batch-1");
    expect(created.body.results[0].status).toBe("READING_STATUS_CREATED");
    const head = await feedHead(t);
    expect(await keyed("InspectionService/AddInspectionPhoto", add, "photo-1")).toEqual(first);
    expect(await keyed("InspectionService/CreateReadings", batch, "batch-1")).toEqual(created);
    expect((await pullAll(t, head)).changes).toEqual([]);
  });

  it("every other Create call of the record services takes the header too", async () => {
    const calls: [string, object][] = [
      ["QueenService/CreateQueen", { hiveId, year: 2026 }],
      ["TreatmentService/CreateTreatment", { hiveId, product: "Oxalic acid" }],
      ["HarvestService/CreateHarvest", { hiveId, amountKg: 12.5 }],
    ];
    for (const [path, body] of calls) {
      const first = await keyed(path, body, `every-${path}`);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const head = await feedHead(t);
      expect(await keyed(path, body, `every-${path}`)).toEqual(first);
      expect((await pullAll(t, head)).changes, path).toEqual([]);
    }
  });

  it("the same key with another body is failed_precondition and writes nothing", async () => {
    const head = await feedHead(t);
    const other = await keyed(
      "InspectionService/CreateInspection",
      { hiveId, date: "2026-06-01T07:45:00Z", weightKg: 39 },
      "reading-0745",
    );
    expect(expectError(other, 400)).toMatchObject({ code: "failed_precondition" });
    expect(other.body.message).toContain("Idempotency-Key was used for another request");
    expect((await pullAll(t, head)).changes).toEqual([]);
  });

  it("a key is per method: the same key on another Create call is a new call", async () => {
    const task = await keyed("TaskService/CreateTask", { title: "Check scale" }, "reading-0745");
    expect(task.status).toBe(200);
    expect(task.body.task.title).toBe("Check scale");
  });

  it("a key that is empty, too long or not printable ASCII is invalid_argument; nothing is written", async () => {
    const head = await feedHead(t);
    const body = { hiveId, weightKg: 1 };
    for (const key of ["", " ", "k".repeat(256), "tab\tkey", '"unterminated', "caf\u00e9"]) {
      const r = await t.call("InspectionService/CreateInspection", body, {
        "Idempotency-Key": key,
      });
      expect(expectError(r, 400).code, JSON.stringify(key)).toBe("invalid_argument");
      expect(r.body.message).toMatch(/Idempotency-Key/);
    }
    const longest = await keyed("InspectionService/CreateInspection", body, "k".repeat(255));
    expect(longest.status).toBe(200);
    expect((await pullAll(t, head)).changes).toHaveLength(2);
  });

  it("a failed call stores no key: its retry runs again", async () => {
    const missing = { hiveId: "no-such-hive", weightKg: 1 };
    const r = await keyed("InspectionService/CreateInspection", missing, "fails");
    expect(expectError(r, 404).code).toBe("not_found");
    const fixed = await keyed("InspectionService/CreateInspection", { hiveId }, "fails");
    expect(fixed.status).toBe(200);
  });

  it("a method that creates nothing ignores the header", async () => {
    const list = await keyed("ApiaryService/ListApiaries", {}, "anything\ttab");
    expect(list.status).toBe(200);
  });

  it.runIf(kind === "postgres")(
    "a second request while the first with the key still runs (another process) is aborted (409)",
    async () => {
      const head = await feedHead(t);
      const held = {
        organizationId: localOrganizationId,
        ownerId: localUserId,
        method: "hivekeep.v1.InspectionService/CreateInspection",
        key: "held",
      };
      await t.server.db.transaction(async (tx) => {
        expect(await lockSlot(tx, held)).toBe(true);
        const r = await keyed("InspectionService/CreateInspection", { hiveId }, "held");
        expect(expectError(r, 409).code).toBe("aborted");
      });
      expect((await pullAll(t, head)).changes).toEqual([]);
      const after = await keyed("InspectionService/CreateInspection", { hiveId }, "held");
      expect(after.status).toBe(200);
    },
  );

  it("after 24 hours a key is forgotten (a new call) and swept from the table", async () => {
    const before = await storedKeys();
    expect(before).toBeGreaterThan(0);
    const reading = { hiveId, date: "2026-06-01T07:45:00Z", weightKg: 41.25, tempHive: 34.5 };
    nowMs += idempotencyKeyTtlMs - 1;
    const within = await keyed("InspectionService/CreateInspection", reading, "reading-0745");
    expect(within.status).toBe(200);
    expect(within.body.inspection.id).toBe(firstId);
    const head = await feedHead(t);
    nowMs += 2;
    // The sweep runs after the next call that stores a key: every key but that one is gone.
    const later = await keyed("InspectionService/CreateInspection", reading, "reading-0745");
    expect(later.status).toBe(200);
    expect(later.body.inspection.id).not.toBe(within.body.inspection.id);
    expect((await pullAll(t, head)).changes).toHaveLength(2);
    expect(await storedKeys()).toBe(1);
  });
});

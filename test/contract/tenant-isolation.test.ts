/**
 * Another tenant's ids behave as if they did not exist (contract §1, §5.6,
 * §7): every operation that takes an id answers not_found, lists and the
 * feed never show the other tenant's rows. The other tenant's data is
 * written through the one write path, as its own requests would.
 */
import { randomUUID } from "node:crypto";
import { upsert } from "@hivekeep/client-core/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import { seedContext } from "../support/command-seed.ts";
import { databaseKinds } from "../support/databases.ts";
import { newApiary, newHive, pullAll } from "../support/fixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const other = "00000000-0000-7000-8000-0000000000bb";
const ids = {
  apiary: randomUUID(),
  hive: randomUUID(),
  inspection: randomUUID(),
  queen: randomUUID(),
  task: randomUUID(),
  treatment: randomUUID(),
  harvest: randomUUID(),
  event: randomUUID(),
};

describe.each(databaseKinds)("another tenant's ids on %s", (kind) => {
  let t: TestServer;
  let ownApiary: string;
  let ownHive: string;
  beforeAll(async () => {
    t = await startTestServer(kind);
    ownApiary = await newApiary(t, "Mine");
    ownHive = await newHive(t, ownApiary, "My hive");
    await t.server.db.query("insert into organizations (id, name) values ($1, 'Theirs')", [other]);
    const ctx = { ...seedContext(), authorId: "their-user" };
    const now = new Date().toISOString();
    const a = ids.apiary;
    await writeTenant(t.server.db, other, (w) =>
      w.apply([
        upsert(ctx, "apiary", a, a, { name: "Their apiary" }),
        upsert(ctx, "hive", ids.hive, a, { apiary_id: a, name: "Their hive", status: 1 }),
        upsert(ctx, "inspection", ids.inspection, a, {
          hive_id: ids.hive,
          apiary_id: a,
          date: now,
        }),
        upsert(ctx, "queen", ids.queen, a, { hive_id: ids.hive, year: 2026, active: true }),
        upsert(ctx, "task", ids.task, a, { title: "Their task", apiary_id: a }),
        upsert(ctx, "treatment", ids.treatment, a, { hive_id: ids.hive, product: "OA", date: now }),
        upsert(ctx, "harvest", ids.harvest, a, { hive_id: ids.hive, amount_kg: 9, date: now }),
        upsert(ctx, "event", ids.event, a, { type: 7, date: now, hive_id: ids.hive, amount_kg: 9 }),
      ]),
    );
  });
  afterAll(async () => {
    await t?.stop();
  });

  const photo = "data:image/png;base64,AAAA";
  const calls: [string, Record<string, unknown>][] = [
    ["ApiaryService/GetApiary", { id: ids.apiary }],
    ["ApiaryService/UpdateApiary", { id: ids.apiary, name: "Taken" }],
    ["ApiaryService/DeleteApiary", { id: ids.apiary }],
    ["HiveService/GetHive", { id: ids.hive }],
    ["HiveService/UpdateHive", { hive: { id: ids.hive, name: "Taken" } }],
    ["HiveService/DeleteHive", { id: ids.hive }],
    ["HiveService/CreateHive", { apiaryId: ids.apiary, name: "Intruder" }],
    ["InspectionService/GetInspection", { id: ids.inspection }],
    ["InspectionService/CreateInspection", { hiveId: ids.hive }],
    ["InspectionService/AddInspectionPhoto", { inspectionId: ids.inspection, photo }],
    ["InspectionService/RemoveInspectionPhoto", { inspectionId: ids.inspection, photo }],
    ["InspectionService/UpdateInspection", { inspection: { id: ids.inspection, note: "Taken" } }],
    ["InspectionService/DeleteInspection", { id: ids.inspection }],
    ["InspectionService/GetReadingSeries", { hiveId: ids.hive, from: "2020-01-01T00:00:00Z" }],
    ["QueenService/GetQueen", { id: ids.queen }],
    ["QueenService/CreateQueen", { hiveId: ids.hive, year: 2026 }],
    ["QueenService/UpdateQueen", { queen: { id: ids.queen, hiveId: ids.hive, year: 2026 } }],
    ["QueenService/DeleteQueen", { id: ids.queen }],
    ["TaskService/GetTask", { id: ids.task }],
    ["TaskService/SetTaskDone", { id: ids.task, done: true }],
    ["TaskService/CreateTask", { title: "Intruder", hiveId: ids.hive }],
    ["TaskService/UpdateTask", { task: { id: ids.task, title: "Taken" } }],
    ["TaskService/DeleteTask", { id: ids.task }],
    ["TreatmentService/GetTreatment", { id: ids.treatment }],
    ["TreatmentService/CreateTreatment", { hiveId: ids.hive, product: "OA" }],
    ["TreatmentService/UpdateTreatment", { treatment: { id: ids.treatment, product: "OA" } }],
    ["TreatmentService/DeleteTreatment", { id: ids.treatment }],
    ["HarvestService/GetHarvest", { id: ids.harvest }],
    ["HarvestService/DeleteHarvest", { id: ids.harvest }],
    ["HarvestService/CreateHarvest", { hiveId: ids.hive, amountKg: 1 }],
    ["EventService/GetEvent", { id: ids.event }],
  ];

  it.each(calls)("%s answers not_found and writes nothing", async (path, body) => {
    const before = (await pullAll(t, "")).nextCursor;
    const r = await t.call(path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(404);
    expect(r.body.code).toBe("not_found");
    expect((await pullAll(t, before)).changes).toEqual([]);
  });

  it("RelocateHive answers not_found for their hive and for their apiary as the target", async () => {
    const theirHive = await t.call("HiveService/RelocateHive", {
      id: ids.hive,
      targetApiaryId: ownApiary,
    });
    expect(theirHive.status).toBe(404);
    const theirTarget = await t.call("HiveService/RelocateHive", {
      id: ownHive,
      targetApiaryId: ids.apiary,
    });
    expect(theirTarget.status).toBe(404);
  });

  it("CreateTask with their apiary is invalid_argument, as for any unknown apiary", async () => {
    const r = await t.call("TaskService/CreateTask", { title: "x", apiaryId: ids.apiary });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
  });

  it("never lists their rows, counts them, or shows them in the feed", async () => {
    const lists: [string, string][] = [
      ["ApiaryService/ListApiaries", "apiaries"],
      ["HiveService/ListHives", "hives"],
      ["InspectionService/ListInspections", "inspections"],
      ["QueenService/ListQueens", "queens"],
      ["TaskService/ListTasks", "tasks"],
      ["TreatmentService/ListTreatments", "treatments"],
      ["HarvestService/ListHarvests", "harvests"],
      ["EventService/ListEvents", "events"],
    ];
    const theirs = new Set<string>(Object.values(ids));
    for (const [path, key] of lists) {
      const body = (await t.call(path, {})).body;
      const found = (body[key] ?? []).filter((r: { id: string }) => theirs.has(r.id));
      expect(found, path).toEqual([]);
    }
    const filtered = await t.call("InspectionService/ListInspections", { hiveId: ids.hive });
    expect(filtered.body.inspections).toBeUndefined();
    const dash = (await t.call("StatsService/GetDashboard", {})).body;
    expect(dash).toMatchObject({ apiaries: 1, hives: 1 });
    expect(dash.honeyKgSeason).toBeUndefined();
    const { changes } = await pullAll(t, "");
    expect(changes.filter((c) => theirs.has(c.entityId))).toEqual([]);
  });
});

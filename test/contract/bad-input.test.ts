/**
 * Bad input to the record services (issue 13), on every database over HTTP and on the device:
 * every string field of every request of every record service, sent with a NUL (U+0000), a
 * 1 MB value and (text) a 10,001-character value, answers a Connect error with the right code
 * (never `internal`), quotes at most a short prefix of what was sent, and writes nothing.
 *
 * - An id a request carries gets the shape check Push uses (`isEntityId`): a malformed one is
 *   unknown, so `not_found`, and a List filter with one matches nothing, as an unknown
 *   well-formed id does (CreateTask's apiaryId keeps its contract code, invalid_argument).
 * - A stored text passes the column rules of a pushed change: `invalid_argument`.
 * The fields are enumerated from the proto descriptors, so a new field without a row here fails.
 */
import type { DescMessage, DescService } from "@bufbuild/protobuf";
import { parseWireChange } from "@hivekeep/client-core/core";
import * as proto from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { callOk, feedHead, pullAll, withApiaryAndHive } from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

/** What a bad value of the field answers. */
type Expect =
  /** not_found */
  | "id"
  /** a List filter: 200 with no rows */
  | "filter"
  /** invalid_argument */
  | "text"
  | "photo"
  /** the field is ignored by the method (200) */
  | "ignored";

const recordServices = [
  "ApiaryService",
  "HiveService",
  "InspectionService",
  "QueenService",
  "TaskService",
  "TreatmentService",
  "HarvestService",
  "EventService",
  "StatsService",
];

/** `<Service>/<Method> <field path>` → what a bad value answers. */
const fields: Record<string, Expect | "invalid_argument"> = {
  "ApiaryService/ListApiaries page.pageToken": "text",
  "ApiaryService/GetApiary id": "id",
  "ApiaryService/CreateApiary name": "text",
  "ApiaryService/CreateApiary address": "text",
  "ApiaryService/UpdateApiary id": "id",
  "ApiaryService/UpdateApiary name": "text",
  "ApiaryService/UpdateApiary address": "text",
  "ApiaryService/DeleteApiary id": "id",

  "HiveService/ListHives apiaryId": "filter",
  "HiveService/ListHives page.pageToken": "text",
  "HiveService/GetHive id": "id",
  "HiveService/CreateHive apiaryId": "id",
  "HiveService/CreateHive name": "text",
  "HiveService/CreateHive colonyOrigin": "text",
  "HiveService/CreateHive note": "text",
  "HiveService/CreateHive qrCode": "text",
  "HiveService/CreateHive photo": "photo",
  "HiveService/UpdateHive hive.id": "id",
  "HiveService/UpdateHive hive.organizationId": "ignored",
  "HiveService/UpdateHive hive.apiaryId": "ignored",
  "HiveService/UpdateHive hive.name": "text",
  "HiveService/UpdateHive hive.colonyOrigin": "text",
  "HiveService/UpdateHive hive.note": "text",
  "HiveService/UpdateHive hive.qrCode": "text",
  "HiveService/UpdateHive hive.photo": "ignored",
  "HiveService/RelocateHive id": "id",
  "HiveService/RelocateHive targetApiaryId": "id",
  "HiveService/DeleteHive id": "id",

  "InspectionService/ListInspections hiveId": "filter",
  "InspectionService/ListInspections page.pageToken": "text",
  "InspectionService/GetInspection id": "id",
  "InspectionService/CreateInspection hiveId": "id",
  "InspectionService/CreateInspection note": "text",
  "InspectionService/CreateInspection weather": "text",
  "InspectionService/CreateInspection varroa": "text",
  "InspectionService/AddInspectionPhoto inspectionId": "id",
  "InspectionService/AddInspectionPhoto photo": "photo",
  "InspectionService/RemoveInspectionPhoto inspectionId": "id",
  // A photo that is not there: nothing to remove (contract §4.4.2), whatever it holds.
  "InspectionService/RemoveInspectionPhoto photo": "ignored",
  "InspectionService/UpdateInspection inspection.id": "id",
  "InspectionService/UpdateInspection inspection.organizationId": "ignored",
  // hive_id never changes; apiary_id and queen_id are frozen as of the date.
  "InspectionService/UpdateInspection inspection.hiveId": "ignored",
  "InspectionService/UpdateInspection inspection.apiaryId": "ignored",
  "InspectionService/UpdateInspection inspection.queenId": "ignored",
  "InspectionService/UpdateInspection inspection.note": "text",
  "InspectionService/UpdateInspection inspection.weather": "text",
  "InspectionService/UpdateInspection inspection.varroa": "text",
  "InspectionService/DeleteInspection id": "id",
  "InspectionService/GetReadingSeries hiveId": "id",

  "QueenService/ListQueens hiveId": "filter",
  "QueenService/ListQueens page.pageToken": "text",
  "QueenService/GetQueen id": "id",
  "QueenService/CreateQueen hiveId": "id",
  "QueenService/CreateQueen origin": "text",
  "QueenService/CreateQueen breederNumber": "text",
  "QueenService/CreateQueen note": "text",
  "QueenService/UpdateQueen queen.id": "id",
  "QueenService/UpdateQueen queen.organizationId": "ignored",
  "QueenService/UpdateQueen queen.hiveId": "ignored",
  "QueenService/UpdateQueen queen.origin": "text",
  "QueenService/UpdateQueen queen.breederNumber": "text",
  "QueenService/UpdateQueen queen.note": "text",
  "QueenService/DeleteQueen id": "id",

  "TaskService/ListTasks hiveId": "filter",
  "TaskService/ListTasks page.pageToken": "text",
  "TaskService/GetTask id": "id",
  "TaskService/CreateTask title": "text",
  "TaskService/CreateTask hiveId": "id",
  // Contract §4.6 rule 2: an unknown apiaryId is invalid_argument.
  "TaskService/CreateTask apiaryId": "invalid_argument",
  "TaskService/SetTaskDone id": "id",
  "TaskService/UpdateTask task.id": "id",
  "TaskService/UpdateTask task.organizationId": "ignored",
  "TaskService/UpdateTask task.title": "text",
  "TaskService/UpdateTask task.hiveId": "id",
  // As on create (contract §4.6 rule 2): an unknown apiaryId is invalid_argument.
  "TaskService/UpdateTask task.apiaryId": "invalid_argument",
  "TaskService/DeleteTask id": "id",

  "TreatmentService/ListTreatments hiveId": "filter",
  "TreatmentService/ListTreatments page.pageToken": "text",
  "TreatmentService/GetTreatment id": "id",
  "TreatmentService/CreateTreatment hiveId": "id",
  "TreatmentService/CreateTreatment product": "text",
  "TreatmentService/CreateTreatment activeIngredient": "text",
  "TreatmentService/CreateTreatment dose": "text",
  "TreatmentService/CreateTreatment method": "text",
  "TreatmentService/CreateTreatment batchNumber": "text",
  "TreatmentService/CreateTreatment reason": "text",
  "TreatmentService/CreateTreatment supplier": "text",
  "TreatmentService/UpdateTreatment treatment.id": "id",
  "TreatmentService/UpdateTreatment treatment.organizationId": "ignored",
  // hive_id never changes; apiary_id and queen_id are frozen as of the date.
  "TreatmentService/UpdateTreatment treatment.hiveId": "ignored",
  "TreatmentService/UpdateTreatment treatment.apiaryId": "ignored",
  "TreatmentService/UpdateTreatment treatment.queenId": "ignored",
  "TreatmentService/UpdateTreatment treatment.product": "text",
  "TreatmentService/UpdateTreatment treatment.activeIngredient": "text",
  "TreatmentService/UpdateTreatment treatment.dose": "text",
  "TreatmentService/UpdateTreatment treatment.method": "text",
  "TreatmentService/UpdateTreatment treatment.batchNumber": "text",
  "TreatmentService/UpdateTreatment treatment.reason": "text",
  "TreatmentService/UpdateTreatment treatment.supplier": "text",
  "TreatmentService/GetTreatmentRegister apiaryId": "filter",
  "TreatmentService/GetTreatmentRegister timeZone": "text",
  "TreatmentService/DeleteTreatment id": "id",

  "HarvestService/ListHarvests hiveId": "filter",
  "HarvestService/ListHarvests apiaryId": "filter",
  "HarvestService/ListHarvests page.pageToken": "text",
  "HarvestService/GetHarvest id": "id",
  "HarvestService/CreateHarvest hiveId": "id",
  "HarvestService/CreateHarvest variety": "text",
  "HarvestService/CreateHarvest batchNumber": "text",
  "HarvestService/CreateHarvest note": "text",
  "HarvestService/DeleteHarvest id": "id",

  "EventService/ListEvents apiaryId": "filter",
  "EventService/ListEvents hiveId": "filter",
  "EventService/ListEvents queenId": "filter",
  "EventService/GetEvent id": "id",
};

/** Every string field of a message, nested messages (not Timestamps) included, as paths. */
function stringFields(message: DescMessage, prefix = ""): string[] {
  return message.fields.flatMap((f) => {
    if (f.fieldKind === "scalar" && f.scalar === 9) return [`${prefix}${f.jsonName}`];
    if (f.fieldKind === "message" && !f.message.typeName.startsWith("google.protobuf.")) {
      return stringFields(f.message, `${prefix}${f.jsonName}.`);
    }
    return [];
  });
}

/** Every google.protobuf.Timestamp field of a message, nested messages included, as paths. */
function timestampFields(message: DescMessage, prefix = ""): string[] {
  return message.fields.flatMap((f) => {
    if (f.fieldKind !== "message") return [];
    if (f.message.typeName === "google.protobuf.Timestamp") return [`${prefix}${f.jsonName}`];
    if (f.message.typeName.startsWith("google.protobuf.")) return [];
    return timestampFields(f.message, `${prefix}${f.jsonName}.`);
  });
}

/** RFC 3339 in form, but no calendar date or time of day: `Date.parse` rolls them over. */
const impossibleTimestamps = [
  "2026-02-30T00:00:00Z",
  "2026-01-01T24:00:00Z",
  "2026-04-31T10:00:00+02:00",
  "2027-02-29T12:00:00.5Z",
];

const serviceDescs = (Object.values(proto) as unknown[]).filter(
  (v): v is DescService =>
    (v as { kind?: unknown })?.kind === "service" &&
    recordServices.includes((v as { name: string }).name),
);

const uuid = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
/** Bad values by kind: each id one that no row can have; each text one no column accepts. */
const badValues: Record<"id" | "text" | "photo", readonly [string, string][]> = {
  id: [
    ["a NUL", `${uuid}\u0000`],
    ["a 1 MB id", "a".repeat(1_000_000)],
    ["101 characters", "a".repeat(101)],
    ["a space", "not an id"],
  ],
  text: [
    ["a NUL", "Linden\u0000hof"],
    ["10,001 characters", "x".repeat(10_001)],
    ["1 MB", "x".repeat(1_000_000)],
  ],
  photo: [
    ["a NUL", "data:image/png;base64,\u0000"],
    ["513 KiB", `data:image/png;base64,${"A".repeat(513 * 1024)}`],
  ],
};

/** The longest error message allowed: what a short quoted prefix and some words make. */
const maxMessage = 300;

function withField(body: Record<string, unknown>, path: string, value: string) {
  const copy = structuredClone(body);
  const keys = path.split(".");
  let at = copy;
  for (const k of keys.slice(0, -1)) {
    at[k] = { ...((at[k] as Record<string, unknown>) ?? {}) };
    at = at[k] as Record<string, unknown>;
  }
  at[keys.at(-1) as string] = value;
  return copy;
}

describe.each(targetKinds)("bad input to the record services on %s", (kind) => {
  const t = useTestTarget(kind);
  const bodies: Record<string, Record<string, unknown>> = {};

  beforeAll(async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const other = (await callOk(t, "ApiaryService/CreateApiary", { name: "Other" })).apiary.id;
    const inspectionId = (await callOk(t, "InspectionService/CreateInspection", { hiveId }))
      .inspection.id;
    const queenId = (await callOk(t, "QueenService/CreateQueen", { hiveId, year: 2025 })).queen.id;
    const taskId = (await callOk(t, "TaskService/CreateTask", { title: "Feed", hiveId })).task.id;
    const treatmentId = (
      await callOk(t, "TreatmentService/CreateTreatment", { hiveId, product: "Oxalic acid" })
    ).treatment.id;
    const harvestId = (await callOk(t, "HarvestService/CreateHarvest", { hiveId, amountKg: 5 }))
      .harvest.id;
    const eventId = (await callOk(t, "EventService/ListEvents", {})).events[0].id;
    Object.assign(bodies, {
      "ApiaryService/ListApiaries": {},
      "ApiaryService/GetApiary": { id: apiaryId },
      "ApiaryService/CreateApiary": { name: "New" },
      "ApiaryService/UpdateApiary": { id: apiaryId, name: "Lindenhof" },
      "ApiaryService/DeleteApiary": { id: other },
      "HiveService/ListHives": {},
      "HiveService/GetHive": { id: hiveId },
      "HiveService/CreateHive": { apiaryId, name: "New" },
      "HiveService/UpdateHive": { hive: { id: hiveId, apiaryId, name: "Hive 1" } },
      "HiveService/RelocateHive": { id: hiveId, targetApiaryId: other },
      "HiveService/DeleteHive": { id: hiveId },
      "InspectionService/ListInspections": {},
      "InspectionService/GetInspection": { id: inspectionId },
      "InspectionService/CreateInspection": { hiveId },
      "InspectionService/AddInspectionPhoto": {
        inspectionId,
        photo: "data:image/png;base64,AAAA",
      },
      "InspectionService/RemoveInspectionPhoto": {
        inspectionId,
        photo: "data:image/png;base64,AAAA",
      },
      "InspectionService/UpdateInspection": { inspection: { id: inspectionId, hiveId } },
      "InspectionService/DeleteInspection": { id: inspectionId },
      "InspectionService/GetReadingSeries": { hiveId, from: "2026-01-01T00:00:00Z" },
      "QueenService/ListQueens": {},
      "QueenService/GetQueen": { id: queenId },
      "QueenService/CreateQueen": { hiveId, year: 2026 },
      "QueenService/UpdateQueen": { queen: { id: queenId, hiveId, year: 2025, active: true } },
      "QueenService/DeleteQueen": { id: queenId },
      "TaskService/ListTasks": {},
      "TaskService/GetTask": { id: taskId },
      "TaskService/CreateTask": { title: "New" },
      "TaskService/SetTaskDone": { id: taskId, done: true },
      "TaskService/UpdateTask": { task: { id: taskId, title: "Feed", hiveId } },
      "TaskService/DeleteTask": { id: taskId },
      "TreatmentService/ListTreatments": {},
      "TreatmentService/GetTreatmentRegister": {},
      "TreatmentService/GetTreatment": { id: treatmentId },
      "TreatmentService/CreateTreatment": { hiveId, product: "Thymol" },
      "TreatmentService/UpdateTreatment": {
        treatment: { id: treatmentId, hiveId, product: "Oxalic acid" },
      },
      "TreatmentService/DeleteTreatment": { id: treatmentId },
      "HarvestService/ListHarvests": {},
      "HarvestService/GetHarvest": { id: harvestId },
      "HarvestService/CreateHarvest": { hiveId, amountKg: 1 },
      "HarvestService/DeleteHarvest": { id: harvestId },
      "EventService/ListEvents": {},
      "EventService/GetEvent": { id: eventId },
    });
  });

  it("has a row for every string field of every record service request", () => {
    const enumerated = serviceDescs.flatMap((s) =>
      s.methods.flatMap((m) => stringFields(m.input).map((f) => `${s.name}/${m.name} ${f}`)),
    );
    expect(enumerated.length).toBeGreaterThan(70);
    expect(enumerated.filter((pair) => !(pair in fields))).toEqual([]);
    expect(Object.keys(fields).filter((pair) => !enumerated.includes(pair))).toEqual([]);
  });

  it("answers not_found, an empty list or invalid_argument, quoting at most a prefix, and writes nothing", async () => {
    const head = await feedHead(t);
    const wrong: string[] = [];
    let calls = 0;
    for (const [pair, expected] of Object.entries(fields)) {
      if (expected === "ignored") continue;
      const [path, field] = pair.split(" ") as [string, string];
      const kind = expected === "photo" ? "photo" : expected === "text" ? "text" : "id";
      for (const [label, value] of badValues[kind]) {
        const base = bodies[path];
        if (base === undefined) throw new Error(`no base body for ${path}`);
        const r = await t.call(path, withField(base, field, value));
        calls++;
        const want =
          expected === "filter"
            ? 200
            : expected === "id"
              ? 404
              : 400; /* text, photo, invalid_argument */
        const code = r.body?.code;
        const message = String(r.body?.message ?? "");
        if (r.status !== want) {
          wrong.push(`${pair} with ${label}: ${r.status} ${code} ${message.slice(0, 120)}`);
        } else if (want !== 200 && message.length > maxMessage) {
          wrong.push(`${pair} with ${label}: message of ${message.length} characters`);
        } else if (want === 200) {
          const lists = Object.values(r.body).filter(Array.isArray);
          if (lists.some((l) => l.length > 0)) wrong.push(`${pair} with ${label}: rows listed`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(calls).toBeGreaterThan(150);
    // Every rejected call wrote nothing (list calls write nothing anyway).
    expect((await pullAll(t, head)).changes).toEqual([]);
  });

  it("refuses a timestamp naming no instant (Feb 30, 24:00) with invalid_argument in every timestamp field, as Push does", async () => {
    const enumerated = serviceDescs.flatMap((s) =>
      s.methods.flatMap((m) => timestampFields(m.input).map((f) => [`${s.name}/${m.name}`, f])),
    );
    expect(enumerated.length).toBeGreaterThanOrEqual(10);
    const head = await feedHead(t);
    const wrong: string[] = [];
    for (const [path, field] of enumerated as [string, string][]) {
      const base = bodies[path];
      if (base === undefined) throw new Error(`no base body for ${path}`);
      for (const value of impossibleTimestamps) {
        const r = await t.call(path, withField(base, field, value));
        if (r.status !== 400 || r.body?.code !== "invalid_argument") {
          wrong.push(
            `${path} ${field} = ${value}: ${r.status} ${JSON.stringify(r.body).slice(0, 120)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
    expect((await pullAll(t, head)).changes).toEqual([]);
    // A real leap day is a date (in the past: a set-up date cannot be in the future).
    const leap = await t.call("HiveService/CreateHive", {
      ...bodies["HiveService/CreateHive"],
      date: "2024-02-29T24:00:00Z".replace("24:00", "23:59"),
    });
    expect(leap.status, JSON.stringify(leap.body)).toBe(200);
  });

  it("stores texts at the limit, and every change the RPCs write passes Push's rules (event titles included)", async () => {
    const head = await feedHead(t);
    const long = "x".repeat(10_000);
    const a = (await callOk(t, "ApiaryService/CreateApiary", { name: long, address: long })).apiary;
    const b = (await callOk(t, "ApiaryService/CreateApiary", { name: long })).apiary;
    const hive = (
      await callOk(t, "HiveService/CreateHive", { apiaryId: a.id, name: long, note: long })
    ).hive;
    await callOk(t, "HiveService/UpdateHive", {
      hive: { id: hive.id, name: long, status: "HIVE_STATUS_QUEENLESS" },
    });
    await callOk(t, "HiveService/RelocateHive", { id: hive.id, targetApiaryId: b.id });
    await callOk(t, "HarvestService/CreateHarvest", {
      hiveId: hive.id,
      amountKg: 1.5,
      variety: long,
    });
    await callOk(t, "TreatmentService/CreateTreatment", { hiveId: hive.id, product: long });
    await callOk(t, "InspectionService/CreateInspection", { hiveId: hive.id, note: long });
    await callOk(t, "HiveService/UpdateHive", {
      hive: { id: hive.id, name: long, status: "HIVE_STATUS_DISSOLVED" },
    });
    const { changes } = await pullAll(t, head);
    expect(changes.length).toBeGreaterThan(10);
    const refused = changes.flatMap((c, i) => {
      const op = c.op === "CHANGE_OP_DELETE" ? 2 : 1;
      const parsed = parseWireChange({ ...c, op, payloadJson: c.payloadJson ?? "" }, "u", i);
      return "error" in parsed ? [`${c.entity}: ${parsed.error.reason}`] : [];
    });
    expect(refused).toEqual([]);
  });

  it("refuses a field the request does not have with invalid_argument naming it, and writes nothing; snake_case names are fields", async () => {
    const head = await feedHead(t);
    const unknown = "temperatureHiveC";
    const wrong: string[] = [];
    for (const [path, body] of Object.entries(bodies)) {
      const r = await t.call(path, { ...body, [unknown]: 21.5 });
      const message = String(r.body.message);
      if (r.status !== 400 || r.body.code !== "invalid_argument" || !message.includes(unknown)) {
        wrong.push(`${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
    // In a nested message too, named with the message it is not a field of.
    const nested = bodies["HiveService/UpdateHive"] as { hive: object };
    const r = await t.call("HiveService/UpdateHive", { hive: { ...nested.hive, [unknown]: 1 } });
    expect(r.body.code, JSON.stringify(r.body)).toBe("invalid_argument");
    expect(r.body.message).toContain(`"${unknown}"`);
    expect(r.body.message).toContain("hivekeep.v1.Hive");
    expect(wrong).toEqual([]);
    expect((await pullAll(t, head)).changes).toEqual([]);
    // The proto (snake_case) name of a field is as good as its JSON name.
    const hiveId = (bodies["HarvestService/CreateHarvest"] as { hiveId: string }).hiveId;
    const harvest = await callOk(t, "HarvestService/CreateHarvest", {
      hive_id: hiveId,
      amount_kg: 2.5,
      batch_number: "B-7",
    });
    expect(harvest.harvest).toMatchObject({ hiveId, amountKg: 2.5, batchNumber: "B-7" });
  });

  it("ignores a bad value in a field the method does not read", async () => {
    for (const [pair, expected] of Object.entries(fields)) {
      if (expected !== "ignored") continue;
      const [path, field] = pair.split(" ") as [string, string];
      for (const [label, value] of badValues.text) {
        const r = await t.call(path, withField(bodies[path] ?? {}, field, value));
        expect(r.status, `${pair} with ${label}: ${JSON.stringify(r.body).slice(0, 200)}`).toBe(
          200,
        );
      }
    }
  });
});

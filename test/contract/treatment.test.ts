/**
 * TreatmentService against contract §2.2, §4.7, §6, §7 and §8, on every
 * database over HTTP and on a device's local operations (test/support/target.ts).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { TreatmentService } from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  callOk,
  expectError,
  feedReader,
  movedHiveWithTwoQueens,
  newApiary,
  newHive,
  type PageJson,
  withApiaryAndHive,
} from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

describe.each(targetKinds)("TreatmentService on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  let hiveId: string;
  beforeAll(async () => {
    ({ apiaryId, hiveId } = await withApiaryAndHive(t));
  });

  /** Changes written since the last call. */
  const newChanges = feedReader(t);
  const treat = async (body: object) =>
    (await callOk(t, "TreatmentService/CreateTreatment", { hiveId, ...body })).treatment;

  it("creates a treatment with every field over JSON and GetTreatment returns it", async () => {
    const tr = await treat({
      product: "Oxuvar 5.7%",
      activeIngredient: "oxalic acid",
      dose: "50 ml",
      method: "trickling",
      batch_number: "L-22",
      withdrawalUntil: "2026-01-20T00:00:00Z",
      reason: "varroa winter treatment",
      date: "2025-12-20T09:00:00Z",
    });
    expect(tr).toMatchObject({
      hiveId,
      product: "Oxuvar 5.7%",
      activeIngredient: "oxalic acid",
      dose: "50 ml",
      method: "trickling",
      batchNumber: "L-22",
      withdrawalUntil: "2026-01-20T00:00:00Z",
      reason: "varroa winter treatment",
      date: "2025-12-20T09:00:00Z",
      apiaryId,
    });
    expect(tr.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(tr).not.toHaveProperty("queenId");
    expect(await t.call("TreatmentService/GetTreatment", { id: tr.id })).toEqual({
      status: 200,
      body: { treatment: tr },
    });
  });

  it("defaults reason to varroa and date to now; withdrawalUntil stays unset", async () => {
    const before = Date.now();
    const tr = await treat({ product: "Apiguard" });
    expect(tr.reason).toBe("varroa");
    expect(Date.parse(tr.date)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(tr.date)).toBeLessThanOrEqual(Date.now() + 1000);
    for (const f of ["activeIngredient", "dose", "method", "batchNumber", "withdrawalUntil"]) {
      expect(tr, f).not.toHaveProperty(f);
    }
  });

  it("records a TREATMENT event titled with the product, pointing at the treatment", async () => {
    await newChanges();
    const tr = await treat({ product: "Formic acid 60%", date: "2025-08-10T06:00:00Z" });
    const events = (await t.call("EventService/ListEvents", { hiveId, limit: 1000 })).body.events;
    expect(events.find((e: { refId: string }) => e.refId === tr.id)).toMatchObject({
      type: "EVENT_TYPE_TREATMENT",
      title: "Formic acid 60%",
      apiaryId,
      hiveId,
      refEntity: "treatment",
      date: "2025-08-10T06:00:00Z",
    });
    expect((await newChanges()).map((c) => c.entity)).toEqual(["treatment", "event"]);
  });

  it("rejects a missing hiveId or product with invalid_argument and writes nothing", async () => {
    await newChanges();
    const noHive = await t.call("TreatmentService/CreateTreatment", { product: "Apiguard" });
    expect(expectError(noHive, 400)).toEqual({
      code: "invalid_argument",
      message: "hiveId is required",
    });
    for (const product of [undefined, "", "   "]) {
      const r = await t.call("TreatmentService/CreateTreatment", { hiveId, product });
      expect(expectError(r, 400)).toEqual({
        code: "invalid_argument",
        message: "product is required",
      });
    }
    expect(await newChanges()).toEqual([]);
  });

  it("answers not_found for a deleted hive", async () => {
    const gone = await newHive(t, apiaryId, "Gone");
    expect((await t.call("HiveService/DeleteHive", { id: gone })).status).toBe(200);
    const r = await t.call("TreatmentService/CreateTreatment", {
      ...{ product: "Apiguard" },
      hiveId: gone,
    });
    expect(expectError(r, 404).code).toBe("not_found");
  });

  it("answers not_found for an unknown hiveId and writes nothing", async () => {
    await newChanges();
    const r = await t.call("TreatmentService/CreateTreatment", {
      hiveId: "no-such-hive",
      product: "Apiguard",
    });
    expect(expectError(r, 404).code).toBe("not_found");
    expect(await newChanges()).toEqual([]);
  });

  it("answers not_found for GetTreatment of an unknown id, also over binary protobuf", async () => {
    const r = await t.call("TreatmentService/GetTreatment", { id: "no-such-treatment" });
    expect(expectError(r, 404).code).toBe("not_found");
    await expect(t.client(TreatmentService).getTreatment({ id: "" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });

  it("works over binary protobuf with the typed client", async () => {
    const client = t.client(TreatmentService);
    const { treatment } = await client.createTreatment({ hiveId, product: "Thymovar" });
    expect(treatment).toMatchObject({ hiveId, product: "Thymovar", reason: "varroa", apiaryId });
    const { treatments } = await client.listTreatments({ hiveId });
    expect(treatments.map((x) => x.id)).toContain(treatment?.id);
  });
});

describe.each(targetKinds)("CreateTreatment as of its date on %s", (kind) => {
  const t = useTestTarget(kind);

  it("freezes apiaryId and queenId as of date: a back-dated treatment gets the old ones", async () => {
    const { a, b, hive, oldQueen, newQueen } = await movedHiveWithTwoQueens(t);
    const at = async (date?: string) => {
      const body = { hiveId: hive.id, product: "Oxalic acid", date };
      return (await callOk(t, "TreatmentService/CreateTreatment", body)).treatment;
    };
    expect(await at()).toMatchObject({ apiaryId: b, queenId: newQueen });
    expect(await at(hive.createdAt)).toMatchObject({ apiaryId: a, queenId: newQueen });
    const old = await at("2024-08-01T00:00:00Z");
    expect(old).toMatchObject({ apiaryId: a, queenId: oldQueen });
    const events = (await t.call("EventService/ListEvents", { hiveId: hive.id })).body.events;
    expect(events.find((e: { refId: string }) => e.refId === old.id)).toMatchObject({
      type: "EVENT_TYPE_TREATMENT",
      apiaryId: a,
      queenId: oldQueen,
    });
  });
});

describe.each(targetKinds)("ListTreatments on %s", (kind) => {
  const t = useTestTarget(kind);
  let hiveA: string;
  const dates = [3, 1, 4, 1, 5, 9, 2].map((d) => `2025-09-0${d}T12:00:00Z`);
  beforeAll(async () => {
    const apiaryId = await newApiary(t, "L");
    hiveA = await newHive(t, apiaryId, "A");
    const hiveB = await newHive(t, apiaryId, "B");
    for (const date of dates) {
      await t.call("TreatmentService/CreateTreatment", { hiveId: hiveA, product: "P", date });
    }
    await t.call("TreatmentService/CreateTreatment", { hiveId: hiveB, product: "P" });
  });

  type Row = { id: string; date: string; hiveId: string };
  const list = async (body: object): Promise<{ treatments?: Row[]; page: PageJson }> =>
    callOk(t, "TreatmentService/ListTreatments", body);

  it("returns the newest first by date, then by id, filtered by hiveId", async () => {
    const r = await list({ hiveId: hiveA });
    const rows = r.treatments ?? [];
    expect(rows.map((x) => x.date)).toEqual([...dates].sort().reverse());
    expect(rows.every((x) => x.hiveId === hiveA)).toBe(true);
    const sameDay = rows.filter((x) => x.date === "2025-09-01T12:00:00Z").map((x) => x.id);
    expect(sameDay).toEqual([...sameDay].sort().reverse());
    expect(r.page).toEqual({ total: 7 });
  });

  it("lists every treatment of the tenant without hiveId, and none for an unknown hive", async () => {
    expect((await list({})).page.total).toBe(8);
    expect(await list({ hiveId: "no-such-hive" })).toEqual({ page: {} });
  });

  it("pages by offset tokens with total; no nextPageToken on the last page", async () => {
    const p1 = await list({ hiveId: hiveA, page: { pageSize: 4 } });
    expect(p1.page).toEqual({ nextPageToken: "4", total: 7 });
    const p2 = await list({ hive_id: hiveA, page: { page_size: 4, page_token: "4" } });
    expect(p2.treatments).toHaveLength(3);
    expect(p2.page).toEqual({ total: 7 });
    const all = (await list({ hiveId: hiveA })).treatments ?? [];
    expect([...(p1.treatments ?? []), ...(p2.treatments ?? [])]).toEqual(all);
    expect((await list({ page: { pageSize: 100_000 } })).treatments).toHaveLength(8);
    const bad = await t.call("TreatmentService/ListTreatments", { page: { pageToken: "-1" } });
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_argument"]);
  });
});

describe.each(targetKinds)("UpdateTreatment and DeleteTreatment on %s", (kind) => {
  const t = useTestTarget(kind);
  let hiveId: string;
  beforeAll(async () => {
    ({ hiveId } = await withApiaryAndHive(t));
  });
  const newChanges = feedReader(t);
  const treat = async (body: object) =>
    (await callOk(t, "TreatmentService/CreateTreatment", { hiveId, ...body })).treatment;
  const eventsOf = async (hive: string, id: string) =>
    (
      (await t.call("EventService/ListEvents", { hiveId: hive, limit: 1000 })).body.events ?? []
    ).filter((e: { refId: string }) => e.refId === id);
  const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

  it("overwrites with CreateTreatment's rules (reason default varroa), ignores another hiveId; the event keeps the product as its title", async () => {
    const tr = await treat({
      product: "Oxuvar",
      dose: "50 ml",
      reason: "nosema",
      date: "2026-03-01T09:00:00Z",
      withdrawalUntil: "2026-04-01T00:00:00Z",
    });
    const [before] = await eventsOf(hiveId, tr.id);
    await newChanges();
    const sent = { id: tr.id, hiveId: "another", product: "Oxuvar", dose: "40 ml", date: tr.date };
    const { treatment } = await callOk(t, "TreatmentService/UpdateTreatment", { treatment: sent });
    expect(treatment).toEqual({
      ...tr,
      dose: "40 ml",
      reason: "varroa",
      withdrawalUntil: undefined,
    });
    expect(treatment).not.toHaveProperty("withdrawalUntil");
    expect(await t.call("TreatmentService/GetTreatment", { id: tr.id })).toEqual({
      status: 200,
      body: { treatment },
    });
    const changes = await newChanges();
    // The correction's version joins the register's trail as an event created tombstoned
    // (issue 26); the live event, still true, stays.
    expect(changes.map((c) => [c.entity, c.op])).toEqual([
      ["treatment", "CHANGE_OP_UPSERT"],
      ["event", "CHANGE_OP_UPSERT"],
      ["event", "CHANGE_OP_DELETE"],
    ]);
    expect(changes[1]?.entityId).toBe(changes[2]?.entityId);
    expect((await eventsOf(hiveId, tr.id)).map((e: { id: string }) => e.id)).toEqual([before.id]);
    expect(Object.keys(JSON.parse(changes[0]?.payloadJson ?? "{}")).sort()).toEqual([
      "dose",
      "reason",
      "withdrawal_until",
    ]);
    // A new product renames the event: the old one is tombstoned, a true one recorded.
    await callOk(t, "TreatmentService/UpdateTreatment", {
      treatment: { ...sent, product: "Thymol" },
    });
    expect((await newChanges()).map((c) => [c.entity, c.op])).toEqual([
      ["treatment", "CHANGE_OP_UPSERT"],
      ["event", "CHANGE_OP_DELETE"],
      ["event", "CHANGE_OP_UPSERT"],
    ]);
    const events = await eventsOf(hiveId, tr.id);
    expect(events.map((e: { title: string }) => e.title)).toEqual(["Thymol"]);
    expect(events[0].id).not.toBe(before.id);
    // The same values again change nothing.
    await callOk(t, "TreatmentService/UpdateTreatment", {
      treatment: { ...sent, product: "Thymol" },
    });
    expect(await newChanges()).toEqual([]);
  });

  it("a changed date re-freezes the apiary and queen as of it, and the event follows", async () => {
    const { a, b, hive, oldQueen, newQueen } = await movedHiveWithTwoQueens(t);
    const tr = (
      await callOk(t, "TreatmentService/CreateTreatment", { hiveId: hive.id, product: "OA" })
    ).treatment;
    expect(tr).toMatchObject({ apiaryId: b, queenId: newQueen });
    const date = "2024-08-01T00:00:00Z";
    const { treatment } = await callOk(t, "TreatmentService/UpdateTreatment", {
      treatment: { ...tr, date },
    });
    expect(treatment).toMatchObject({ date, apiaryId: a, queenId: oldQueen });
    expect(await eventsOf(hive.id, tr.id)).toEqual([
      expect.objectContaining({
        type: "EVENT_TYPE_TREATMENT",
        date,
        apiaryId: a,
        queenId: oldQueen,
      }),
    ]);
  });

  it("refuses a future date on create and update (withdrawalUntil stays free), names the field, writes nothing", async () => {
    const tr = await treat({ product: "OA" });
    await newChanges();
    const created = await t.call("TreatmentService/CreateTreatment", {
      hiveId,
      product: "OA",
      date: daysFromNow(3),
    });
    expect(expectError(created, 400).message).toBe("date cannot be in the future");
    const updated = await t.call("TreatmentService/UpdateTreatment", {
      treatment: { ...tr, date: daysFromNow(3) },
    });
    expect(expectError(updated, 400)).toEqual({
      code: "invalid_argument",
      message: "treatment.date cannot be in the future",
    });
    expect(await newChanges()).toEqual([]);
    const later = await t.call("TreatmentService/UpdateTreatment", {
      treatment: { ...tr, withdrawalUntil: daysFromNow(60) },
    });
    expect(later.status).toBe(200);
  });

  it("answers invalid_argument for a missing treatment or product, not_found for an unknown id, and writes nothing", async () => {
    await newChanges();
    const missing = await t.call("TreatmentService/UpdateTreatment", {});
    expect(expectError(missing, 400).message).toBe("treatment is required");
    const noProduct = await t.call("TreatmentService/UpdateTreatment", {
      treatment: { id: "no-such-id" },
    });
    expect(expectError(noProduct, 400).message).toBe("treatment.product is required");
    for (const [method, body] of [
      ["UpdateTreatment", { treatment: { id: "no-such-id", product: "OA" } }],
      ["DeleteTreatment", { id: "no-such-id" }],
    ] as const) {
      const r = await t.call(`TreatmentService/${method}`, body);
      expect(expectError(r, 404).code, method).toBe("not_found");
    }
    expect(await newChanges()).toEqual([]);
  });

  it("DeleteTreatment returns {}, tombstones the treatment and its event in the feed; a second delete is not_found", async () => {
    const tr = await treat({ product: "Wrong hive" });
    const [event] = await eventsOf(hiveId, tr.id);
    await newChanges();
    const client = t.client(TreatmentService);
    expect(await client.deleteTreatment({ id: tr.id })).toBeDefined();
    expect((await t.call("TreatmentService/GetTreatment", { id: tr.id })).status).toBe(404);
    expect(await eventsOf(hiveId, tr.id)).toEqual([]);
    expect((await newChanges()).map((c) => [c.entity, c.entityId, c.op])).toEqual([
      ["treatment", tr.id, "CHANGE_OP_UPSERT"], // deleted_by, deleted_at (issue 26)
      ["treatment", tr.id, "CHANGE_OP_DELETE"],
      ["event", event.id, "CHANGE_OP_DELETE"],
    ]);
    expect(await t.call("TreatmentService/DeleteTreatment", { id: tr.id })).toMatchObject({
      status: 404,
    });
    await expect(client.deleteTreatment({ id: tr.id })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });
});

describe.each(targetKinds)("supplier and the treatment register (issue 26) on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  let hiveId: string;
  beforeAll(async () => {
    ({ apiaryId, hiveId } = await withApiaryAndHive(t));
  });
  const register = async (body: object) =>
    (await callOk(t, "TreatmentService/GetTreatmentRegister", body)).entries ?? [];

  it("CreateTreatment and UpdateTreatment take a supplier; a treatment without one has none", async () => {
    const tr = (
      await callOk(t, "TreatmentService/CreateTreatment", {
        hiveId,
        product: "Oxuvar",
        supplier: "Apotheke am Markt",
        date: "2025-12-20T09:00:00Z",
      })
    ).treatment;
    expect(tr.supplier).toBe("Apotheke am Markt");
    const { treatment } = await callOk(t, "TreatmentService/UpdateTreatment", {
      treatment: { ...tr, supplier: "Imkerbedarf Nord" },
    });
    expect(treatment).toEqual({ ...tr, supplier: "Imkerbedarf Nord" });
    const typed = await t.client(TreatmentService).getTreatment({ id: tr.id });
    expect(typed.treatment?.supplier).toBe("Imkerbedarf Nord");
    const plain = (await callOk(t, "TreatmentService/CreateTreatment", { hiveId, product: "OA" }))
      .treatment;
    expect(plain).not.toHaveProperty("supplier");
  });

  it("keeps every version of a corrected treatment and a deleted one, with who and when, oldest first", async () => {
    const { hiveId: hive2, apiaryId: apiary2 } = await withApiaryAndHive(t);
    const first = (
      await callOk(t, "TreatmentService/CreateTreatment", {
        hiveId,
        product: "Oxuvar",
        dose: "50 ml",
        batchNumber: "L-1",
        supplier: "Apotheke",
        date: "2023-03-01T09:00:00Z",
      })
    ).treatment;
    const wrong = (
      await callOk(t, "TreatmentService/CreateTreatment", {
        hiveId: hive2,
        product: "Thymol",
        date: "2023-04-01T09:00:00Z",
      })
    ).treatment;
    await callOk(t, "TreatmentService/CreateTreatment", {
      hiveId,
      product: "Other year",
      date: "2022-04-01T09:00:00Z",
    });
    await callOk(t, "TreatmentService/UpdateTreatment", {
      treatment: { ...first, dose: "40 ml" },
    });
    await callOk(t, "TreatmentService/DeleteTreatment", { id: wrong.id });

    const entries = await register({ year: 2023 });
    expect(entries.map((e: { treatment: { id: string } }) => e.treatment.id)).toEqual([
      first.id,
      wrong.id,
    ]);
    const [corrected, deleted] = entries;
    expect(corrected.treatment).toMatchObject({ dose: "40 ml", supplier: "Apotheke", apiaryId });
    expect(corrected).not.toHaveProperty("deleted");
    expect(
      corrected.versions.map((v: { treatment: { dose: string } }) => v.treatment.dose),
    ).toEqual(["50 ml", "40 ml"]);
    for (const v of corrected.versions) {
      expect(v.authorId).toBe(t.userId);
      expect(Date.parse(v.writtenAt)).not.toBeNaN();
      expect(v.treatment).toMatchObject({ batchNumber: "L-1", supplier: "Apotheke", hiveId });
    }
    expect(deleted).toMatchObject({
      deleted: true,
      deletedBy: t.userId,
      treatment: { product: "Thymol", apiaryId: apiary2 },
    });
    expect(Date.parse(deleted.deletedAt)).not.toBeNaN();
    expect(deleted.versions).toHaveLength(1);

    const ofApiary = await register({ year: 2023, apiaryId: apiary2 });
    expect(ofApiary.map((e: { treatment: { id: string } }) => e.treatment.id)).toEqual([wrong.id]);
    expect((await register({})).length).toBeGreaterThanOrEqual(3);
    // The deleted treatment stays deleted for the contract's own reads.
    expect((await t.call("TreatmentService/GetTreatment", { id: wrong.id })).status).toBe(404);
  });

  it("refuses a year out of range with invalid_argument", async () => {
    const r = await t.call("TreatmentService/GetTreatmentRegister", { year: 12000 });
    expect(expectError(r, 400).code).toBe("invalid_argument");
  });
});

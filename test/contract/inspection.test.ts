/**
 * InspectionService against contract §1, §2, §4.4, §6, §7 and §8, on every
 * database over HTTP and on a device's local operations (test/support/target.ts).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { type Change, formatHlc } from "@hivekeep/client-core/core";
import { InspectionService, Stores } from "@hivekeep/proto";
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

const prefix = "data:image/png;base64,";
const maxPhoto = 512 * 1024;
const photo = (tag: string): string => `${prefix}${Buffer.from(tag).toString("base64")}`;

describe.each(targetKinds)("InspectionService on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  let hiveId: string;
  beforeAll(async () => {
    ({ apiaryId, hiveId } = await withApiaryAndHive(t));
  });

  /** Changes written since the last call (the whole feed is read in order). */
  const newChanges = feedReader(t);
  const inspect = async (body: object) =>
    (await callOk(t, "InspectionService/CreateInspection", { hiveId, ...body })).inspection;

  it("creates an inspection with every stock-card field over JSON; enums answer by name; GetInspection returns it", async () => {
    const i = await inspect({
      date: "2026-05-19T08:00:00Z",
      note: "calm colony",
      weather: "sunny",
      queen_seen: true,
      eggsSeen: true,
      coveredLarva: true,
      frames: 10,
      broodFrames: 6,
      stores: "STORES_GOOD",
      temperament: 2,
      calmness: 4,
      queenCells: 1,
      varroa: "3/day",
      superAdded: true,
    });
    expect(i).toMatchObject({
      hiveId,
      apiaryId,
      date: "2026-05-19T08:00:00Z",
      note: "calm colony",
      weather: "sunny",
      queenSeen: true,
      eggsSeen: true,
      coveredLarva: true,
      frames: 10,
      broodFrames: 6,
      stores: "STORES_GOOD",
      temperament: "TEMPERAMENT_GENTLE",
      calmness: 4,
      queenCells: 1,
      varroa: "3/day",
      superAdded: true,
    });
    expect(i.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(i.organizationId).toBe(t.organizationId);
    expect(i.createdAt).toMatch(/Z$/);
    // No queen reigned and no photos: default values are omitted (§2.1.4).
    expect(i).not.toHaveProperty("queenId");
    expect(i).not.toHaveProperty("photoKeys");
    expect(await t.call("InspectionService/GetInspection", { id: i.id })).toEqual({
      status: 200,
      body: { inspection: i },
    });
  });

  it("accepts a measurement-only inspection from a scale: hiveId and measurement fields alone", async () => {
    const before = Date.now();
    const body = {
      hiveId,
      weightKg: 42.5,
      tempHive: 34.8,
      tempOutside: -3.5,
      humidityHive: 61,
      humidityOutside: 78.5,
    };
    const r = await t.call("InspectionService/CreateInspection", body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const i = r.body.inspection;
    expect(i).toMatchObject({ ...body, apiaryId });
    // date defaults to now (§2.1.3); everything left out is stored as its default (§2.1.5).
    expect(Date.parse(i.date)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(i.date)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(Object.keys(i).sort()).toEqual(
      [...Object.keys(body), "id", "organizationId", "apiaryId", "date", "createdAt"].sort(),
    );
  });

  it("records an INSPECTION event with the frozen ids, refEntity inspection and refId the inspection", async () => {
    await newChanges();
    const i = await inspect({ date: "2026-05-01T07:00:00Z", note: "for the event" });
    const events = (await t.call("EventService/ListEvents", { hiveId, limit: 1000 })).body.events;
    const e = events.find((x: { refId: string }) => x.refId === i.id);
    expect(e).toMatchObject({
      type: "EVENT_TYPE_INSPECTION",
      apiaryId,
      hiveId,
      refEntity: "inspection",
      refId: i.id,
      title: "Inspection",
      date: "2026-05-01T07:00:00Z",
    });
    expect(e.authorId).toBe(t.userId);
    // Both rows reach devices through the change feed (§4.11.1).
    expect((await newChanges()).map((c) => c.entity)).toEqual(["inspection", "event"]);
  });

  it("rejects a missing hiveId with invalid_argument and writes nothing", async () => {
    await newChanges();
    for (const body of [{}, { hiveId: "", weightKg: 40 }]) {
      const r = await t.call("InspectionService/CreateInspection", body);
      expect(expectError(r, 400)).toEqual({
        code: "invalid_argument",
        message: "hiveId is required",
      });
    }
    expect(await newChanges()).toEqual([]);
  });

  it("answers not_found for a deleted hive", async () => {
    const gone = await newHive(t, apiaryId, "Gone");
    expect((await t.call("HiveService/DeleteHive", { id: gone })).status).toBe(200);
    const r = await t.call("InspectionService/CreateInspection", { ...{}, hiveId: gone });
    expect(expectError(r, 404).code).toBe("not_found");
  });

  it("answers not_found for an unknown hiveId and writes nothing", async () => {
    await newChanges();
    const r = await t.call("InspectionService/CreateInspection", { hiveId: "no-such-hive" });
    expect(expectError(r, 404).code).toBe("not_found");
    expect(await newChanges()).toEqual([]);
  });

  it("rejects values a device could not push either (negative counts, unknown enum numbers, NaN)", async () => {
    await newChanges();
    for (const bad of [
      { frames: -1 },
      { stores: 42 },
      { weightKg: "NaN" },
      { tempHive: "Infinity" },
    ]) {
      const r = await t.call("InspectionService/CreateInspection", { hiveId, ...bad });
      expect(expectError(r, 400).code, JSON.stringify(bad)).toBe("invalid_argument");
    }
    expect(await newChanges()).toEqual([]);
  });

  it("answers not_found for GetInspection of an unknown id", async () => {
    const r = await t.call("InspectionService/GetInspection", { id: "no-such-inspection" });
    expect(expectError(r, 404).code).toBe("not_found");
  });

  describe("photos", () => {
    let inspectionId: string;
    beforeAll(async () => {
      inspectionId = (await inspect({ note: "with photos" })).id;
    });
    const add = (p: string, id = inspectionId) =>
      t.call("InspectionService/AddInspectionPhoto", { inspectionId: id, photo: p });
    const remove = (p: string, id = inspectionId) =>
      t.call("InspectionService/RemoveInspectionPhoto", { inspectionId: id, photo: p });

    it("AddInspectionPhoto stores a data:image/ URL and returns the inspection with photoKeys, oldest first", async () => {
      const r1 = await add(photo("one"));
      expect(r1.status).toBe(200);
      expect(r1.body.inspection).toMatchObject({ id: inspectionId, photoKeys: [photo("one")] });
      const r2 = await add(photo("two"));
      expect(r2.body.inspection.photoKeys).toEqual([photo("one"), photo("two")]);
      const got = await t.call("InspectionService/GetInspection", { id: inspectionId });
      expect(got.body.inspection.photoKeys).toEqual([photo("one"), photo("two")]);
    });

    it("accepts a photo of exactly 512 KiB including the prefix", async () => {
      const atLimit = prefix + "A".repeat(maxPhoto - prefix.length);
      const r = await add(atLimit);
      expect(r.status).toBe(200);
      expect(r.body.inspection.photoKeys).toContain(atLimit);
      expect((await remove(atLimit)).status).toBe(200);
    });

    it("rejects a photo over 512 KiB (UTF-8 bytes, prefix included) with invalid_argument and writes nothing", async () => {
      await newChanges();
      const oneOver = prefix + "A".repeat(maxPhoto - prefix.length + 1);
      expect(expectError(await add(oneOver), 400)).toEqual({
        code: "invalid_argument",
        message: `photo must be at most ${maxPhoto} bytes including the prefix (has ${maxPhoto + 1})`,
      });
      // Fewer than 512 Ki characters, but more than 512 KiB in UTF-8.
      const multiByte = prefix + "é".repeat(maxPhoto / 2);
      expect(expectError(await add(multiByte), 400).code).toBe("invalid_argument");
      expect(await newChanges()).toEqual([]);
    });

    it("rejects a photo that is not a data:image/ URL with invalid_argument and writes nothing", async () => {
      await newChanges();
      for (const bad of [
        "",
        "https://example.com/a.png",
        "data:text/plain;base64,aGk=",
        " data:image/png,x",
      ]) {
        expect(expectError(await add(bad), 400).code, bad).toBe("invalid_argument");
      }
      expect(await newChanges()).toEqual([]);
    });

    it("adding a photo that is already stored keeps one copy and writes nothing", async () => {
      await newChanges();
      const r = await add(photo("one"));
      expect(r.status).toBe(200);
      expect(r.body.inspection.photoKeys.filter((p: string) => p === photo("one"))).toHaveLength(1);
      expect(await newChanges()).toEqual([]);
    });

    it("RemoveInspectionPhoto removes the exact stored value and travels as an OR-set removal", async () => {
      await newChanges();
      const r = await remove(photo("one"));
      expect(r.status).toBe(200);
      expect(r.body.inspection.photoKeys).toEqual([photo("two")]);
      const [change, ...rest] = await newChanges();
      expect(rest).toEqual([]);
      expect(change?.entity).toBe("inspection");
      const patch = JSON.parse(change?.payloadJson ?? "{}").photo_keys;
      expect(Object.keys(patch)).toEqual(["remove"]);
      expect(patch.remove).toHaveLength(1);
    });

    it("removing a photo that is not stored succeeds without a change", async () => {
      await newChanges();
      const r = await remove(photo("never added"));
      expect(r.status).toBe(200);
      expect(r.body.inspection.photoKeys).toEqual([photo("two")]);
      expect(await newChanges()).toEqual([]);
      // The last photo removed: photoKeys (an empty list) is omitted.
      expect((await remove(photo("two"))).body.inspection).not.toHaveProperty("photoKeys");
    });

    it("holds at most 20 photos: the 21st is invalid_argument and writes nothing; after a removal one fits again", async () => {
      const id = (await inspect({ note: "many photos" })).id;
      for (let i = 0; i < 20; i++) expect((await add(photo(`cap ${i}`), id)).status).toBe(200);
      await newChanges();
      const r = expectError(await add(photo("cap 20"), id), 400);
      expect(r).toEqual({
        code: "invalid_argument",
        message: "photo cannot be added: an inspection holds at most 20 photos; remove one first",
      });
      expect(await newChanges()).toEqual([]);
      // Adding one it already holds still writes nothing and succeeds.
      expect((await add(photo("cap 3"), id)).status).toBe(200);
      expect((await remove(photo("cap 0"), id)).status).toBe(200);
      const after = await add(photo("cap 20"), id);
      expect(after.status).toBe(200);
      expect(after.body.inspection.photoKeys).toHaveLength(20);
    });

    // Issue 27: the cap counts the entries the set stores, one per add, as Push does.
    it("counts every stored copy: one photo under 20 stamps fills an inspection; removing it names at most 20 tags a change", async () => {
      const id = (await inspect({ note: "copies" })).id;
      const copies = (n: number, from: number): Change[] =>
        Array.from({ length: n }, (_, i) => ({
          entity: "inspection",
          entityId: id,
          scopeId: apiaryId,
          op: "upsert",
          payload: { photo_keys: { add: [photo("copy")] } },
          hlc: formatHlc({ ms: Date.now() - 60_000 + from + i, counter: 0, node: "other" }),
          authorId: t.userId,
        }));
      // Written elsewhere without the check (as before the cap counted copies).
      await t.seed(copies(20, 0));
      const got = await callOk(t, "InspectionService/GetInspection", { id });
      expect(got.inspection.photoKeys).toEqual([photo("copy")]);
      await newChanges();
      expect(expectError(await add(photo("new"), id), 400)).toEqual({
        code: "invalid_argument",
        message: "photo cannot be added: an inspection holds at most 20 photos; remove one first",
      });
      expect(await newChanges()).toEqual([]);

      // Over the cap: the removal of 25 copies goes out as 20 tags, then 5.
      await t.seed(copies(5, 20));
      const r = await remove(photo("copy"), id);
      expect(r.status).toBe(200);
      expect(r.body.inspection).not.toHaveProperty("photoKeys");
      // (The server's feed also holds the 5 seeded copies.)
      const removals = (await newChanges()).flatMap((c) => {
        const remove = JSON.parse(c.payloadJson ?? "{}").photo_keys?.remove;
        return remove === undefined ? [] : [remove.length];
      });
      expect(removals).toEqual([20, 5]);
      expect((await add(photo("new"), id)).body.inspection.photoKeys).toEqual([photo("new")]);
    });

    it("answers not_found for an unknown inspectionId on both photo operations", async () => {
      expect(expectError(await add(photo("x"), "no-such-inspection"), 404).code).toBe("not_found");
      expect(expectError(await remove(photo("x"), "no-such-inspection"), 404).code).toBe(
        "not_found",
      );
      expect(expectError(await add(photo("x"), ""), 404).code).toBe("not_found");
    });
  });

  it("works over binary protobuf with the typed client", async () => {
    const client = t.client(InspectionService);
    const { inspection } = await client.createInspection({
      hiveId,
      weightKg: 39.9,
      stores: Stores.LOW,
    });
    expect(inspection?.stores).toBe(Stores.LOW);
    const withPhoto = await client.addInspectionPhoto({
      inspectionId: inspection?.id ?? "",
      photo: photo("binary"),
    });
    expect(withPhoto.inspection?.photoKeys).toEqual([photo("binary")]);
    await expect(client.getInspection({ id: "nope" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });
});

describe.each(targetKinds)("CreateInspection as of its date on %s", (kind) => {
  const t = useTestTarget(kind);

  it("stores the apiary and reigning queen as of date: a back-dated inspection gets the old ones", async () => {
    const { a, b, hive, oldQueen, newQueen } = await movedHiveWithTwoQueens(t);
    const at = async (date?: string) => {
      const body = { hiveId: hive.id, date };
      return (await callOk(t, "InspectionService/CreateInspection", body)).inspection;
    };
    // Now: apiary B, the new queen.
    expect(await at()).toMatchObject({ apiaryId: b, queenId: newQueen });
    // While it still stood at A (the moment it was created), after the second queen came.
    expect(await at(hive.createdAt)).toMatchObject({ apiaryId: a, queenId: newQueen });
    // Back-dated into the old queen's reign: apiary A (its first placement) and the old queen.
    const old = await at("2024-08-01T00:00:00Z");
    expect(old).toMatchObject({ apiaryId: a, queenId: oldQueen });
    // Before any queen: none.
    expect(await at("2024-01-01T00:00:00Z")).not.toHaveProperty("queenId");
    // The event carries the same frozen ids.
    const events = (await t.call("EventService/ListEvents", { hiveId: hive.id })).body.events;
    expect(events.find((e: { refId: string }) => e.refId === old.id)).toMatchObject({
      type: "EVENT_TYPE_INSPECTION",
      apiaryId: a,
      queenId: oldQueen,
    });
  });
});

describe.each(targetKinds)("ListInspections on %s", (kind) => {
  const t = useTestTarget(kind);
  let hiveA: string;
  let hiveB: string;
  const dates = [3, 1, 4, 1, 5, 9, 2].map((d) => `2026-03-0${d}T12:00:00.000Z`);
  beforeAll(async () => {
    const apiaryId = await newApiary(t, "L");
    hiveA = await newHive(t, apiaryId, "A");
    hiveB = await newHive(t, apiaryId, "B");
    for (const date of dates) {
      await t.call("InspectionService/CreateInspection", { hiveId: hiveA, date });
    }
    await t.call("InspectionService/CreateInspection", { hiveId: hiveB, date: dates[0] });
  });

  type Row = { id: string; date: string; hiveId: string };
  const list = async (body: object): Promise<{ inspections?: Row[]; page: PageJson }> =>
    callOk(t, "InspectionService/ListInspections", body);

  it("returns the newest first by date, then by id, filtered by hiveId", async () => {
    const r = await list({ hiveId: hiveA });
    const rows = r.inspections ?? [];
    expect(rows.map((i) => i.date)).toEqual(
      [...dates]
        .sort()
        .reverse()
        .map((d) => d.replace(".000Z", "Z")),
    );
    expect(rows.every((i) => i.hiveId === hiveA)).toBe(true);
    const sameDay = rows.filter((i) => i.date === "2026-03-01T12:00:00Z").map((i) => i.id);
    expect(sameDay).toEqual([...sameDay].sort().reverse());
    expect(r.page).toEqual({ total: 7 });
  });

  it("lists every inspection of the tenant when hiveId is left out, and none for an unknown hive", async () => {
    expect((await list({})).page.total).toBe(8);
    expect(await list({ hiveId: "no-such-hive" })).toEqual({ page: {} });
  });

  it("pages by offset tokens with total; no nextPageToken on the last page", async () => {
    const p1 = await list({ hiveId: hiveA, page: { pageSize: 3 } });
    expect(p1.page).toEqual({ nextPageToken: "3", total: 7 });
    const p2 = await list({ hive_id: hiveA, page: { page_size: 3, page_token: "3" } });
    expect(p2.page).toEqual({ nextPageToken: "6", total: 7 });
    const p3 = await list({ hiveId: hiveA, page: { pageSize: 3, pageToken: "6" } });
    expect(p3.inspections).toHaveLength(1);
    expect(p3.page).toEqual({ total: 7 });
    const all = (await list({ hiveId: hiveA })).inspections ?? [];
    const paged = [...(p1.inspections ?? []), ...(p2.inspections ?? []), ...(p3.inspections ?? [])];
    expect(paged.map((i) => i.id)).toEqual(all.map((i) => i.id));
    expect((await list({ page: { pageSize: 100_000 } })).inspections).toHaveLength(8);
  });

  it("defaults to 50 rows per page", async () => {
    for (let i = 0; i < 43; i++) {
      await t.call("InspectionService/CreateInspection", { hiveId: hiveB, weightKg: 40 + i / 10 });
    }
    const r = await list({});
    expect(r.inspections).toHaveLength(50);
    expect(r.page).toEqual({ nextPageToken: "50", total: 51 });
  });

  it("rejects a malformed page token with invalid_argument", async () => {
    const r = await t.call("InspectionService/ListInspections", { page: { pageToken: "x" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
  });
});

describe.each(targetKinds)("UpdateInspection and DeleteInspection on %s", (kind) => {
  const t = useTestTarget(kind);
  let hiveId: string;
  beforeAll(async () => {
    ({ hiveId } = await withApiaryAndHive(t));
  });
  const newChanges = feedReader(t);
  const inspect = async (body: object) =>
    (await callOk(t, "InspectionService/CreateInspection", { hiveId, ...body })).inspection;
  const eventsOf = async (hive: string, id: string) =>
    (
      (await t.call("EventService/ListEvents", { hiveId: hive, limit: 1000 })).body.events ?? []
    ).filter((e: { refId: string }) => e.refId === id);
  const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

  it("overwrites the fields (left out: default), ignores another hiveId, keeps photos and createdAt; the feed carries only what changed", async () => {
    const i = await inspect({ date: "2026-05-01T07:00:00Z", note: "tpyo", frames: 8, varroa: "3" });
    await callOk(t, "InspectionService/AddInspectionPhoto", {
      inspectionId: i.id,
      photo: photo("p"),
    });
    await newChanges();
    const sent = { id: i.id, hiveId: "another-hive", date: i.date, note: "typo", frames: 8 };
    const { inspection } = await callOk(t, "InspectionService/UpdateInspection", {
      inspection: sent,
    });
    expect(inspection).toEqual({
      ...i,
      note: "typo",
      varroa: undefined,
      photoKeys: [photo("p")],
    });
    expect(inspection).not.toHaveProperty("varroa");
    expect(await t.call("InspectionService/GetInspection", { id: i.id })).toEqual({
      status: 200,
      body: { inspection },
    });
    // The event is still true: only the inspection's changed columns travel.
    const changes = await newChanges();
    expect(changes.map((c) => [c.entity, c.op])).toEqual([["inspection", "CHANGE_OP_UPSERT"]]);
    expect(Object.keys(JSON.parse(changes[0]?.payloadJson ?? "{}")).sort()).toEqual([
      "note",
      "varroa",
    ]);
    // Saving it again unchanged writes nothing.
    await callOk(t, "InspectionService/UpdateInspection", { inspection: sent });
    expect(await newChanges()).toEqual([]);
  });

  it("a changed date re-freezes the apiary and queen as of it; the old event is tombstoned and a true one recorded", async () => {
    const { a, b, hive, oldQueen, newQueen } = await movedHiveWithTwoQueens(t);
    const i = (await callOk(t, "InspectionService/CreateInspection", { hiveId: hive.id }))
      .inspection;
    expect(i).toMatchObject({ apiaryId: b, queenId: newQueen });
    const [before] = await eventsOf(hive.id, i.id);
    await newChanges();
    const date = "2024-08-01T00:00:00Z";
    const { inspection } = await callOk(t, "InspectionService/UpdateInspection", {
      inspection: { ...i, date },
    });
    expect(inspection).toMatchObject({ id: i.id, date, apiaryId: a, queenId: oldQueen });
    const changes = await newChanges();
    expect(changes.map((c) => [c.entity, c.op, c.scopeId])).toEqual([
      ["inspection", "CHANGE_OP_UPSERT", a],
      ["event", "CHANGE_OP_DELETE", b],
      ["event", "CHANGE_OP_UPSERT", a],
    ]);
    expect(changes[1]?.entityId).toBe(before.id);
    const events = await eventsOf(hive.id, i.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "EVENT_TYPE_INSPECTION",
      date,
      apiaryId: a,
      queenId: oldQueen,
      title: "Inspection",
    });
    expect((await t.call("EventService/GetEvent", { id: before.id })).status).toBe(404);
    // Before any queen: none.
    const none = await callOk(t, "InspectionService/UpdateInspection", {
      inspection: { ...i, date: "2024-01-01T00:00:00Z" },
    });
    expect(none.inspection).not.toHaveProperty("queenId");
  });

  it("refuses a future date (more than a day ahead) on create and update with invalid_argument naming the field, and writes nothing", async () => {
    const i = await inspect({ note: "today" });
    await newChanges();
    const created = await t.call("InspectionService/CreateInspection", {
      hiveId,
      date: daysFromNow(3),
    });
    expect(expectError(created, 400)).toEqual({
      code: "invalid_argument",
      message: "date cannot be in the future",
    });
    const updated = await t.call("InspectionService/UpdateInspection", {
      inspection: { ...i, date: daysFromNow(3) },
    });
    expect(expectError(updated, 400)).toEqual({
      code: "invalid_argument",
      message: "inspection.date cannot be in the future",
    });
    expect(await newChanges()).toEqual([]);
    // A day of tolerance for clocks and time zones.
    expect(
      (await t.call("InspectionService/CreateInspection", { hiveId, date: daysFromNow(0.5) }))
        .status,
    ).toBe(200);
  });

  it("answers invalid_argument for a missing inspection or a bad field, not_found for an unknown id, and writes nothing", async () => {
    await newChanges();
    const missing = await t.call("InspectionService/UpdateInspection", {});
    expect(expectError(missing, 400).message).toBe("inspection is required");
    const bad = await t.call("InspectionService/UpdateInspection", {
      inspection: { id: "no-such-id", frames: -1 },
    });
    expect(expectError(bad, 400).code).toBe("invalid_argument");
    for (const [method, body] of [
      ["UpdateInspection", { inspection: { id: "no-such-id", note: "x" } }],
      ["UpdateInspection", { inspection: { note: "x" } }],
      ["DeleteInspection", { id: "no-such-id" }],
      ["DeleteInspection", {}],
    ] as const) {
      const r = await t.call(`InspectionService/${method}`, body);
      expect(expectError(r, 404).code, method).toBe("not_found");
    }
    expect(await newChanges()).toEqual([]);
  });

  it("DeleteInspection returns {}, tombstones the inspection and its event in the feed; a second delete is not_found", async () => {
    const i = await inspect({ note: "wrong hive" });
    const [event] = await eventsOf(hiveId, i.id);
    await newChanges();
    expect(await t.call("InspectionService/DeleteInspection", { id: i.id })).toEqual({
      status: 200,
      body: {},
    });
    expect((await t.call("InspectionService/GetInspection", { id: i.id })).status).toBe(404);
    expect(await eventsOf(hiveId, i.id)).toEqual([]);
    expect((await newChanges()).map((c) => [c.entity, c.entityId, c.op])).toEqual([
      ["inspection", i.id, "CHANGE_OP_DELETE"],
      ["event", event.id, "CHANGE_OP_DELETE"],
    ]);
    const listed = (await t.call("InspectionService/ListInspections", { hiveId })).body.inspections;
    expect(listed.map((x: { id: string }) => x.id)).not.toContain(i.id);
    expect((await t.call("InspectionService/DeleteInspection", { id: i.id })).status).toBe(404);
    await expect(t.client(InspectionService).deleteInspection({ id: i.id })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });
});

/**
 * QueenService against contract §2.2, §3, §4.5, §6, §7 and §8, on every
 * database over HTTP and on a device's local operations (test/support/target.ts).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { MarkingColor, QueenService } from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { callOk, feedHead, newApiary, newHive, pullAll } from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

describe.each(targetKinds)("QueenService on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  const createQueen = async (body: Record<string, unknown>) =>
    (await callOk(t, "QueenService/CreateQueen", body)).queen;

  beforeAll(async () => {
    apiaryId = await newApiary(t, "Lindenhof");
  });

  it("creates a queen with every field; active, and GetQueen returns the same record", async () => {
    const hiveId = await newHive(t, apiaryId, "Every field");
    const q = await createQueen({
      hiveId,
      year: 2025,
      marking: "MARKING_COLOR_RED",
      origin: "own rearing",
      breederNumber: "B-17",
      introducedAt: "2025-06-01T08:00:00Z",
      note: "calm line",
    });
    expect(q).toMatchObject({
      hiveId,
      year: 2025,
      marking: "MARKING_COLOR_RED",
      origin: "own rearing",
      breederNumber: "B-17",
      introducedAt: "2025-06-01T08:00:00Z",
      active: true,
      note: "calm line",
    });
    expect(q.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(q.organizationId).toBe(t.organizationId);
    expect(q.createdAt).toMatch(/Z$/);
    expect(q.updatedAt).toBe(q.createdAt);
    // Never replaced: replacedAt is unset and omitted (§2.1.4).
    expect(q).not.toHaveProperty("replacedAt");
    expect(await t.call("QueenService/GetQueen", { id: q.id })).toEqual({
      status: 200,
      body: { queen: q },
    });
  });

  it("defaults the marking by the last digit of the year: 1/6 white, 2/7 yellow, 3/8 red, 4/9 green, 5/0 blue", async () => {
    const hiveId = await newHive(t, apiaryId, "Markings");
    const expected: Record<number, string> = {
      1: "WHITE",
      6: "WHITE",
      2: "YELLOW",
      7: "YELLOW",
      3: "RED",
      8: "RED",
      4: "GREEN",
      9: "GREEN",
      5: "BLUE",
      0: "BLUE",
    };
    // Ten years up to 2026, every last digit once (a queen's year cannot be in the future).
    for (let year = 2017; year <= 2026; year++) {
      const q = await createQueen({ hiveId, year });
      expect(q.marking, String(year)).toBe(`MARKING_COLOR_${expected[year % 10]}`);
    }
  });

  it("defaults introducedAt to now and stores left-out fields as defaults", async () => {
    const hiveId = await newHive(t, apiaryId, "Defaults");
    const before = Date.now();
    const q = await createQueen({ hive_id: hiveId, year: 2026 });
    expect(Date.parse(q.introducedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(q.introducedAt)).toBeLessThanOrEqual(Date.now() + 1000);
    for (const f of ["origin", "breederNumber", "note", "replacedAt"]) {
      expect(q, f).not.toHaveProperty(f);
    }
  });

  it("accepts the marking as an enum number and answers with its name", async () => {
    const q = await createQueen({
      hiveId: await newHive(t, apiaryId, "Number"),
      year: 2021,
      marking: 4,
    });
    expect(q.marking).toBe("MARKING_COLOR_GREEN");
  });

  it("replaces the reigning queen: A becomes inactive with replacedAt = B's introducedAt, B is active", async () => {
    const hiveId = await newHive(t, apiaryId, "Chain");
    const a = await createQueen({ hiveId, year: 2024, introducedAt: "2024-05-01T00:00:00Z" });
    const b = await createQueen({ hiveId, year: 2026, introducedAt: "2026-04-15T09:30:00Z" });
    expect(b.active).toBe(true);
    const aNow = (await t.call("QueenService/GetQueen", { id: a.id })).body.queen;
    expect(aNow).not.toHaveProperty("active");
    expect(aNow.replacedAt).toBe("2026-04-15T09:30:00Z");
    expect(Date.parse(aNow.updatedAt)).toBeGreaterThanOrEqual(Date.parse(a.updatedAt));
    const active = await t.call("QueenService/ListQueens", { hiveId, onlyActive: true });
    expect(active.body.queens.map((q: { id: string }) => q.id)).toEqual([b.id]);

    // The reigning queen as of a date follows the chain (frozen on harvests and inspections).
    const frozenQueen = async (date: string) =>
      (await t.call("HarvestService/CreateHarvest", { hiveId, amountKg: 1, date })).body.harvest
        ?.queenId;
    expect(await frozenQueen("2025-07-01T00:00:00Z")).toBe(a.id);
    expect(await frozenQueen("2026-04-15T09:30:00Z")).toBe(b.id);
    expect(await frozenQueen("2026-05-01T00:00:00Z")).toBe(b.id);
  });

  it("records QUEEN_REPLACED (old queen) then QUEEN_INTRODUCED (new queen) in the event log and the feed", async () => {
    const hiveId = await newHive(t, apiaryId, "Events");
    const a = await createQueen({ hiveId, year: 2024 });
    const nextCursor = await feedHead(t);
    const b = await createQueen({ hiveId, year: 2026 });

    const events = (await t.call("EventService/ListEvents", { hiveId })).body.events;
    const queenEvents = events.filter((e: { type: string }) =>
      e.type.startsWith("EVENT_TYPE_QUEEN"),
    );
    // Newest first: B's introduction, A's replacement, A's introduction.
    expect(queenEvents.map((e: { type: string; queenId: string }) => [e.type, e.queenId])).toEqual([
      ["EVENT_TYPE_QUEEN_INTRODUCED", b.id],
      ["EVENT_TYPE_QUEEN_REPLACED", a.id],
      ["EVENT_TYPE_QUEEN_INTRODUCED", a.id],
    ]);
    expect(queenEvents[0]).toMatchObject({ apiaryId, hiveId, refEntity: "queen", refId: b.id });
    expect(queenEvents[1]).toMatchObject({ apiaryId, hiveId, refEntity: "queen", refId: a.id });
    expect(queenEvents[1].authorId).toBe(t.userId);

    // The feed of CreateQueen B: A replaced, its event, B, its event, with growing HLCs.
    const { changes } = await pullAll(t, nextCursor);
    expect(changes.map((c) => [c.entity, c.entity === "queen" ? c.entityId : ""])).toEqual([
      ["queen", a.id],
      ["event", ""],
      ["queen", b.id],
      ["event", ""],
    ]);
    expect(changes.every((c) => c.scopeId === apiaryId)).toBe(true);
    const hlcs = changes.map((c) => c.hlc);
    expect([...hlcs].sort()).toEqual(hlcs);
    expect(JSON.parse(changes[0]?.payloadJson ?? "{}")).toMatchObject({
      active: false,
      replaced_at: b.introducedAt,
    });
    expect(JSON.parse(changes[1]?.payloadJson ?? "{}").type).toBe(3); // QUEEN_REPLACED
    expect(JSON.parse(changes[3]?.payloadJson ?? "{}").type).toBe(2); // QUEEN_INTRODUCED
  });

  it("records only QUEEN_INTRODUCED when no queen reigned", async () => {
    const hiveId = await newHive(t, apiaryId, "First queen");
    const nextCursor = await feedHead(t);
    const q = await createQueen({ hiveId, year: 2026 });
    const { changes } = await pullAll(t, nextCursor);
    expect(changes.map((c) => c.entity)).toEqual(["queen", "event"]);
    const events = (await t.call("EventService/ListEvents", { queenId: q.id })).body.events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(["EVENT_TYPE_QUEEN_INTRODUCED"]);
  });

  it("rejects a missing hiveId or year with invalid_argument and writes nothing", async () => {
    const hiveId = await newHive(t, apiaryId, "Invalid");
    const nextCursor = await feedHead(t);
    for (const [body, message] of [
      [{ year: 2026 }, "hiveId is required"],
      [{ hiveId }, "year is required"],
      [{ hiveId, year: 0 }, "year is required"],
    ] as const) {
      const r = await t.call("QueenService/CreateQueen", body);
      expect(r.status, message).toBe(400);
      expect(r.body).toEqual({ code: "invalid_argument", message });
    }
    const negative = await t.call("QueenService/CreateQueen", { hiveId, year: -1 });
    expect(negative.body.code).toBe("invalid_argument");
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
  });

  it("answers not_found for an unknown hive on CreateQueen and writes nothing", async () => {
    const nextCursor = await feedHead(t);
    const r = await t.call("QueenService/CreateQueen", { hiveId: "no-such-hive", year: 2026 });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
  });

  it("UpdateQueen overwrites every field; fields left out become defaults", async () => {
    const hiveId = await newHive(t, apiaryId, "Update");
    const q = await createQueen({
      hiveId,
      year: 2025,
      marking: "MARKING_COLOR_RED",
      origin: "bought",
      breederNumber: "X-1",
      introducedAt: "2025-05-01T00:00:00Z",
      note: "n",
    });
    const full = await t.call("QueenService/UpdateQueen", {
      queen: {
        id: q.id,
        hiveId,
        year: 2024,
        marking: "MARKING_COLOR_YELLOW",
        origin: "swarm",
        breederNumber: "Y-2",
        introducedAt: "2024-06-01T00:00:00Z",
        replacedAt: "2026-01-01T00:00:00Z",
        active: false,
        note: "superseded",
      },
    });
    expect(full.status).toBe(200);
    expect(full.body.queen).toMatchObject({
      id: q.id,
      hiveId,
      year: 2024,
      marking: "MARKING_COLOR_YELLOW",
      origin: "swarm",
      breederNumber: "Y-2",
      introducedAt: "2024-06-01T00:00:00Z",
      replacedAt: "2026-01-01T00:00:00Z",
      note: "superseded",
      createdAt: q.createdAt,
    });
    expect(full.body.queen).not.toHaveProperty("active");

    // Only id, hiveId and year: marking takes the colour of the year,
    // introducedAt now, replacedAt unset, active false, texts empty.
    const before = Date.now();
    const bare = await t.call("QueenService/UpdateQueen", {
      queen: { id: q.id, hiveId, year: 2024 },
    });
    expect(bare.status).toBe(200);
    const b = bare.body.queen;
    expect(b).toMatchObject({ id: q.id, hiveId, year: 2024, marking: "MARKING_COLOR_GREEN" });
    for (const f of ["origin", "breederNumber", "note", "replacedAt", "active"]) {
      expect(b, f).not.toHaveProperty(f);
    }
    expect(Date.parse(b.introducedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(await t.call("QueenService/GetQueen", { id: q.id })).toEqual({
      status: 200,
      body: { queen: b },
    });
  });

  it("RelocateHive moves the hive's queens, reigning and replaced, to the scope of the new apiary", async () => {
    const hiveId = await newHive(t, apiaryId, "Wanderer");
    const old = await createQueen({ hiveId, year: 2024, introducedAt: "2024-05-01T00:00:00Z" });
    const reigning = await createQueen({ hiveId, year: 2025 });
    const elsewhere = await newHive(t, apiaryId, "Stays");
    const other = await createQueen({ hiveId: elsewhere, year: 2025 });
    const target = await newApiary(t, "Heide");
    const get = async (id: string) => (await callOk(t, "QueenService/GetQueen", { id })).queen;
    const stored = [await get(old.id), await get(reigning.id)];
    const before = await feedHead(t);
    await callOk(t, "HiveService/RelocateHive", { id: hiveId, targetApiaryId: target });
    const queens = (await pullAll(t, before)).changes.filter((c) => c.entity === "queen");
    expect(queens.map((c) => [c.entityId, c.scopeId]).sort()).toEqual(
      [
        [old.id, target],
        [reigning.id, target],
      ].sort(),
    );
    expect(queens.map((c) => c.entityId)).not.toContain(other.id);
    // Nothing of the queens changes but their scope (and updatedAt).
    for (const q of stored) {
      expect({ ...(await get(q.id)), updatedAt: undefined }).toEqual({
        ...q,
        updatedAt: undefined,
      });
    }
    // Later edits of a queen go to the apiary the hive stands at.
    const mark = await feedHead(t);
    await callOk(t, "QueenService/UpdateQueen", {
      queen: { id: reigning.id, hiveId, year: 2025, active: true, note: "moved" },
    });
    expect((await pullAll(t, mark)).changes.map((c) => c.scopeId)).toEqual([target]);
  });

  it("UpdateQueen never changes hiveId: a different hiveId in the message is ignored", async () => {
    const hiveId = await newHive(t, apiaryId, "Immutable");
    const other = await newHive(t, apiaryId, "Other");
    const q = await createQueen({ hiveId, year: 2026 });
    const nextCursor = await feedHead(t);
    const r = await t.call("QueenService/UpdateQueen", {
      queen: { id: q.id, hiveId: other, year: 2026, active: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.queen.hiveId).toBe(hiveId);
    const { changes } = await pullAll(t, nextCursor);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ entity: "queen", entityId: q.id, scopeId: apiaryId });
    expect(JSON.parse(changes[0]?.payloadJson ?? "{}")).not.toHaveProperty("hive_id");
  });

  it("UpdateQueen fails with invalid_argument when the queen, its hiveId or its year is missing, not_found for an unknown id", async () => {
    const hiveId = await newHive(t, apiaryId, "Update errors");
    const q = await createQueen({ hiveId, year: 2026 });
    const nextCursor = await feedHead(t);
    const missing = await t.call("QueenService/UpdateQueen", {});
    expect(missing).toEqual({
      status: 400,
      body: { code: "invalid_argument", message: "queen is required" },
    });
    const noHive = await t.call("QueenService/UpdateQueen", { queen: { id: q.id, year: 2026 } });
    expect(noHive).toEqual({
      status: 400,
      body: { code: "invalid_argument", message: "queen.hiveId is required" },
    });
    const noYear = await t.call("QueenService/UpdateQueen", { queen: { id: q.id, hiveId } });
    expect(noYear.status).toBe(400);
    expect(noYear.body).toEqual({ code: "invalid_argument", message: "year is required" });
    const unknown = await t.call("QueenService/UpdateQueen", {
      queen: { id: "no-such-queen", hiveId, year: 2026 },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    expect((await pullAll(t, nextCursor)).changes).toEqual([]);
  });

  it("GetQueen answers not_found for an unknown id (JSON and binary)", async () => {
    const r = await t.call("QueenService/GetQueen", { id: "no-such-queen" });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
    await expect(t.client(QueenService).getQueen({ id: "" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });

  it("works over binary protobuf with the typed client", async () => {
    const client = t.client(QueenService);
    const hiveId = await newHive(t, apiaryId, "Binary");
    const { queen } = await client.createQueen({ hiveId, year: 2023 });
    if (!queen) throw new Error("no queen");
    expect(queen.marking).toBe(MarkingColor.RED);
    expect(queen.active).toBe(true);
    const { queen: updated } = await client.updateQueen({ queen: { ...queen, note: "typed" } });
    expect(updated?.note).toBe("typed");
    expect(updated?.introducedAt).toEqual(queen.introducedAt);
    const { queens } = await client.listQueens({ hiveId });
    expect(queens.map((q) => q.id)).toEqual([queen.id]);
  });
});

describe.each(targetKinds)("ListQueens on %s", (kind) => {
  const t = useTestTarget(kind);
  let hiveId: string;
  let otherHiveId: string;
  const ids: Record<string, string> = {};
  const list = async (body: Record<string, unknown>) => {
    const r = await t.call("QueenService/ListQueens", body);
    expect(r.status).toBe(200);
    return r.body;
  };
  const idsOf = (body: { queens?: { id: string }[] }) => (body.queens ?? []).map((q) => q.id);

  beforeAll(async () => {
    const apiaryId = await newApiary(t, "A");
    hiveId = await newHive(t, apiaryId, "H");
    otherHiveId = await newHive(t, apiaryId, "O");
    for (const year of [2022, 2024, 2026]) {
      const r = await t.call("QueenService/CreateQueen", {
        hiveId,
        year,
        introducedAt: `${year}-05-01T00:00:00Z`,
      });
      ids[year] = r.body.queen.id;
    }
    const other = await t.call("QueenService/CreateQueen", { hiveId: otherHiveId, year: 2025 });
    ids.other = other.body.queen.id;
  });

  it("lists a hive's queens newest introducedAt first, with the total", async () => {
    const body = await list({ hiveId });
    expect(idsOf(body)).toEqual([ids[2026], ids[2024], ids[2022]]);
    expect(body.page).toEqual({ total: 3 });
  });

  it("orders by introducedAt, not by creation", async () => {
    const old = (await t.call("QueenService/GetQueen", { id: ids[2022] })).body.queen;
    await t.call("QueenService/UpdateQueen", {
      queen: { ...old, introducedAt: "2026-06-01T00:00:00Z" },
    });
    expect(idsOf(await list({ hiveId }))).toEqual([ids[2022], ids[2026], ids[2024]]);
    await t.call("QueenService/UpdateQueen", { queen: old });
    expect(idsOf(await list({ hiveId }))).toEqual([ids[2026], ids[2024], ids[2022]]);
  });

  it("onlyActive lists only active queens", async () => {
    expect(idsOf(await list({ hiveId, onlyActive: true }))).toEqual([ids[2026]]);
    expect(idsOf(await list({ only_active: true })).sort()).toEqual([ids[2026], ids.other].sort());
  });

  it("lists every queen of the tenant without hiveId, and none for an unknown hive", async () => {
    expect((await list({})).page.total).toBe(4);
    expect(await list({ hiveId: "no-such-hive" })).toEqual({ page: {} });
  });

  it("pages by offset tokens (contract §8)", async () => {
    const p1 = await list({ hiveId, page: { pageSize: 2 } });
    expect(idsOf(p1)).toEqual([ids[2026], ids[2024]]);
    expect(p1.page).toEqual({ nextPageToken: "2", total: 3 });
    const p2 = await list({ hiveId, page: { pageSize: 2, pageToken: "2" } });
    expect(idsOf(p2)).toEqual([ids[2022]]);
    expect(p2.page).toEqual({ total: 3 });
    const bad = await t.call("QueenService/ListQueens", { page: { pageToken: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_argument");
  });
});

describe.each(targetKinds)("a queen's future dates on %s", (kind) => {
  const t = useTestTarget(kind);
  const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
  const nextYear = new Date(Date.now() + 2 * 86_400_000).getUTCFullYear() + 1;
  const thisYear = new Date().getUTCFullYear();

  it("CreateQueen and UpdateQueen refuse a year after the current one and an introducedAt more than a day ahead, naming the field; nothing is written", async () => {
    const hiveId = await newHive(t, await newApiary(t, "Future"), "H");
    const queen = (await callOk(t, "QueenService/CreateQueen", { hiveId, year: thisYear })).queen;
    const head = await feedHead(t);
    const refused: [string, Record<string, unknown>, string][] = [
      ["CreateQueen", { hiveId, year: nextYear }, "year cannot be in the future"],
      [
        "CreateQueen",
        { hiveId, year: thisYear, introducedAt: daysFromNow(3) },
        "introducedAt cannot be in the future",
      ],
      [
        "UpdateQueen",
        { queen: { ...queen, year: nextYear } },
        "queen.year cannot be in the future",
      ],
      [
        "UpdateQueen",
        { queen: { ...queen, introducedAt: daysFromNow(3) } },
        "queen.introducedAt cannot be in the future",
      ],
    ];
    for (const [method, body, message] of refused) {
      const r = await t.call(`QueenService/${method}`, body);
      expect([r.status, r.body.code, r.body.message], method).toEqual([
        400,
        "invalid_argument",
        message,
      ]);
    }
    expect((await pullAll(t, head)).changes).toEqual([]);
    // A day of tolerance for clocks and time zones.
    const soon = await t.call("QueenService/UpdateQueen", {
      queen: { ...queen, introducedAt: daysFromNow(0.5) },
    });
    expect(soon.status).toBe(200);
  });
});

describe.each(targetKinds)("DeleteQueen on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  let hiveId: string;
  const ids: Record<string, string> = {};
  type Ev = { id: string; type: string; refId: string; queenId?: string; detailJson?: string };
  const events = async (): Promise<Ev[]> =>
    (await t.call("EventService/ListEvents", { hiveId, limit: 1000 })).body.events ?? [];
  const queen = async (id: string | undefined) =>
    (await t.call("QueenService/GetQueen", { id })).body.queen;

  beforeAll(async () => {
    apiaryId = await newApiary(t, "Reigns");
    hiveId = await newHive(t, apiaryId, "Dynasty");
    for (const [name, year, introducedAt] of [
      ["q1", 2024, "2024-05-01T00:00:00Z"],
      ["q2", 2025, "2025-06-01T00:00:00Z"],
      ["q3", 2026, "2026-03-01T00:00:00Z"],
    ] as const) {
      ids[name] = (
        await callOk(t, "QueenService/CreateQueen", { hiveId, year, introducedAt })
      ).queen.id;
    }
    ids.inspection = (
      await callOk(t, "InspectionService/CreateInspection", {
        hiveId,
        date: "2025-08-01T00:00:00Z",
      })
    ).inspection.id;
    ids.harvest = (
      await callOk(t, "HarvestService/CreateHarvest", {
        hiveId,
        amountKg: 7,
        variety: "Linden",
        date: "2025-09-01T00:00:00Z",
      })
    ).harvest.id;
    ids.treatment = (
      await callOk(t, "TreatmentService/CreateTreatment", {
        hiveId,
        product: "OA",
        date: "2026-04-01T00:00:00Z",
      })
    ).treatment.id;
  });

  it("a queen who was replaced: the queen she replaced reigns until her end; her events go; the records she froze follow", async () => {
    expect(
      (await callOk(t, "InspectionService/GetInspection", { id: ids.inspection })).inspection
        .queenId,
    ).toBe(ids.q2);
    const head = await feedHead(t);
    expect(await t.call("QueenService/DeleteQueen", { id: ids.q2 })).toEqual({
      status: 200,
      body: {},
    });
    expect((await t.call("QueenService/GetQueen", { id: ids.q2 })).status).toBe(404);
    const q1 = await queen(ids.q1);
    expect(q1.replacedAt).toBe("2026-03-01T00:00:00Z");
    expect(q1).not.toHaveProperty("active");
    const evs = await events();
    expect(evs.filter((e) => e.refId === ids.q2)).toEqual([]);
    // q1's end is now q3's arrival, recorded by a true event.
    const q1Ends = evs.filter((e) => e.refId === ids.q1 && e.type === "EVENT_TYPE_QUEEN_REPLACED");
    expect(q1Ends).toHaveLength(1);
    expect(q1Ends[0]).toMatchObject({ date: "2026-03-01T00:00:00Z", queenId: ids.q1 });
    expect(JSON.parse(q1Ends[0]?.detailJson ?? "{}")).toEqual({ replacedBy: ids.q3 });
    // The inspection and the harvest of her reign now name q1, and so do their events.
    for (const [path, key, id] of [
      ["InspectionService/GetInspection", "inspection", ids.inspection],
      ["HarvestService/GetHarvest", "harvest", ids.harvest],
    ] as const) {
      expect((await callOk(t, path, { id }))[key].queenId, key).toBe(ids.q1);
      const own = evs.filter((e) => e.refId === id);
      expect(
        own.map((e) => e.queenId),
        key,
      ).toEqual([ids.q1]);
    }
    // The feed carries every piece: the queen's and events' tombstones, q1's restored reign, the records.
    const changes = (await pullAll(t, head)).changes;
    expect(changes).toContainEqual(
      expect.objectContaining({ entity: "queen", entityId: ids.q2, op: "CHANGE_OP_DELETE" }),
    );
    expect(
      changes
        .filter((c) => c.entity === "queen" && c.op === "CHANGE_OP_UPSERT")
        .map((c) => c.entityId),
    ).toEqual([ids.q1]);
    expect(new Set(changes.map((c) => c.entity))).toEqual(
      new Set(["queen", "event", "inspection", "harvest"]),
    );
    // The honey figures still count the harvest once.
    const harvests = evs.filter((e) => e.type === "EVENT_TYPE_HARVEST");
    expect(harvests).toHaveLength(1);
  });

  it("the reigning queen: the queen she replaced reigns again (active, no end); one reigning queen", async () => {
    const head = await feedHead(t);
    await callOk(t, "QueenService/DeleteQueen", { id: ids.q3 });
    const q1 = await queen(ids.q1);
    expect(q1).toMatchObject({ active: true });
    expect(q1).not.toHaveProperty("replacedAt");
    const active = (await t.call("QueenService/ListQueens", { hiveId, onlyActive: true })).body
      .queens;
    expect(active.map((q: { id: string }) => q.id)).toEqual([ids.q1]);
    const evs = await events();
    expect(evs.filter((e) => e.type === "EVENT_TYPE_QUEEN_REPLACED")).toEqual([]);
    expect(
      (await callOk(t, "TreatmentService/GetTreatment", { id: ids.treatment })).treatment.queenId,
    ).toBe(ids.q1);
    // q1 alone is written: the server's invariant repair (one reigning queen) finds nothing to do.
    const upserts = (await pullAll(t, head)).changes.filter(
      (c) => c.entity === "queen" && c.op === "CHANGE_OP_UPSERT",
    );
    expect(upserts.map((c) => c.entityId)).toEqual([ids.q1]);
  });

  it("the first queen: with none before her the hive is queenless; her records name no queen", async () => {
    await callOk(t, "QueenService/DeleteQueen", { id: ids.q1 });
    expect((await t.call("QueenService/ListQueens", { hiveId })).body).toEqual({ page: {} });
    for (const [path, key, id] of [
      ["InspectionService/GetInspection", "inspection", ids.inspection],
      ["HarvestService/GetHarvest", "harvest", ids.harvest],
      ["TreatmentService/GetTreatment", "treatment", ids.treatment],
    ] as const) {
      expect((await callOk(t, path, { id }))[key], key).not.toHaveProperty("queenId");
    }
    const evs = await events();
    expect(evs.filter((e) => e.type.startsWith("EVENT_TYPE_QUEEN"))).toEqual([]);
    expect(evs.filter((e) => e.queenId !== undefined)).toEqual([]);
    // A new queen is introduced into the queenless hive as usual.
    const q4 = (await callOk(t, "QueenService/CreateQueen", { hiveId, year: 2026 })).queen;
    expect(q4.active).toBe(true);
  });

  it("answers not_found for an unknown or deleted id and writes nothing", async () => {
    const head = await feedHead(t);
    for (const id of ["no-such-queen", ids.q2, ""]) {
      const r = await t.call("QueenService/DeleteQueen", { id });
      expect([r.status, r.body.code], id).toEqual([404, "not_found"]);
    }
    await expect(t.client(QueenService).deleteQueen({ id: ids.q3 })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
    expect((await pullAll(t, head)).changes).toEqual([]);
  });
});

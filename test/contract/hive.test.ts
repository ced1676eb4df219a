/**
 * HiveService against contract §2, §3 (Hive rows), §4.3, §6, §7 and §8, on
 * every database over HTTP and on a device's local operations (test/support/target.ts).
 * Placements have no service: they are checked in the feed.
 */
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { createHive } from "@hivekeep/client-core/core";
import { HiveService, HiveStatus, HiveType } from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedChanges, seedContext } from "../support/command-seed.ts";
import { feedHead, newApiary, pullAll, type WireChange } from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

const isoOf = (ts: Parameters<typeof timestampDate>[0]) => timestampDate(ts).toISOString();

const noFields = { type: 0, boxes: 0, colonyOrigin: "", note: "", qrCode: "", photo: "" };

interface FeedItem extends WireChange {
  payload: Record<string, unknown>;
}

describe.each(targetKinds)("HiveService on %s", (kind) => {
  const t = useTestTarget(kind);
  let a1: string;
  let a2: string;
  beforeAll(async () => {
    a1 = await newApiary(t, "Lindenhof");
    a2 = await newApiary(t, "Heide");
  });

  /** Every feed item after `cursor`, payloads parsed. */
  const feedSince = async (cursor: string): Promise<FeedItem[]> =>
    (await pullAll(t, cursor)).changes.map((c) => ({ ...c, payload: JSON.parse(c.payloadJson) }));
  const newHive = async (name: string, apiaryId = a1) =>
    (await t.call("HiveService/CreateHive", { apiaryId, name })).body.hive;
  /** A rejected call: its code and status, and nothing reached the feed. */
  const rejects = async (method: string, body: unknown, code: string, status: number) => {
    const before = await feedHead(t);
    const r = await t.call(`HiveService/${method}`, body);
    expect(r.status, method).toBe(status);
    expect(r.body.code, method).toBe(code);
    expect(typeof r.body.message, method).toBe("string");
    expect(await feedSince(before), method).toEqual([]);
    return r.body.message as string;
  };

  it("CreateHive starts ACTIVE, opens a placement and records CREATED, all scoped to the apiary", async () => {
    const before = await feedHead(t);
    const r = await t.call("HiveService/CreateHive", {
      apiaryId: a1,
      name: " Nord ",
      type: "HIVE_TYPE_DADANT",
      boxes: 2,
      colonyOrigin: "swarm",
      note: "calm",
      qrCode: "QR-1",
    });
    expect(r.status).toBe(200);
    const h = r.body.hive;
    expect(h).toMatchObject({
      apiaryId: a1,
      name: "Nord",
      type: "HIVE_TYPE_DADANT",
      status: "HIVE_STATUS_ACTIVE",
      boxes: 2,
      colonyOrigin: "swarm",
      note: "calm",
      qrCode: "QR-1",
    });
    expect(h.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.organizationId).toBe(t.organizationId);
    expect(h).not.toHaveProperty("photo"); // defaults are omitted (§2.1.4)
    const feed = await feedSince(before);
    expect(feed.map((c) => c.entity)).toEqual(["hive", "placement", "event"]);
    expect(feed.every((c) => c.scopeId === a1)).toBe(true);
    const placement = feed[1]?.payload ?? {};
    expect(placement).toMatchObject({ hive_id: h.id, apiary_id: a1, ended_at: null });
    expect(Date.parse(String(placement.started_at))).toBe(Date.parse(h.createdAt));
    expect(feed[2]?.payload).toMatchObject({ type: 1, hive_id: h.id, apiary_id: a1 }); // CREATED
    expect(await t.call("HiveService/GetHive", { id: h.id })).toEqual({
      status: 200,
      body: { hive: h },
    });
  });

  it("CreateHive accepts snake_case names and enum numbers, and stores a data:image/ photo", async () => {
    const photo = "data:image/png;base64,iVBORw0KGgo=";
    const r = await t.call("HiveService/CreateHive", {
      apiary_id: a1,
      name: "Snake",
      type: 1,
      colony_origin: "split",
      qr_code: "Q",
      photo,
    });
    expect(r.body.hive).toMatchObject({
      type: "HIVE_TYPE_ZANDER",
      colonyOrigin: "split",
      qrCode: "Q",
      photo,
    });
    // The limit is 512 KiB including the data URL prefix: exactly that is accepted.
    const prefix = "data:image/png;base64,";
    const max = `${prefix}${"A".repeat(512 * 1024 - prefix.length)}`;
    const atLimit = await t.call("HiveService/CreateHive", {
      apiaryId: a1,
      name: "Max",
      photo: max,
    });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.hive.photo).toBe(max);
  });

  it("CreateHive refuses an empty name, a missing apiaryId, a bad photo or enum (invalid_argument) and an unknown apiary (not_found)", async () => {
    for (const name of ["", "   "]) {
      const msg = await rejects("CreateHive", { apiaryId: a1, name }, "invalid_argument", 400);
      expect(msg).toBe("name is required");
    }
    expect(await rejects("CreateHive", { name: "x" }, "invalid_argument", 400)).toBe(
      "apiaryId is required",
    );
    await rejects(
      "CreateHive",
      { apiaryId: a1, name: "x", photo: "http://x/y.png" },
      "invalid_argument",
      400,
    );
    const big = `data:image/png;base64,${"A".repeat(512 * 1024)}`;
    await rejects("CreateHive", { apiaryId: a1, name: "x", photo: big }, "invalid_argument", 400);
    await rejects("CreateHive", { apiaryId: a1, name: "x", type: 42 }, "invalid_argument", 400);
    await rejects("CreateHive", { apiaryId: "no-such-apiary", name: "x" }, "not_found", 404);
  });

  it("CreateHive and UpdateHive refuse boxes outside the registry's 0 … 20 in the words Push uses (issue 24)", async () => {
    for (const boxes of [-5, 21]) {
      const msg = await rejects(
        "CreateHive",
        { apiaryId: a1, name: "x", boxes },
        "invalid_argument",
        400,
      );
      expect(msg).toBe("boxes must be between 0 and 20");
    }
    const hive = await newHive("Boxes");
    const msg = await rejects(
      "UpdateHive",
      { hive: { ...hive, boxes: -5 } },
      "invalid_argument",
      400,
    );
    expect(msg).toBe("hive.boxes must be between 0 and 20");
    const apiary = await t.call("ApiaryService/CreateApiary", { name: "Far", lat: 1e308 });
    expect(apiary.body).toEqual({
      code: "invalid_argument",
      message: "lat must be between -90 and 90",
    });
  });

  it("GetHive answers not_found for an unknown id, also over binary protobuf", async () => {
    await rejects("GetHive", { id: "no-such-hive" }, "not_found", 404);
    await expect(t.client(HiveService).getHive({ id: "" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });

  it("UpdateHive overwrites name, type, status, boxes, colonyOrigin, note and qrCode; apiaryId and photo stay", async () => {
    const photo = "data:image/gif;base64,R0lGODlh";
    const h = (
      await t.call("HiveService/CreateHive", { apiaryId: a1, name: "U", note: "n", photo })
    ).body.hive;
    const before = await feedHead(t);
    const r = await t.call("HiveService/UpdateHive", {
      hive: {
        id: h.id,
        apiaryId: a2,
        photo: "",
        name: "U2",
        type: "HIVE_TYPE_ZANDER",
        boxes: 3,
        colonyOrigin: "buy",
        qrCode: "Z",
        status: "HIVE_STATUS_ACTIVE",
      },
    });
    expect(r.status).toBe(200);
    const u = r.body.hive;
    // note was left out of the whole message, so it is overwritten with "".
    expect(u).toMatchObject({
      id: h.id,
      apiaryId: a1,
      photo,
      name: "U2",
      type: "HIVE_TYPE_ZANDER",
      boxes: 3,
      colonyOrigin: "buy",
      qrCode: "Z",
      status: "HIVE_STATUS_ACTIVE",
    });
    expect(u).not.toHaveProperty("note");
    expect(u.createdAt).toBe(h.createdAt);
    expect(Date.parse(u.updatedAt)).toBeGreaterThanOrEqual(Date.parse(h.updatedAt));
    const feed = await feedSince(before);
    // Same status: no event; the change is scoped to the hive's apiary.
    expect(feed.map((c) => [c.entity, c.scopeId])).toEqual([["hive", a1]]);
    expect(feed[0]?.payload).not.toHaveProperty("apiary_id");
    expect(feed[0]?.payload).not.toHaveProperty("photo");
  });

  it("UpdateHive records STATUS for a status change, DISSOLVED for dissolving, and keeps the status when it is unspecified", async () => {
    const h = await newHive("S");
    const client = t.client(HiveService);
    let before = await feedHead(t);
    const q = await client.updateHive({
      hive: { id: h.id, name: "S", status: HiveStatus.QUEENLESS },
    });
    expect(q.hive?.status).toBe(HiveStatus.QUEENLESS);
    let events = (await feedSince(before)).filter((c) => c.entity === "event");
    expect(events.map((e) => e.payload)).toMatchObject([
      { type: 8, hive_id: h.id, apiary_id: a1, detail_json: JSON.stringify({ from: 1, to: 3 }) },
    ]);
    before = await feedHead(t);
    const kept = await t.call("HiveService/UpdateHive", {
      hive: { id: h.id, name: "S", boxes: 1 },
    });
    expect(kept.body.hive.status).toBe("HIVE_STATUS_QUEENLESS");
    expect((await feedSince(before)).filter((c) => c.entity === "event")).toEqual([]);
    before = await feedHead(t);
    const d = await client.updateHive({
      hive: { id: h.id, name: "S", status: HiveStatus.DISSOLVED, type: HiveType.WARRE },
    });
    expect(d.hive?.status).toBe(HiveStatus.DISSOLVED);
    events = (await feedSince(before)).filter((c) => c.entity === "event");
    expect(events.map((e) => e.payload.type)).toEqual([9]); // DISSOLVED
  });

  it("UpdateHive refuses a missing hive message or empty name (invalid_argument) and an unknown id (not_found)", async () => {
    const h = await newHive("E");
    expect(await rejects("UpdateHive", {}, "invalid_argument", 400)).toBe("hive is required");
    expect(
      await rejects("UpdateHive", { hive: { id: h.id, name: " " } }, "invalid_argument", 400),
    ).toBe("name is required");
    await rejects("UpdateHive", { hive: { id: "no-such-hive", name: "x" } }, "not_found", 404);
    await rejects(
      "UpdateHive",
      { hive: { id: h.id, name: "x", status: 42 } },
      "invalid_argument",
      400,
    );
  });

  it("RelocateHive closes the placement at date, opens one at the target, moves the hive's scope and records MOVED {from, to}", async () => {
    const h = (
      await t.call("HiveService/CreateHive", {
        apiaryId: a1,
        name: "R",
        date: "2026-01-02T00:00:00Z",
      })
    ).body.hive;
    const before = await feedHead(t);
    const date = "2026-01-02T03:04:05Z"; // after the hive arrived (its set-up date)
    const r = await t.call("HiveService/RelocateHive", { id: h.id, targetApiaryId: a2, date });
    expect(r.status).toBe(200);
    expect(r.body.hive).toMatchObject({
      id: h.id,
      apiaryId: a2,
      name: "R",
      status: "HIVE_STATUS_ACTIVE",
    });
    expect((await t.call("HiveService/GetHive", { id: h.id })).body.hive.apiaryId).toBe(a2);
    const feed = await feedSince(before);
    const hive = feed.filter((c) => c.entity === "hive");
    expect(hive).toMatchObject([{ scopeId: a2, payload: { apiary_id: a2 } }]);
    const [closed, opened] = feed.filter((c) => c.entity === "placement");
    expect(closed).toMatchObject({
      scopeId: a1,
      payload: { ended_at: "2026-01-02T03:04:05.000Z" },
    });
    expect(opened).toMatchObject({
      scopeId: a2,
      payload: {
        hive_id: h.id,
        apiary_id: a2,
        started_at: "2026-01-02T03:04:05.000Z",
        ended_at: null,
      },
    });
    expect(closed?.entityId).not.toBe(opened?.entityId);
    const [moved] = feed.filter((c) => c.entity === "event");
    expect(moved?.payload).toMatchObject({
      type: 4, // MOVED
      hive_id: h.id,
      apiary_id: a2,
      date: "2026-01-02T03:04:05.000Z",
      detail_json: JSON.stringify({ from: a1, to: a2 }),
    });
    // Later changes of the hive use the new apiary as their scope.
    const mark = await feedHead(t);
    await t.call("HiveService/UpdateHive", { hive: { id: h.id, name: "R2" } });
    expect((await feedSince(mark)).map((c) => c.scopeId)).toEqual([a2]);
    // ListHives by apiary follows the hive.
    const at2 = (await t.call("HiveService/ListHives", { apiaryId: a2 })).body.hives;
    expect(at2.map((x: { id: string }) => x.id)).toContain(h.id);
  });

  it("CreateHive with a date (issue 25) opens the placement and records CREATED at it; createdAt stays the time of the call", async () => {
    const before = await feedHead(t);
    const t0 = Date.now();
    const r = await t.call("HiveService/CreateHive", {
      apiaryId: a1,
      name: "Set up in March",
      date: "2026-03-15T09:00:00+01:00",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const h = r.body.hive;
    expect(Date.parse(h.createdAt)).toBeGreaterThanOrEqual(t0 - 5);
    const feed = await feedSince(before);
    expect(feed.map((c) => c.entity)).toEqual(["hive", "placement", "event"]);
    expect(feed[1]?.payload).toMatchObject({
      hive_id: h.id,
      apiary_id: a1,
      started_at: "2026-03-15T08:00:00.000Z",
      ended_at: null,
    });
    expect(feed[2]?.payload).toMatchObject({ type: 1, date: "2026-03-15T08:00:00.000Z" });
    const events = (await t.call("EventService/ListEvents", { hiveId: h.id })).body.events;
    expect(events).toMatchObject([{ type: "EVENT_TYPE_CREATED", date: "2026-03-15T08:00:00Z" }]);
    // Over binary protobuf too; left out, the date is now.
    const client = t.client(HiveService);
    const leap = await client.createHive({
      apiaryId: a1,
      name: "Leap",
      date: timestampFromDate(new Date("2024-02-29T23:59:00Z")),
    });
    const mark = await feedHead(t);
    const plain = await client.createHive({ apiaryId: a1, name: "Plain" });
    const [placement] = (await feedSince(mark)).filter((c) => c.entity === "placement");
    expect(placement?.payload.started_at).toBe(
      plain.hive?.createdAt && isoOf(plain.hive.createdAt),
    );
    const leapEvents = (await t.call("EventService/ListEvents", { hiveId: leap.hive?.id })).body;
    expect(leapEvents.events[0].date).toBe("2024-02-29T23:59:00Z");
  });

  it("CreateHive and RelocateHive refuse a date in the future, beyond a day of tolerance (invalid_argument naming date), and write nothing", async () => {
    const h = await newHive("Future");
    const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();
    const day = 24 * 60 * 60 * 1000;
    for (const date of [ahead(day + 60_000), "2099-01-02T03:04:05Z"]) {
      expect(
        await rejects(
          "CreateHive",
          { apiaryId: a1, name: "Next year", date },
          "invalid_argument",
          400,
        ),
      ).toBe("date cannot be in the future");
      expect(
        await rejects(
          "RelocateHive",
          { id: h.id, targetApiaryId: a2, date },
          "invalid_argument",
          400,
        ),
      ).toBe("date cannot be in the future");
    }
    // Binary: the same error, and a date before the year 0001 is out of range.
    const client = t.client(HiveService);
    const future = await client
      .createHive({ apiaryId: a1, name: "Bin", date: timestampFromDate(new Date("2099-01-01")) })
      .catch((e: unknown) => ConnectError.from(e));
    expect(future).toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: "date cannot be in the future",
    });
    const ancient = await client
      .createHive({ apiaryId: a1, name: "Bin", date: { seconds: -70_000_000_000n, nanos: 0 } })
      .catch((e: unknown) => ConnectError.from(e));
    expect(ancient).toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: expect.stringMatching(/^date must be a date between/),
    });
    // Within the day of tolerance (a clock or time zone ahead), both are accepted.
    const soon = ahead(60 * 60 * 1000);
    const ok = await t.call("HiveService/CreateHive", { apiaryId: a1, name: "Soon", date: soon });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const moved = await t.call("HiveService/RelocateHive", {
      id: ok.body.hive.id,
      targetApiaryId: a2,
      date: ahead(2 * 60 * 60 * 1000),
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });

  it("a hive set up in March, moved in May and inspected in June (issue 25): ListEvents and the placements follow the dates, and records freeze the apiary of their date", async () => {
    const march = "2026-03-15T08:00:00Z";
    const may = "2026-05-10T07:30:00Z";
    const june = "2026-06-12T10:00:00Z";
    const h = (
      await t.call("HiveService/CreateHive", { apiaryId: a1, name: "History", date: march })
    ).body.hive;
    const before = await feedHead(t);
    const moved = await t.call("HiveService/RelocateHive", {
      id: h.id,
      targetApiaryId: a2,
      date: may,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const inJune = await t.call("InspectionService/CreateInspection", { hiveId: h.id, date: june });
    expect(inJune.body.inspection).toMatchObject({ apiaryId: a2, date: june });
    // Entered last, dated April: it stood at a1 then, and the list puts it by its date.
    const april = "2026-04-20T09:00:00Z";
    const inApril = await t.call("InspectionService/CreateInspection", {
      hiveId: h.id,
      date: april,
    });
    expect(inApril.body.inspection).toMatchObject({ apiaryId: a1, date: april });

    const events = (await t.call("EventService/ListEvents", { hiveId: h.id })).body.events;
    expect(
      events.map((e: { type: string; date: string; apiaryId: string }) => [
        e.type,
        e.date,
        e.apiaryId,
      ]),
    ).toEqual([
      ["EVENT_TYPE_INSPECTION", june, a2],
      ["EVENT_TYPE_MOVED", may, a2],
      ["EVENT_TYPE_INSPECTION", april, a1],
      ["EVENT_TYPE_CREATED", march, a1],
    ]);
    // The placements: at a1 from March until May, at a2 since May.
    const placements = (await feedSince(before)).filter((c) => c.entity === "placement");
    expect(placements.map((c) => [c.scopeId, c.payload])).toEqual([
      [a1, { ended_at: "2026-05-10T07:30:00.000Z" }],
      [
        a2,
        { hive_id: h.id, apiary_id: a2, started_at: "2026-05-10T07:30:00.000Z", ended_at: null },
      ],
    ]);
    const inspections = (await t.call("InspectionService/ListInspections", { hiveId: h.id })).body
      .inspections;
    expect(inspections.map((i: { date: string }) => i.date)).toEqual([june, april]);
  });

  it("CreateHive's CREATED and RelocateHive's MOVED appear in ListEvents, newest first, with the reigning queen, refEntity, refId, detailJson and authorId", async () => {
    const h = await newHive("Ev");
    const queen = (await t.call("QueenService/CreateQueen", { hiveId: h.id, year: 2026 })).body
      .queen;
    await t.call("HiveService/RelocateHive", { id: h.id, targetApiaryId: a2 });
    const r = await t.call("EventService/ListEvents", { hiveId: h.id });
    const events = r.body.events.filter((e: { refEntity: string }) => e.refEntity === "hive");
    expect(events).toMatchObject([
      {
        type: "EVENT_TYPE_MOVED",
        apiaryId: a2,
        hiveId: h.id,
        queenId: queen.id,
        refId: h.id,
        detailJson: JSON.stringify({ from: a1, to: a2 }),
        title: "Hive Ev moved to Heide",
      },
      { type: "EVENT_TYPE_CREATED", apiaryId: a1, hiveId: h.id, refId: h.id },
    ]);
    expect(events[0].authorId).toBe(t.userId);
    expect(events[1]).not.toHaveProperty("queenId");
  });

  it("RelocateHive defaults date to now, leaves the status unchanged and works over binary protobuf", async () => {
    const h = await newHive("Now");
    const client = t.client(HiveService);
    await client.updateHive({ hive: { id: h.id, name: "Now", status: HiveStatus.NUC } });
    const before = await feedHead(t);
    const t0 = Date.now();
    const r = await client.relocateHive({ id: h.id, targetApiaryId: a2 });
    const t1 = Date.now();
    expect(r.hive?.apiaryId).toBe(a2);
    expect(r.hive?.status).toBe(HiveStatus.NUC);
    const [closed, opened] = (await feedSince(before)).filter((c) => c.entity === "placement");
    const ended = Date.parse(String(closed?.payload.ended_at));
    expect(ended).toBeGreaterThanOrEqual(t0 - 5);
    expect(ended).toBeLessThanOrEqual(t1 + 5);
    expect(opened?.payload.started_at).toBe(closed?.payload.ended_at);
  });

  it("RelocateHive answers not_found for an unknown hive or target apiary and invalid_argument for a missing target, the same apiary or a date before arrival", async () => {
    const h = await newHive("X");
    await rejects("RelocateHive", { id: "no-such-hive", targetApiaryId: a2 }, "not_found", 404);
    await rejects("RelocateHive", { id: h.id, targetApiaryId: "no-such-apiary" }, "not_found", 404);
    await rejects("RelocateHive", { id: h.id }, "invalid_argument", 400);
    expect(
      await rejects("RelocateHive", { id: h.id, targetApiaryId: a1 }, "invalid_argument", 400),
    ).toBe("hive already stands at that apiary");
    const msg = await rejects(
      "RelocateHive",
      { id: h.id, targetApiaryId: a2, date: "2000-01-01T00:00:00Z" },
      "invalid_argument",
      400,
    );
    expect(msg).toMatch(/^date must not be before/);
  });

  it("RelocateHive moves a date a moment before the hive arrived (clock skew up to 60 s) to the arrival, and refuses one clearly before", async () => {
    const h = await newHive("Skew");
    const arrival: string = h.createdAt;
    const ms = Date.parse(arrival);
    // A client whose clock is 5 ms behind the one that placed the hive, with an explicit "now".
    const before = await feedHead(t);
    const date = new Date(ms - 5).toISOString();
    const r = await t.call("HiveService/RelocateHive", { id: h.id, targetApiaryId: a2, date });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.hive.apiaryId).toBe(a2);
    const feed = await feedSince(before);
    const [closed, opened] = feed.filter((c) => c.entity === "placement");
    expect(closed?.payload.ended_at).toBe(new Date(ms).toISOString());
    expect(opened?.payload.started_at).toBe(new Date(ms).toISOString());
    expect(feed.find((c) => c.entity === "event")?.payload.date).toBe(new Date(ms).toISOString());
    // 60 s is still a skew; 60.001 s is a date before the arrival.
    const moved = Date.parse(String(opened?.payload.started_at));
    const ok = await t.call("HiveService/RelocateHive", {
      id: h.id,
      targetApiaryId: a1,
      date: new Date(moved - 60_000).toISOString(),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const msg = await rejects(
      "RelocateHive",
      { id: h.id, targetApiaryId: a2, date: new Date(moved - 60_001).toISOString() },
      "invalid_argument",
      400,
    );
    expect(msg).toMatch(/^date must not be before the hive arrived/);
  });

  it("DeleteHive writes a tombstone, closes the open placement and answers {}", async () => {
    const h = await newHive("D");
    const before = await feedHead(t);
    const r = await t.call("HiveService/DeleteHive", { id: h.id });
    expect(r).toEqual({ status: 200, body: {} });
    const feed = await feedSince(before);
    expect(feed.find((c) => c.entity === "hive")).toMatchObject({
      entityId: h.id,
      scopeId: a1,
      op: "CHANGE_OP_DELETE",
      payload: {},
    });
    const closed = feed.find((c) => c.entity === "placement");
    expect(closed?.scopeId).toBe(a1);
    expect(Object.keys(closed?.payload ?? {})).toEqual(["ended_at"]);
    expect(closed?.payload.ended_at).toMatch(/Z$/);
    // Gone for every other operation.
    await rejects("GetHive", { id: h.id }, "not_found", 404);
    await rejects("DeleteHive", { id: h.id }, "not_found", 404);
    await rejects("UpdateHive", { hive: { id: h.id, name: "x" } }, "not_found", 404);
    await rejects("RelocateHive", { id: h.id, targetApiaryId: a2 }, "not_found", 404);
    const all = (await t.call("HiveService/ListHives", {})).body.hives;
    expect(all.map((x: { id: string }) => x.id)).not.toContain(h.id);
  });

  it("DeleteHive tombstones the hive's open tasks in the feed; done ones stay (issue 25)", async () => {
    const h = await newHive("Tasks");
    const open = (await t.call("TaskService/CreateTask", { title: "Feed", hiveId: h.id })).body
      .task;
    const done = (await t.call("TaskService/CreateTask", { title: "Check", hiveId: h.id })).body
      .task;
    await t.call("TaskService/SetTaskDone", { id: done.id, done: true });
    const before = await feedHead(t);
    expect((await t.call("HiveService/DeleteHive", { id: h.id })).status).toBe(200);
    const tasks = (await feedSince(before)).filter((c) => c.entity === "task");
    expect(tasks.map((c) => [c.entityId, c.op])).toEqual([[open.id, "CHANGE_OP_DELETE"]]);
    expect((await t.call("TaskService/GetTask", { id: open.id })).status).toBe(404);
    expect((await t.call("TaskService/GetTask", { id: done.id })).body.task.done).toBe(true);
  });

  it("DeleteHive answers not_found for an unknown id", async () => {
    await rejects("DeleteHive", { id: "no-such-hive" }, "not_found", 404);
  });

  it("DeleteHive keeps the hive's inspections, treatments and harvests", async () => {
    const h = await newHive("Records");
    const hiveId = h.id;
    const ins = await t.call("InspectionService/CreateInspection", { hiveId, note: "ok" });
    const tr = await t.call("TreatmentService/CreateTreatment", { hiveId, product: "Oxalic" });
    const ha = await t.call("HarvestService/CreateHarvest", { hiveId, amountKg: 4 });
    expect([ins.status, tr.status, ha.status]).toEqual([200, 200, 200]);
    await t.call("HiveService/DeleteHive", { id: hiveId });
    const ids = (r: { body: Record<string, { id: string }[] | undefined> }, key: string) =>
      (r.body[key] ?? []).map((x) => x.id);
    expect(
      ids(await t.call("InspectionService/ListInspections", { hiveId }), "inspections"),
    ).toEqual([ins.body.inspection.id]);
    expect(ids(await t.call("TreatmentService/ListTreatments", { hiveId }), "treatments")).toEqual([
      tr.body.treatment.id,
    ]);
    expect(ids(await t.call("HarvestService/ListHarvests", { hiveId }), "harvests")).toEqual([
      ha.body.harvest.id,
    ]);
  });
});

describe.each(targetKinds)("ListHives on %s", (kind) => {
  const t = useTestTarget(kind);
  let a1: string;
  let a2: string;
  beforeAll(async () => {
    a1 = await newApiary(t, "One");
    a2 = await newApiary(t, "Two");
    // 501 hives: 500 at a1 (names H000…H499, in reverse) and one at a2, written
    // by the real command through the one write path in a single transaction.
    const ctx = seedContext();
    const hive = (apiaryId: string, name: string) =>
      createHive(
        ctx,
        { id: apiaryId },
        { ...noFields, apiaryId, name, date: ctx.now.toISOString() },
      ).changes;
    const changes = Array.from({ length: 500 }, (_, i) =>
      hive(a1, `H${String(499 - i).padStart(3, "0")}`),
    ).flat();
    await seedChanges(t, [...changes, ...hive(a2, "Lone")]);
  });

  const names = (r: { body: { hives?: { name: string }[] } }) =>
    (r.body.hives ?? []).map((h) => h.name);

  it("lists every hive of the tenant without apiaryId, 50 per page by default, ordered by name", async () => {
    const r = await t.call("HiveService/ListHives", {});
    expect(r.body.hives).toHaveLength(50);
    expect(names(r).slice(0, 2)).toEqual(["H000", "H001"]);
    expect(r.body.page).toEqual({ nextPageToken: "50", total: 501 });
  });

  it("filters by apiaryId; an apiary without hives gives an empty list", async () => {
    const r = await t.call("HiveService/ListHives", { apiaryId: a2 });
    expect(names(r)).toEqual(["Lone"]);
    expect(r.body.page).toEqual({ total: 1 });
    const one = await t.call("HiveService/ListHives", { apiaryId: a1, page: { pageSize: 1 } });
    expect(one.body.page).toEqual({ nextPageToken: "1", total: 500 });
    expect(await t.call("HiveService/ListHives", { apiaryId: "no-such-apiary" })).toEqual({
      status: 200,
      body: { page: {} },
    });
  });

  it("caps pageSize at 500 and pages on with the offset token until the last page, which has no nextPageToken", async () => {
    const p1 = await t.call("HiveService/ListHives", { page: { pageSize: 100000 } });
    expect(p1.body.hives).toHaveLength(500);
    expect(p1.body.page).toEqual({ nextPageToken: "500", total: 501 });
    const p2 = await t.call("HiveService/ListHives", {
      page: { page_size: 500, page_token: "500" },
    });
    expect(names(p2)).toEqual(["Lone"]);
    expect(p2.body.page).toEqual({ total: 501 });
    const full = await t.client(HiveService).listHives({ apiaryId: a1, page: { pageSize: 500 } });
    expect(full.hives).toHaveLength(500);
    expect(full.page?.nextPageToken).toBe(""); // the full page ends at the last row
  });

  it("rejects a malformed page token and returns an empty page past the end", async () => {
    const bad = await t.call("HiveService/ListHives", { page: { pageToken: "x1" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_argument");
    const past = await t.call("HiveService/ListHives", { page: { pageToken: "9999" } });
    expect(past.body).toEqual({ page: { total: 501 } });
  });
});

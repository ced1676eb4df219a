/**
 * EventService against contract §2.2, §4.9, §6, §7 and §8, on every
 * database over HTTP and on a device's local operations (test/support/target.ts).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { type Change, EventType, recordEvent } from "@hivekeep/client-core/core";
import { EventService } from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedChanges, seedContext } from "../support/command-seed.ts";
import { newApiary, newHive, withApiaryAndHive } from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

interface EventJson {
  id: string;
  type: string;
  title: string;
  refId: string;
  date: string;
  hiveId?: string;
  detailJson?: string;
}

describe.each(targetKinds)("EventService on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  let hiveId: string;
  beforeAll(async () => {
    ({ apiaryId, hiveId } = await withApiaryAndHive(t));
  });

  const list = async (body: Record<string, unknown>): Promise<EventJson[]> => {
    const r = await t.call("EventService/ListEvents", body);
    expect(r.status).toBe(200);
    return r.body.events ?? [];
  };
  const harvest = async (hive: string, date: string, variety = "Acacia") =>
    (await t.call("HarvestService/CreateHarvest", { hiveId: hive, amountKg: 2, date, variety }))
      .body.harvest;

  it("records CREATED for a new hive with its frozen ids, title, author and no page field", async () => {
    const r = await t.call("EventService/ListEvents", { hiveId });
    expect(Object.keys(r.body)).toEqual(["events"]);
    const [created] = r.body.events;
    expect(created).toMatchObject({
      type: "EVENT_TYPE_CREATED",
      apiaryId,
      hiveId,
      refEntity: "hive",
      refId: hiveId,
      title: "Hive Hive 1 created",
    });
    expect(created.authorId).toBe(t.userId);
    expect(created.organizationId).toBe(t.organizationId);
    expect(created.date).toMatch(/Z$/);
  });

  it("lists newest first by date, whatever the recording order", async () => {
    const hive = await newHive(t, apiaryId, "Order");
    const mid = await harvest(hive, "2024-06-01T00:00:00Z");
    const old = await harvest(hive, "2023-06-01T00:00:00Z");
    const events = await list({ hiveId: hive });
    expect(events.map((e) => e.type)).toEqual([
      "EVENT_TYPE_CREATED",
      "EVENT_TYPE_HARVEST",
      "EVENT_TYPE_HARVEST",
    ]);
    expect(events.slice(1).map((e) => e.refId)).toEqual([mid.id, old.id]);
  });

  it("filters by apiaryId, hiveId and queenId (all frozen at the time)", async () => {
    const other = await newApiary(t, "Other");
    const h2 = await newHive(t, other, "H2");
    const byApiary = await list({ apiaryId: other });
    expect(byApiary.map((e) => [e.type, e.hiveId])).toEqual([["EVENT_TYPE_CREATED", h2]]);
    const byHive = await list({ hiveId: h2, apiaryId: other });
    expect(byHive).toHaveLength(1);
    expect(await list({ hiveId: h2, apiaryId })).toEqual([]);

    const queen = await t.call("QueenService/CreateQueen", {
      hiveId: h2,
      year: 2026,
      introducedAt: "2026-01-01T00:00:00Z",
    });
    expect(queen.status).toBe(200);
    const queenId = queen.body.queen.id;
    const withQueen = await harvest(h2, "2026-02-01T00:00:00Z");
    const byQueen = await list({ queenId });
    expect(byQueen.map((e) => e.type)).toEqual([
      "EVENT_TYPE_HARVEST",
      "EVENT_TYPE_QUEEN_INTRODUCED",
    ]);
    expect(byQueen[0]?.refId).toBe(withQueen.id);
  });

  it("lists events of the same instant in reverse recording order", async () => {
    const ctx = seedContext();
    const date = "2022-03-03T03:03:03.000Z";
    const base = { date, apiaryId, hiveId, refEntity: "hive", refId: hiveId };
    const changes: Change[] = [
      recordEvent(ctx, { ...base, type: EventType.STATUS, title: "first" }),
      recordEvent(ctx, { ...base, type: EventType.STATUS, title: "second" }),
      recordEvent(ctx, { ...base, type: EventType.STATUS, title: "third" }),
    ];
    await seedChanges(t, changes);
    const events = (await list({ hiveId, limit: 1000 })).filter(
      (e) => e.date === "2022-03-03T03:03:03Z",
    );
    expect(events.map((e) => e.title)).toEqual(["third", "second", "first"]);
  });

  it("lists QUEEN_INTRODUCED before the QUEEN_REPLACED recorded just before it", async () => {
    const hive = await newHive(t, apiaryId, "Queens");
    const introducedAt = "2025-04-01T12:00:00Z";
    const queens: string[] = [];
    for (const year of [2024, 2025]) {
      const r = await t.call("QueenService/CreateQueen", { hiveId: hive, year, introducedAt });
      expect(r.status).toBe(200);
      queens.push(r.body.queen.id);
    }
    // The hive was created now, after the back-dated introductions.
    const events = (await list({ hiveId: hive })).filter((e) => e.type !== "EVENT_TYPE_CREATED");
    expect(events.map((e) => [e.type, e.date])).toEqual([
      ["EVENT_TYPE_QUEEN_INTRODUCED", introducedAt],
      ["EVENT_TYPE_QUEEN_REPLACED", introducedAt],
      ["EVENT_TYPE_QUEEN_INTRODUCED", introducedAt],
    ]);
    expect(events[0]?.refId).toBe(queens[1]);
    expect(events[2]?.refId).toBe(queens[0]);
  });

  it("carries detailJson: a MOVED event names both apiaries", async () => {
    const target = await newApiary(t, "Target");
    const hive = await newHive(t, apiaryId, "Mover");
    const r = await t.call("HiveService/RelocateHive", { id: hive, targetApiaryId: target });
    expect(r.status).toBe(200);
    const [moved] = await list({ hiveId: hive });
    expect(moved).toMatchObject({ type: "EVENT_TYPE_MOVED", apiaryId: target, hiveId: hive });
    expect(JSON.parse(moved?.detailJson ?? "")).toEqual({
      from: apiaryId,
      to: target,
    });
  });

  it("does not list tombstoned events (a deleted harvest's event)", async () => {
    const h = await harvest(hiveId, "2021-01-01T00:00:00Z");
    expect((await list({ hiveId })).some((e) => e.refId === h.id)).toBe(true);
    await t.call("HarvestService/DeleteHarvest", { id: h.id });
    expect((await list({ hiveId })).some((e) => e.refId === h.id)).toBe(false);
  });

  it("GetEvent returns one event and answers not_found for an unknown id", async () => {
    const [first] = await list({ hiveId });
    const got = await t.call("EventService/GetEvent", { id: first?.id });
    expect(got).toEqual({ status: 200, body: { event: first } });
    const missing = await t.call("EventService/GetEvent", { id: "no-such-event" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
    await expect(t.client(EventService).getEvent({ id: "nope" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });

  it("rejects a negative limit with invalid_argument", async () => {
    const r = await t.call("EventService/ListEvents", { limit: -1 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: "invalid_argument", message: "limit must not be negative" });
  });

  it("works over binary protobuf with the typed client", async () => {
    const { events } = await t.client(EventService).listEvents({ hiveId, limit: 2 });
    expect(events).toHaveLength(2);
    expect(events[0]?.hiveId).toBe(hiveId);
  });
});

describe.each(targetKinds)("ListEvents limit on %s", (kind) => {
  const t = useTestTarget(kind);
  let hiveId: string;
  beforeAll(async () => {
    const apiaryId = await newApiary(t, "Bulk");
    hiveId = await newHive(t, apiaryId, "Busy");
    // 1005 more events, recorded cheaply in one batch through the one write path.
    const ctx = seedContext();
    const changes = Array.from({ length: 1005 }, (_, i) =>
      recordEvent(ctx, {
        type: EventType.STATUS,
        date: new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString(),
        apiaryId,
        hiveId,
        refEntity: "hive",
        refId: hiveId,
        title: `status ${i}`,
      }),
    );
    await seedChanges(t, changes);
  });

  const count = async (body: Record<string, unknown>) =>
    ((await t.call("EventService/ListEvents", body)).body.events ?? []).length;

  it("defaults the limit to 100", async () => {
    expect(await count({})).toBe(100);
    expect(await count({ limit: 0 })).toBe(100);
  });

  it("caps the limit at 1000 instead of refusing it", async () => {
    expect(await count({ limit: 5000 })).toBe(1000);
    expect(await count({ hiveId, limit: 1001 })).toBe(1000);
    expect(await count({ limit: 1000 })).toBe(1000);
  });

  it("returns the newest events up to a smaller limit", async () => {
    const r = await t.call("EventService/ListEvents", { hiveId, limit: 3 });
    expect(r.body.events.map((e: EventJson) => e.type)).toEqual([
      "EVENT_TYPE_CREATED",
      "EVENT_TYPE_STATUS",
      "EVENT_TYPE_STATUS",
    ]);
    expect(r.body.events[1].title).toBe("status 1004");
    expect(r.body.events[2].title).toBe("status 1003");
  });
});

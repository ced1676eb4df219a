/**
 * HarvestService against contract §2.2, §4.8, §6, §7 and §8, on every
 * database over HTTP and on a device's local operations (test/support/target.ts).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { createHarvest } from "@hivekeep/client-core/core";
import { HarvestService } from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedChanges, seedContext } from "../support/command-seed.ts";
import { feedHead, newApiary, newHive, withApiaryAndHive } from "../support/fixtures.ts";
import { serverOnly, targetKinds, useTestTarget } from "../support/target.ts";

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describe.each(targetKinds)("HarvestService on %s", (kind) => {
  const t = useTestTarget(kind);
  let apiaryId: string;
  let hiveId: string;
  beforeAll(async () => {
    ({ apiaryId, hiveId } = await withApiaryAndHive(t));
  });

  const eventOf = async (harvestId: string) =>
    (await t.call("EventService/ListEvents", { hiveId, limit: 1000 })).body.events?.find(
      (e: { refId: string }) => e.refId === harvestId,
    );

  it("creates a harvest with every field; apiaryId is the hive's apiary", async () => {
    const r = await t.call("HarvestService/CreateHarvest", {
      hiveId,
      amountKg: 12.5,
      date: "2026-05-19T08:00:00Z",
      variety: "Acacia",
      waterContent: 17.2,
      batchNumber: "B-7",
      bestBefore: "2028-05-19T00:00:00Z",
      note: "first spin",
    });
    expect(r.status).toBe(200);
    const h = r.body.harvest;
    expect(h).toMatchObject({
      hiveId,
      apiaryId,
      date: "2026-05-19T08:00:00Z",
      variety: "Acacia",
      amountKg: 12.5,
      waterContent: 17.2,
      batchNumber: "B-7",
      bestBefore: "2028-05-19T00:00:00Z",
      note: "first spin",
    });
    expect(h.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.organizationId).toBe(t.organizationId);
    // No queen reigned: the empty queenId is omitted (§2.1.4).
    expect(h).not.toHaveProperty("queenId");
    expect(await t.call("HarvestService/GetHarvest", { id: h.id })).toEqual({
      status: 200,
      body: { harvest: h },
    });
  });

  it("defaults date to now and stores left-out fields as defaults", async () => {
    const before = Date.now();
    const r = await t.call("HarvestService/CreateHarvest", { hive_id: hiveId, amount_kg: 3 });
    expect(r.status).toBe(200);
    const h = r.body.harvest;
    expect(Date.parse(h.date)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(h.date)).toBeLessThanOrEqual(Date.now() + 1000);
    for (const f of ["variety", "waterContent", "batchNumber", "bestBefore", "note"]) {
      expect(h, f).not.toHaveProperty(f);
    }
  });

  it("records a HARVEST event titled '<amountKg> kg <variety>' with amountKg and a pointer to the harvest", async () => {
    const { harvest } = (
      await t.call("HarvestService/CreateHarvest", { hiveId, amountKg: 12.5, variety: "Acacia" })
    ).body;
    const e = await eventOf(harvest.id);
    expect(e).toMatchObject({
      type: "EVENT_TYPE_HARVEST",
      title: "12.5 kg Acacia",
      amountKg: 12.5,
      apiaryId,
      hiveId,
      refEntity: "harvest",
      refId: harvest.id,
      date: harvest.date,
    });
    expect(e.authorId).toBe(t.userId);
  });

  it("titles the HARVEST event 'Honey' when the variety is empty", async () => {
    const { harvest } = (
      await t.call("HarvestService/CreateHarvest", { hiveId, amountKg: 7.25, variety: "  " })
    ).body;
    expect(harvest).not.toHaveProperty("variety");
    expect(await eventOf(harvest.id)).toMatchObject({ title: "Honey", amountKg: 7.25 });
  });

  it("rejects a missing hiveId with invalid_argument and writes nothing", async () => {
    const head = await feedHead(t);
    const r = await t.call("HarvestService/CreateHarvest", { amountKg: 5 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: "invalid_argument", message: "hiveId is required" });
    expect(await feedHead(t)).toBe(head);
  });

  it("rejects amountKg 0, negative or left out with invalid_argument and writes nothing", async () => {
    const head = await feedHead(t);
    for (const body of [{ hiveId, amountKg: 0 }, { hiveId, amountKg: -2.5 }, { hiveId }]) {
      const r = await t.call("HarvestService/CreateHarvest", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toEqual({ code: "invalid_argument", message: "amountKg must be above 0" });
    }
    expect(await feedHead(t)).toBe(head);
  });

  it("refuses a date more than a day ahead with invalid_argument naming date (bestBefore is free) and writes nothing", async () => {
    const head = await feedHead(t);
    const ahead = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const r = await t.call("HarvestService/CreateHarvest", { hiveId, amountKg: 2, date: ahead });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: "invalid_argument", message: "date cannot be in the future" });
    expect(await feedHead(t)).toBe(head);
    const later = await t.call("HarvestService/CreateHarvest", {
      hiveId,
      amountKg: 2,
      bestBefore: ahead,
    });
    expect(later.status).toBe(200);
  });

  it("answers not_found for an unknown hive and writes nothing", async () => {
    const head = await feedHead(t);
    const r = await t.call("HarvestService/CreateHarvest", { hiveId: "no-such-hive", amountKg: 1 });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
    expect(await feedHead(t)).toBe(head);
  });

  it("answers not_found for unknown ids on GetHarvest and DeleteHarvest", async () => {
    for (const method of ["GetHarvest", "DeleteHarvest"]) {
      const r = await t.call(`HarvestService/${method}`, { id: "no-such-id" });
      expect(r.status, method).toBe(404);
      expect(r.body.code, method).toBe("not_found");
    }
    await expect(t.client(HarvestService).getHarvest({ id: "" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });

  // Server only: an unknown procedure is answered by the HTTP router (404 unimplemented); on the
  // device there is nothing to call, as HarvestService has no such method.
  serverOnly(kind, "an unknown procedure is the HTTP router's answer")(
    "has no update operation",
    async () => {
      const r = await t.call("HarvestService/UpdateHarvest", { id: "x" });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("unimplemented");
    },
  );

  it("DeleteHarvest returns {}, tombstones the harvest and its HARVEST event in the feed", async () => {
    const { harvest } = (
      await t.call("HarvestService/CreateHarvest", { hiveId, amountKg: 4, variety: "Linden" })
    ).body;
    const event = await eventOf(harvest.id);
    const cursor = await feedHead(t);
    expect(await t.call("HarvestService/DeleteHarvest", { id: harvest.id })).toEqual({
      status: 200,
      body: {},
    });
    expect((await t.call("HarvestService/GetHarvest", { id: harvest.id })).status).toBe(404);
    expect(await eventOf(harvest.id)).toBeUndefined();
    expect((await t.call("EventService/GetEvent", { id: event.id })).status).toBe(404);
    const pulled = (await t.call("SyncService/Pull", { cursor })).body.changes;
    expect(pulled.map((c: { entity: string; entityId: string; op: string }) => c)).toEqual([
      expect.objectContaining({ entity: "harvest", entityId: harvest.id, op: "CHANGE_OP_DELETE" }),
      expect.objectContaining({ entity: "event", entityId: event.id, op: "CHANGE_OP_DELETE" }),
    ]);
    // A second delete finds nothing.
    expect((await t.call("HarvestService/DeleteHarvest", { id: harvest.id })).status).toBe(404);
  });

  it("works over binary protobuf with the typed client", async () => {
    const client = t.client(HarvestService);
    const { harvest } = await client.createHarvest({ hiveId, amountKg: 1.5, variety: "Forest" });
    expect(harvest?.amountKg).toBe(1.5);
    const got = await client.getHarvest({ id: harvest?.id ?? "" });
    expect(got.harvest?.variety).toBe("Forest");
    await client.deleteHarvest({ id: harvest?.id ?? "" });
  });
});

describe.each(targetKinds)("HarvestService frozen ids and listing on %s", (kind) => {
  const t = useTestTarget(kind);
  let a1: string;
  let a2: string;
  let hive: string;
  beforeAll(async () => {
    a1 = await newApiary(t, "North");
    a2 = await newApiary(t, "South");
    hive = await newHive(t, a1, "Mover");
  });

  const harvest = async (hiveId: string, date: string, amountKg = 1) => {
    const r = await t.call("HarvestService/CreateHarvest", { hiveId, amountKg, date });
    expect(r.status).toBe(200);
    return r.body.harvest;
  };

  it("freezes apiaryId and queenId as of the harvest's date; ListHarvests filters by the frozen apiary", async () => {
    const queen = async (year: number, introducedAt: string): Promise<string> => {
      const r = await t.call("QueenService/CreateQueen", { hiveId: hive, year, introducedAt });
      expect(r.status).toBe(200);
      return r.body.queen.id;
    };
    const q1 = await queen(2024, daysAgo(20));
    const q2 = await queen(2025, daysAgo(10));
    // The first placement opened when the hive was created (now); an earlier
    // date counts as being at the first apiary.
    const early = await harvest(hive, daysAgo(15));
    expect(early).toMatchObject({ apiaryId: a1, queenId: q1 });
    const moved = await t.call("HiveService/RelocateHive", { id: hive, targetApiaryId: a2 });
    expect(moved.status).toBe(200);
    const late = await harvest(hive, new Date(Date.now() + 2000).toISOString());
    expect(late).toMatchObject({ apiaryId: a2, queenId: q2 });
    // Before the first queen was introduced, no queen reigned.
    const before = await harvest(hive, daysAgo(25));
    expect(before).not.toHaveProperty("queenId");
    // The HARVEST event carries the same frozen ids.
    const events = (await t.call("EventService/ListEvents", { hiveId: hive })).body.events;
    const ev = events.find((e: { refId: string }) => e.refId === early.id);
    expect(ev).toMatchObject({ apiaryId: a1, queenId: q1 });
    // ListHarvests filters by the frozen apiary, not the hive's current one.
    const ids = async (apiaryId: string) =>
      (await t.call("HarvestService/ListHarvests", { apiaryId })).body.harvests.map(
        (x: { id: string }) => x.id,
      );
    expect(await ids(a1)).toEqual([early.id, before.id]);
    expect(await ids(a2)).toEqual([late.id]);
  });

  it("lists newest first, filters by hiveId and apiaryId, and pages per §8", async () => {
    const east = await newApiary(t, "East");
    const west = await newApiary(t, "West");
    const h1 = (await t.call("HiveService/CreateHive", { apiaryId: east, name: "L1" })).body.hive;
    const h2 = (await t.call("HiveService/CreateHive", { apiaryId: west, name: "L2" })).body.hive;
    const o1 = await harvest(h1.id, daysAgo(3));
    const o2 = await harvest(h1.id, daysAgo(1));
    const o3 = await harvest(h1.id, daysAgo(2));
    const w1 = await harvest(h2.id, daysAgo(4));

    const byHive = await t.call("HarvestService/ListHarvests", { hiveId: h1.id });
    expect(byHive.body.harvests.map((h: { id: string }) => h.id)).toEqual([o2.id, o3.id, o1.id]);
    expect(byHive.body.page).toEqual({ total: 3 });
    const byApiary = await t.call("HarvestService/ListHarvests", { apiaryId: west });
    expect(byApiary.body.harvests.map((h: { id: string }) => h.id)).toEqual([w1.id]);
    const both = await t.call("HarvestService/ListHarvests", { hiveId: h1.id, apiaryId: west });
    expect(both.body).toEqual({ page: {} });

    const all = (await t.call("HarvestService/ListHarvests", {})).body;
    expect(all.page.total).toBeGreaterThanOrEqual(4);
    const dates = all.harvests.map((h: { date: string }) => Date.parse(h.date));
    expect(dates).toEqual([...dates].sort((x, y) => y - x));

    const page = (token: string) =>
      t.call("HarvestService/ListHarvests", {
        hiveId: h1.id,
        page: { pageSize: 2, pageToken: token },
      });
    const p1 = (await page("")).body;
    expect(p1.harvests.map((h: { id: string }) => h.id)).toEqual([o2.id, o3.id]);
    expect(p1.page).toEqual({ nextPageToken: "2", total: 3 });
    const p2 = (await page("2")).body;
    expect(p2.harvests.map((h: { id: string }) => h.id)).toEqual([o1.id]);
    expect(p2.page).toEqual({ total: 3 });
  });

  it("lists nothing for an unknown hive; a malformed pageToken or negative pageSize is invalid_argument", async () => {
    const none = await t.call("HarvestService/ListHarvests", { hiveId: "nope" });
    expect(none).toEqual({ status: 200, body: { page: {} } });
    for (const page of [{ pageToken: "x" }, { pageSize: -1 }]) {
      const bad = await t.call("HarvestService/ListHarvests", { page });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe("invalid_argument");
    }
  });
});

describe.each(targetKinds)("ListHarvests page size on %s", (kind) => {
  const t = useTestTarget(kind);
  let hiveId: string;
  beforeAll(async () => {
    const apiaryId = await newApiary(t, "Big");
    hiveId = await newHive(t, apiaryId, "Rich");
    // 505 harvests, made by the command and written in one batch through the one write path.
    const ctx = seedContext();
    const hive = { id: hiveId, apiaryId, queenId: "" };
    const changes = Array.from({ length: 505 }, (_, i) =>
      createHarvest(ctx, hive, {
        hiveId,
        amountKg: 1,
        date: new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString(),
        variety: "",
        waterContent: 0,
        batchNumber: "",
        bestBefore: null,
        note: "",
      }),
    ).flatMap((r) => r.changes);
    await seedChanges(t, changes);
  });

  it("pageSize defaults to 50 and is capped at 500; total counts every match", async () => {
    const first = (await t.call("HarvestService/ListHarvests", { hiveId })).body;
    expect(first.harvests).toHaveLength(50);
    expect(first.page).toEqual({ nextPageToken: "50", total: 505 });
    const capped = (await t.call("HarvestService/ListHarvests", { page: { pageSize: 5000 } })).body;
    expect(capped.harvests).toHaveLength(500);
    expect(capped.page).toEqual({ nextPageToken: "500", total: 505 });
    const last = (
      await t.call("HarvestService/ListHarvests", { page: { pageSize: 500, pageToken: "500" } })
    ).body;
    expect(last.harvests).toHaveLength(5);
    expect(last.page).toEqual({ total: 505 });
  });
});

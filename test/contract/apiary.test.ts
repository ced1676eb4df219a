/**
 * ApiaryService against contract §2, §3 (Apiary row), §4.2, §7 and §8, on every database over
 * HTTP and on a device's local operations (test/support/target.ts), and the change feed of
 * apiary writes. hiveCount and the DeleteApiary refusal are proven with real hives (HiveService).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { createApiary } from "@hivekeep/client-core/core";
import { ApiaryService, ChangeOp, SyncService } from "@hivekeep/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedChanges, seedContext } from "../support/command-seed.ts";
import { feedHead, newApiary, newHive, pullAll } from "../support/fixtures.ts";
import { serverOnly, targetKinds, useTestTarget } from "../support/target.ts";

describe.each(targetKinds)("ApiaryService on %s", (kind) => {
  const t = useTestTarget(kind);

  it("creates, gets, updates and deletes an apiary over JSON", async () => {
    const created = await t.call("ApiaryService/CreateApiary", {
      name: "  Lindenhof ",
      address: "Am Waldrand 3",
      lat: 48.1,
      lng: 11.5,
    });
    expect(created.status).toBe(200);
    const a = created.body.apiary;
    expect(a).toMatchObject({ name: "Lindenhof", address: "Am Waldrand 3", lat: 48.1, lng: 11.5 });
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.organizationId).toBe(t.organizationId);
    expect(a.createdAt).toMatch(/Z$/);
    expect(a.updatedAt).toBe(a.createdAt);
    // Default values are omitted from responses (contract §2.1.4).
    expect(a).not.toHaveProperty("hiveCount");

    const got = await t.call("ApiaryService/GetApiary", { id: a.id });
    expect(got).toEqual({ status: 200, body: { apiary: a } });

    // All fields are overwritten: the address left out becomes empty.
    const updated = await t.call("ApiaryService/UpdateApiary", { id: a.id, name: "Linden" });
    expect(updated.status).toBe(200);
    expect(updated.body.apiary.name).toBe("Linden");
    expect(updated.body.apiary).not.toHaveProperty("address");
    expect(updated.body.apiary).not.toHaveProperty("lat");
    expect(updated.body.apiary.createdAt).toBe(a.createdAt);
    expect(Date.parse(updated.body.apiary.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(a.createdAt),
    );

    const deleted = await t.call("ApiaryService/DeleteApiary", { id: a.id });
    expect(deleted).toEqual({ status: 200, body: {} });
    const gone = await t.call("ApiaryService/GetApiary", { id: a.id });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("not_found");
  });

  it("accepts snake_case field names and binary protobuf", async () => {
    const client = t.client(ApiaryService);
    const { apiary } = await client.createApiary({ name: "Binary", lat: -33.9, lng: 151.2 });
    expect(apiary?.name).toBe("Binary");
    const snake = await t.call("ApiaryService/UpdateApiary", {
      id: apiary?.id,
      name: "Snake",
      address: "x",
    });
    expect(snake.body.apiary.name).toBe("Snake");
    const viaJson = await t
      .client(ApiaryService, { json: true })
      .getApiary({ id: apiary?.id ?? "" });
    expect(viaJson.apiary?.address).toBe("x");
    // UpdateApiary overwrote lat, which the update left out.
    expect(viaJson.apiary?.lat).toBe(0);
  });

  it("rejects an empty name with invalid_argument and writes nothing", async () => {
    const before = await t.call("SyncService/Pull", { cursor: "" });
    for (const name of ["", "   "]) {
      const r = await t.call("ApiaryService/CreateApiary", { name });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: "invalid_argument", message: "name is required" });
    }
    const after = await t.call("SyncService/Pull", { cursor: "" });
    expect(after.body.changes?.length).toBe(before.body.changes?.length);
  });

  it("rejects an empty name on UpdateApiary with invalid_argument and writes nothing", async () => {
    const id = await newApiary(t, "Keep");
    const before = await feedHead(t);
    const r = await t.call("ApiaryService/UpdateApiary", { id, name: " " });
    expect(r).toEqual({
      status: 400,
      body: { code: "invalid_argument", message: "name is required" },
    });
    expect((await t.call("SyncService/Pull", { cursor: before })).body.changes).toBeUndefined();
    expect((await t.call("ApiaryService/GetApiary", { id })).body.apiary.name).toBe("Keep");
  });

  it("answers not_found for unknown ids on get, update and delete", async () => {
    for (const method of ["GetApiary", "UpdateApiary", "DeleteApiary"]) {
      // Only UpdateApiary has a name (an unknown field is refused before the lookup).
      const body =
        method === "UpdateApiary" ? { id: "no-such-id", name: "x" } : { id: "no-such-id" };
      const r = await t.call(`ApiaryService/${method}`, body);
      expect(r.status, method).toBe(404);
      expect(r.body.code, method).toBe("not_found");
    }
    await expect(t.client(ApiaryService).getApiary({ id: "" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound,
    );
  });

  it("rejects coordinates that are not on Earth", async () => {
    const r = await t.call("ApiaryService/CreateApiary", { name: "Moon", lat: 91 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
    const nan = await t.call("ApiaryService/CreateApiary", { name: "NaN", lng: "NaN" });
    expect(nan.status).toBe(400);
  });
});

describe.each(targetKinds)("apiaries with hives on %s", (kind) => {
  const t = useTestTarget(kind);

  const hiveCount = async (id: string): Promise<number | undefined> =>
    (await t.call("ApiaryService/GetApiary", { id })).body.apiary.hiveCount;

  it("hiveCount counts live hives: CreateHive raises it, RelocateHive moves it, DeleteHive lowers it", async () => {
    const a = await newApiary(t, "Count A");
    const b = await newApiary(t, "Count B");
    expect(await hiveCount(a)).toBeUndefined(); // 0 is omitted (§2.1.4)
    const h1 = await newHive(t, a, "1");
    const h2 = await newHive(t, a, "2");
    expect(await hiveCount(a)).toBe(2);
    await t.call("HiveService/RelocateHive", { id: h1, targetApiaryId: b });
    expect([await hiveCount(a), await hiveCount(b)]).toEqual([1, 1]);
    await t.call("HiveService/DeleteHive", { id: h2 });
    expect(await hiveCount(a)).toBeUndefined();
    const listed = (await t.call("ApiaryService/ListApiaries", {})).body.apiaries;
    expect(listed.find((x: { id: string }) => x.id === b).hiveCount).toBe(1);
    const typed = await t.client(ApiaryService).getApiary({ id: b });
    expect(typed.apiary?.hiveCount).toBe(1);
  });

  it("DeleteApiary refuses while live hives remain: failed_precondition, HTTP 400, the count in the message, nothing written", async () => {
    const a = await newApiary(t, "Busy");
    await newHive(t, a, "1");
    const before = await feedHead(t);
    const one = await t.call("ApiaryService/DeleteApiary", { id: a });
    expect(one).toEqual({
      status: 400,
      body: {
        code: "failed_precondition",
        message: "apiary still has 1 live hive; move or delete it first",
      },
    });
    await newHive(t, a, "2");
    const two = await t.call("ApiaryService/DeleteApiary", { id: a });
    expect(two.status).toBe(400);
    expect(two.body.message).toBe("apiary still has 2 live hives; move or delete them first");
    await expect(t.client(ApiaryService).deleteApiary({ id: a })).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectError && e.code === Code.FailedPrecondition,
    );
    // Only the second hive's creation reached the feed; the apiary is still there.
    const feed = (await pullAll(t, before)).changes;
    expect(feed.some((c: { op: string }) => c.op === "CHANGE_OP_DELETE")).toBe(false);
    expect((await t.call("ApiaryService/GetApiary", { id: a })).status).toBe(200);
  });

  it("DeleteApiary works once its hives are moved away or deleted", async () => {
    const a = await newApiary(t, "Emptied");
    const b = await newApiary(t, "Elsewhere");
    const moved = await newHive(t, a, "moved");
    const deleted = await newHive(t, a, "deleted");
    await t.call("HiveService/RelocateHive", { id: moved, targetApiaryId: b });
    expect((await t.call("ApiaryService/DeleteApiary", { id: a })).status).toBe(400);
    await t.call("HiveService/DeleteHive", { id: deleted });
    const before = await feedHead(t);
    expect(await t.call("ApiaryService/DeleteApiary", { id: a })).toEqual({
      status: 200,
      body: {},
    });
    const feed = (await pullAll(t, before)).changes;
    expect(feed).toMatchObject([{ entity: "apiary", entityId: a, op: "CHANGE_OP_DELETE" }]);
    expect((await t.call("ApiaryService/GetApiary", { id: a })).body.code).toBe("not_found");
    // The moved hive is untouched at its new apiary.
    expect((await t.call("HiveService/GetHive", { id: moved })).body.hive.apiaryId).toBe(b);
  });
});

describe.each(targetKinds)("ListApiaries paging on %s", (kind) => {
  const t = useTestTarget(kind);
  const names = Array.from({ length: 7 }, (_, i) => `Apiary ${String(i).padStart(2, "0")}`);
  beforeAll(async () => {
    for (const name of [...names].reverse()) {
      await newApiary(t, name);
    }
  });

  it("pages by offset tokens and reports the total", async () => {
    const p1 = await t.call("ApiaryService/ListApiaries", { page: { pageSize: 3 } });
    expect(p1.body.apiaries.map((a: { name: string }) => a.name)).toEqual(names.slice(0, 3));
    expect(p1.body.page).toEqual({ nextPageToken: "3", total: 7 });
    const p2 = await t.call("ApiaryService/ListApiaries", {
      page: { page_size: 3, page_token: "3" },
    });
    expect(p2.body.apiaries.map((a: { name: string }) => a.name)).toEqual(names.slice(3, 6));
    expect(p2.body.page.nextPageToken).toBe("6");
    const p3 = await t.call("ApiaryService/ListApiaries", {
      page: { pageSize: 3, pageToken: "6" },
    });
    expect(p3.body.apiaries.map((a: { name: string }) => a.name)).toEqual(names.slice(6));
    // The last page has no nextPageToken.
    expect(p3.body.page).toEqual({ total: 7 });
  });

  it("has no nextPageToken when a full page ends exactly at the last row", async () => {
    const r = await t.call("ApiaryService/ListApiaries", { page: { pageSize: 7 } });
    expect(r.body.apiaries).toHaveLength(7);
    expect(r.body.page).toEqual({ total: 7 });
  });

  it("rejects a malformed page token", async () => {
    const r = await t.call("ApiaryService/ListApiaries", { page: { pageToken: "abc" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
  });

  it("returns an empty page past the end", async () => {
    const r = await t.call("ApiaryService/ListApiaries", { page: { pageToken: "100" } });
    expect(r.body).toEqual({ page: { total: 7 } });
  });
});

describe.each(targetKinds)("ListApiaries limits on %s", (kind) => {
  const t = useTestTarget(kind);
  beforeAll(async () => {
    const ctx = seedContext();
    const names = Array.from({ length: 501 }, (_, i) => `A${String(i).padStart(3, "0")}`);
    await seedChanges(
      t,
      names.flatMap((name) => createApiary(ctx, { name, address: "", lat: 0, lng: 0 }).changes),
    );
  });

  it("defaults to 50 per page", async () => {
    const r = await t.call("ApiaryService/ListApiaries", {});
    expect(r.body.apiaries).toHaveLength(50);
    expect(r.body.apiaries[49].name).toBe("A049");
    expect(r.body.page).toEqual({ nextPageToken: "50", total: 501 });
  });

  it("caps the page size at 500", async () => {
    const r = await t.call("ApiaryService/ListApiaries", { page: { pageSize: 100000 } });
    expect(r.body.apiaries).toHaveLength(500);
    expect(r.body.page).toEqual({ nextPageToken: "500", total: 501 });
    const last = await t.call("ApiaryService/ListApiaries", { page: { pageToken: "500" } });
    expect(last.body.apiaries.map((a: { name: string }) => a.name)).toEqual(["A500"]);
    expect(last.body.page).toEqual({ total: 501 });
  });
});

describe.each(targetKinds)("the change feed on %s", (kind) => {
  const t = useTestTarget(kind);

  it("shows every apiary write in Pull, with snake_case payloads and a DELETE tombstone", async () => {
    const a = (await t.call("ApiaryService/CreateApiary", { name: "Feed", address: "A" })).body
      .apiary;
    await t.call("ApiaryService/UpdateApiary", { id: a.id, name: "Feed 2", lat: 1.5 });
    await t.call("ApiaryService/DeleteApiary", { id: a.id });

    const r = await t.call("SyncService/Pull", { cursor: "" });
    expect(r.status).toBe(200);
    const mine = r.body.changes.filter((c: { entityId: string }) => c.entityId === a.id);
    expect(mine.map((c: { op: string }) => c.op)).toEqual([
      "CHANGE_OP_UPSERT",
      "CHANGE_OP_UPSERT",
      "CHANGE_OP_DELETE",
    ]);
    for (const c of mine) {
      expect(c).toMatchObject({ entity: "apiary", scopeId: a.id });
      expect(c.hlc).toMatch(/^\d{15}:\d{5}:.+$/);
      expect(c.authorId).toBe(t.userId);
    }
    expect(JSON.parse(mine[0].payloadJson)).toEqual({
      name: "Feed",
      address: "A",
      lat: 0,
      lng: 0,
      created_at: a.createdAt,
      updated_at: a.createdAt,
    });
    const second = JSON.parse(mine[1].payloadJson);
    expect(second).toMatchObject({ name: "Feed 2", address: "", lat: 1.5 });
    expect(Object.keys(second).every((k) => /^[a-z_]+$/.test(k))).toBe(true);
    // HLCs increase along the feed.
    expect(mine[0].hlc < mine[1].hlc && mine[1].hlc < mine[2].hlc).toBe(true);
    expect(r.body.hasMore).toBeUndefined();
    // The server's clock reading: the device's feed (its outbox, test/support/target.ts) has none.
    if (kind !== "device") expect(r.body.serverTime).toMatch(/Z$/);
  });

  // Server only: paging and cursors are the server's Pull; the device has no SyncService of its
  // own (its feed here is a test view of its outbox), so there is nothing of it to test.
  serverOnly(kind, "the device has no Pull of its own")(
    "pages the feed with cursor, limit, nextCursor and hasMore",
    async () => {
      for (let i = 0; i < 5; i++) await t.call("ApiaryService/CreateApiary", { name: `P${i}` });
      const all = (await t.call("SyncService/Pull", { cursor: "" })).body;
      const seen: unknown[] = [];
      let cursor = "";
      for (let guard = 0; guard < 50; guard++) {
        const page = (await t.call("SyncService/Pull", { cursor, limit: 2 })).body;
        seen.push(...(page.changes ?? []));
        expect(page.changes?.length ?? 0).toBeLessThanOrEqual(2);
        cursor = page.nextCursor;
        if (!page.hasMore) break;
      }
      expect(seen).toEqual(all.changes);
      expect(cursor).toBe(all.nextCursor);
      // Nothing new: same cursor, no changes.
      const again = (await t.call("SyncService/Pull", { cursor })).body;
      expect(again.changes).toBeUndefined();
      expect(again.nextCursor).toBe(cursor);

      const typed = await t.client(SyncService).pull({ cursor: "", limit: 1 });
      expect(typed.changes).toHaveLength(1);
      expect(typed.changes[0]?.op).toBe(ChangeOp.UPSERT);
      expect(typed.hasMore).toBe(true);
    },
  );

  // Server only: cursor validation is the server's Pull (see above).
  serverOnly(kind, "cursor checks are the server's Pull")(
    "rejects malformed and unknown cursors with invalid_argument",
    async () => {
      for (const cursor of ["abc", "-1", "1.5", "999999999"]) {
        const r = await t.call("SyncService/Pull", { cursor });
        expect(r.status, cursor).toBe(400);
        expect(r.body.code, cursor).toBe("invalid_argument");
      }
    },
  );
});

/**
 * SyncService.Push over HTTP JSON and the typed binary client: what a batch of
 * device changes does (DESIGN.md §4). Validation rejects the whole batch with
 * a PushRejection detail listing every bad change; accepted changes merge with
 * client-core's rules (per-column LWW, add-wins OR-set, tombstones for good)
 * and reach the feed as their accepted part only.
 */
import { randomUUID } from "node:crypto";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Change, Hlc } from "@hivekeep/client-core/core";
import { PushRejectionSchema, SyncService } from "@hivekeep/proto";
import { localOrganizationId, localUserId } from "@hivekeep/server";
import { beforeAll, describe, expect, it } from "vitest";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import { databaseKinds } from "../support/databases.ts";
import {
  callOk,
  feedHead,
  pullAll,
  useTestServer,
  type WireChange,
  withApiaryAndHive,
} from "../support/fixtures.ts";
import type { TestServer } from "../support/server.ts";
import {
  apiaryUpsert,
  device,
  hlcAt,
  jsonRejections,
  pushJson,
  pushOk,
  pushRejected,
  type TestChange,
  toMessage,
  tombstone,
  upsert,
} from "../support/sync.ts";

const photo = (n: number) => `data:image/png;base64,iVBORw0KGgo${n}`;
const iso = (ms: number) => new Date(ms).toISOString();
const ownScope = `user:${localUserId}`;
const otherTenant = "00000000-0000-7000-8000-0000000000bb";

/** Whether the tenant's table holds the row at all (complete, partial or tombstoned). */
async function stored(t: TestServer, table: string, id: string): Promise<boolean> {
  const rows = await t.server.db.query(
    `select 1 from ${table} where organization_id = $1 and id = $2`,
    [localOrganizationId, id],
  );
  return rows.length > 0;
}

/** The feed since `cursor` as (entity, entityId, op, payload, hlc, authorId). */
async function feedSince(t: TestServer, cursor: string) {
  const { changes } = await pullAll(t, cursor);
  return changes.map((c: WireChange) => ({
    entity: c.entity,
    entityId: c.entityId,
    op: c.op,
    payload: JSON.parse(c.payloadJson ?? "{}"),
    hlc: c.hlc,
    authorId: c.authorId,
  }));
}

/** A failed push wrote nothing: the feed head is unchanged and none of the rows exist. */
async function expectNothingWritten(
  t: TestServer,
  headBefore: string,
  rows: readonly (readonly [table: string, id: string])[],
): Promise<void> {
  expect(await feedHead(t)).toBe(headBefore);
  for (const [table, id] of rows) expect(await stored(t, table, id), `${table} ${id}`).toBe(false);
}

describe.each(databaseKinds)("Push on %s", (kind) => {
  const t = useTestServer(kind);
  const devA = device("dev-a");
  const devB = device("dev-b");
  /** An apiary and a hive created by the service RPCs, for changes that need them. */
  let base: { apiaryId: string; hiveId: string };
  beforeAll(async () => {
    base = await withApiaryAndHive(t);
    // A second tenant, whose ids must read as unknown to the caller.
    await t.server.db.query(
      "insert into organizations (id, name) values ($1, 'Other') on conflict do nothing",
      [otherTenant],
    );
  });

  /** An apiary and hive of the other tenant, written straight through the write path. */
  async function foreignHive(): Promise<{ apiaryId: string; hiveId: string }> {
    const apiaryId = randomUUID();
    const hiveId = randomUUID();
    const change = (c: TestChange): Change => ({
      ...c,
      entity: c.entity as Change["entity"],
      hlc: c.hlc as Hlc,
      authorId: "someone-else",
    });
    await writeTenant(t.server.db, otherTenant, (w) =>
      w.apply([
        change(apiaryUpsert(apiaryId, devA.stamp(), { name: "Theirs" })),
        change(
          upsert("hive", hiveId, apiaryId, devA.stamp(), {
            apiary_id: apiaryId,
            name: "Their hive",
          }),
        ),
      ]),
    );
    return { apiaryId, hiveId };
  }

  describe("accepting a batch", () => {
    it("applies a valid batch and answers serverTime and no conflicts, never a cursor", async () => {
      const apiaryId = randomUUID();
      const body = await pushOk(t, [
        apiaryUpsert(apiaryId, devA.stamp(), { name: "Push meadow", lat: 48.1, lng: 11.5 }),
      ]);
      // Conflicts are empty (left out in JSON); there is nothing a device could jump its Pull to.
      expect(Object.keys(body)).toEqual(["serverTime"]);
      expect(Math.abs(Date.parse(body.serverTime) - Date.now())).toBeLessThan(5_000);

      // The server's clock is this machine's: its time falls within the call, however long it took.
      const sent = Date.now();
      const typed = await t.client(SyncService).push({
        changes: [toMessage(apiaryUpsert(apiaryId, devA.stamp(), { address: "Lane 2" }))],
      });
      const answered = Date.now();
      expect(typed.conflicts).toEqual([]);
      const serverMs = typed.serverTime && timestampMs(typed.serverTime);
      expect(serverMs).toBeGreaterThanOrEqual(sent);
      expect(serverMs).toBeLessThanOrEqual(answered);
    });

    it("makes pushed records visible to the service RPCs (GetApiary, GetHive, ListHives)", async () => {
      const apiaryId = randomUUID();
      const hiveId = randomUUID();
      await pushOk(t, [
        apiaryUpsert(apiaryId, devA.stamp(), { name: "Offline apiary", address: "Forest road" }),
        upsert("hive", hiveId, apiaryId, devA.stamp(), {
          apiary_id: apiaryId,
          name: "Offline hive",
          type: 2,
          status: 1,
          boxes: 3,
          created_at: "2025-04-01T08:00:00Z",
        }),
      ]);
      const apiary = (await callOk(t, "ApiaryService/GetApiary", { id: apiaryId })).apiary;
      expect(apiary).toMatchObject({
        id: apiaryId,
        name: "Offline apiary",
        address: "Forest road",
      });
      const hive = (await callOk(t, "HiveService/GetHive", { id: hiveId })).hive;
      expect(hive).toMatchObject({
        id: hiveId,
        apiaryId,
        name: "Offline hive",
        type: "HIVE_TYPE_DADANT",
        status: "HIVE_STATUS_ACTIVE",
        boxes: 3,
        createdAt: "2025-04-01T08:00:00Z",
      });
      const list = await callOk(t, "HiveService/ListHives", { apiaryId });
      expect(list.hives.map((h: { id: string }) => h.id)).toEqual([hiveId]);
    });

    it("accepts an apiary created earlier in the same batch as the scope of later changes", async () => {
      const apiaryId = randomUUID();
      const hiveId = randomUUID();
      const create = apiaryUpsert(apiaryId, devA.stamp(), { name: "Same batch" });
      const hive = upsert("hive", hiveId, apiaryId, devA.stamp(), {
        apiary_id: apiaryId,
        name: "In the new apiary",
      });
      // The scope must exist before the change: a hive before its apiary's create is refused.
      const head = await feedHead(t);
      const wrongOrder = await pushRejected(t, [hive, create]);
      expect(wrongOrder.code).toBe("permission_denied");
      expect(new Set(wrongOrder.rejections.map((r) => r.index))).toEqual(new Set([0]));
      await expectNothingWritten(t, head, [
        ["apiaries", apiaryId],
        ["hives", hiveId],
      ]);

      await pushOk(t, [create, hive]);
      const got = (await callOk(t, "HiveService/GetHive", { id: hiveId })).hive;
      expect(got).toMatchObject({ apiaryId, name: "In the new apiary" });
    });

    it("accepts a personal task in the caller's own user: scope", async () => {
      const taskId = randomUUID();
      await pushOk(t, [
        upsert("task", taskId, ownScope, devA.stamp(), {
          title: "Order sugar",
          apiary_id: "",
          hive_id: "",
          priority: 3,
          done: false,
        }),
      ]);
      const task = (await callOk(t, "TaskService/GetTask", { id: taskId })).task;
      expect(task).toMatchObject({
        id: taskId,
        title: "Order sugar",
        priority: "TASK_PRIORITY_HIGH",
      });
    });

    it("records the caller as the author, whatever authorId the device sends", async () => {
      const head = await feedHead(t);
      const apiaryId = randomUUID();
      await pushOk(t, [
        {
          ...apiaryUpsert(apiaryId, devA.stamp(), { name: "Claimed" }),
          authorId: "00000000-0000-7000-8000-00000000dead",
        },
      ]);
      const feed = await feedSince(t, head);
      expect(feed.map((c) => c.authorId)).toEqual([localUserId]);
    });

    it("accepts an empty push and writes nothing", async () => {
      const head = await feedHead(t);
      expect(Object.keys(await pushOk(t, []))).toEqual(["serverTime"]);
      const typed = await t.client(SyncService).push({ changes: [] });
      expect(typed.conflicts).toEqual([]);
      expect(await feedHead(t)).toBe(head);
    });

    it("accepts proto3 JSON variants: snake_case field names, enum numbers, a delete without payloadJson", async () => {
      const apiaryId = randomUUID();
      const r = await t.call("SyncService/Push", {
        changes: [
          {
            entity: "apiary",
            entity_id: apiaryId,
            scope_id: apiaryId,
            op: 1,
            payload_json: JSON.stringify({ name: "Snake case" }),
            hlc: devA.stamp(),
          },
          { entity: "apiary", entityId: apiaryId, scopeId: apiaryId, op: 2, hlc: devA.stamp() },
        ],
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(await stored(t, "apiaries", apiaryId)).toBe(true);
      expect((await t.call("ApiaryService/GetApiary", { id: apiaryId })).status).toBe(404);

      const head = await feedHead(t);
      const unspecified = await t.call("SyncService/Push", {
        changes: [{ entity: "apiary", entityId: apiaryId, scopeId: apiaryId, hlc: devA.stamp() }],
      });
      expect(unspecified.status).toBe(400);
      expect(jsonRejections(unspecified.body)).toEqual([
        {
          index: 0,
          code: "invalid_argument",
          reason: "op must be 1 (upsert) or 2 (delete), got 0",
        },
      ]);
      expect(await feedHead(t)).toBe(head);
    });

    it("echoes the device's own changes in its next Pull (devices skip HLCs they already hold)", async () => {
      const head = await feedHead(t);
      const apiaryId = randomUUID();
      const batch = [
        apiaryUpsert(apiaryId, devA.stamp(), { name: "Echo" }),
        upsert("hive", randomUUID(), apiaryId, devA.stamp(), { apiary_id: apiaryId, name: "E1" }),
      ];
      await pushOk(t, batch);
      const { changes } = await pullAll(t, head);
      expect(changes).toEqual(
        batch.map((c) => ({
          entity: c.entity,
          entityId: c.entityId,
          scopeId: c.scopeId,
          op: "CHANGE_OP_UPSERT",
          payloadJson: JSON.stringify(c.payload),
          hlc: c.hlc,
          authorId: localUserId,
        })),
      );
    });
  });

  describe("validation (all of a batch, or nothing)", () => {
    it("rejects what the registry does not describe: unknown entity or column, server-kept columns, malformed ids and HLCs", async () => {
      const head = await feedHead(t);
      const good = randomUUID();
      const r = await pushRejected(t, [
        apiaryUpsert(good, devA.stamp(), { name: "Good" }),
        upsert("beehive", randomUUID(), base.apiaryId, devA.stamp(), { name: "x" }),
        apiaryUpsert(good, devA.stamp(), { colour: "blue" }),
        apiaryUpsert(good, devA.stamp(), { organization_id: otherTenant }),
        upsert("hive", base.hiveId, base.apiaryId, devA.stamp(), { deleted: true }),
        upsert("hive", "not a uuid!", base.apiaryId, devA.stamp(), { note: "x" }),
        apiaryUpsert(good, "yesterday", { address: "x" }),
      ]);
      expect(r.code).toBe("invalid_argument");
      expect(r.rejections).toEqual([
        {
          index: 1,
          code: "invalid_argument",
          reason: expect.stringMatching(/"beehive" is unknown/),
        },
        { index: 2, code: "invalid_argument", reason: expect.stringMatching(/no column "colour"/) },
        {
          index: 3,
          code: "invalid_argument",
          reason: expect.stringMatching(/organization_id is kept by the server/),
        },
        { index: 4, code: "invalid_argument", reason: expect.stringMatching(/deleted is kept/) },
        { index: 5, code: "invalid_argument", reason: expect.stringMatching(/entityId/) },
        { index: 6, code: "invalid_argument", reason: expect.stringMatching(/hlc .* malformed/) },
      ]);
      await expectNothingWritten(t, head, [["apiaries", good]]);
    });

    it("rejects values of the wrong type: numbers, integers, booleans, enum numbers, RFC 3339 timestamps", async () => {
      const head = await feedHead(t);
      const { apiaryId, hiveId } = base;
      const inspection = (payload: Record<string, unknown>) =>
        upsert("inspection", randomUUID(), apiaryId, devA.stamp(), {
          hive_id: hiveId,
          date: "2025-05-01T10:00:00Z",
          ...payload,
        });
      const valid = inspection({ date: "2025-05-01T10:00:00+02:00", queen_seen: true, stores: 1 });
      const batch = [
        upsert("apiary", apiaryId, apiaryId, devA.stamp(), { lat: "48.1" }),
        upsert("hive", hiveId, apiaryId, devA.stamp(), { boxes: 1.5 }),
        inspection({ queen_seen: "yes" }),
        upsert("hive", hiveId, apiaryId, devA.stamp(), { type: 7 }),
        upsert("hive", hiveId, apiaryId, devA.stamp(), { type: "HIVE_TYPE_DADANT" }),
        inspection({ date: "yesterday" }),
        inspection({ date: "2025-05-01 10:00" }),
        valid,
      ];
      const r = await pushRejected(t, batch);
      expect(r.code).toBe("invalid_argument");
      expect(r.rejections.map((x) => [x.index, x.code])).toEqual(
        [0, 1, 2, 3, 4, 5, 6].map((i) => [i, "invalid_argument"]),
      );
      expect(r.rejections.map((x) => x.reason)).toEqual([
        expect.stringMatching(/apiary\.lat must be a finite number/),
        expect.stringMatching(/hive\.boxes must be an integer/),
        expect.stringMatching(/inspection\.queen_seen must be a boolean/),
        expect.stringMatching(/hive\.type must be one of the enum numbers/),
        expect.stringMatching(/hive\.type must be one of the enum numbers/),
        expect.stringMatching(/inspection\.date/),
        expect.stringMatching(/inspection\.date/),
      ]);
      await expectNothingWritten(t, head, [["inspections", valid.entityId]]);

      // A float that JSON.stringify cannot express, sent as raw JSON text.
      const raw = await t.call("SyncService/Push", {
        changes: [
          {
            entity: "apiary",
            entityId: apiaryId,
            scopeId: apiaryId,
            op: "CHANGE_OP_UPSERT",
            payloadJson: '{"lat": 1e400}',
            hlc: devA.stamp(),
          },
        ],
      });
      expect(raw.status).toBe(400);
      expect(jsonRejections(raw.body)).toEqual([
        { index: 0, code: "invalid_argument", reason: "apiary.lat must be a finite number" },
      ]);
      expect(await feedHead(t)).toBe(head);
    });

    it("rejects the RPCs' value rules: blank names, amount_kg not above 0, photo prefix and size, year above 0", async () => {
      const head = await feedHead(t);
      const { apiaryId, hiveId } = base;
      const harvest = (amount: number) =>
        upsert("harvest", randomUUID(), apiaryId, devA.stamp(), {
          hive_id: hiveId,
          date: "2025-07-01T00:00:00Z",
          amount_kg: amount,
        });
      const newHive = randomUUID();
      const r = await pushRejected(t, [
        apiaryUpsert(randomUUID(), devA.stamp(), { name: "   " }),
        upsert("hive", newHive, apiaryId, devA.stamp(), { apiary_id: apiaryId, name: "" }),
        harvest(0),
        harvest(-2),
        upsert("hive", hiveId, apiaryId, devA.stamp(), { photo: "https://example.com/bee.jpg" }),
        upsert("hive", hiveId, apiaryId, devA.stamp(), {
          photo: `data:image/jpeg;base64,${"A".repeat(512 * 1024)}`,
        }),
        upsert("inspection", randomUUID(), apiaryId, devA.stamp(), {
          hive_id: hiveId,
          date: "2025-05-01T10:00:00Z",
          photo_keys: { add: ["bee.jpg"] },
        }),
        upsert("inspection", randomUUID(), apiaryId, devA.stamp(), {
          hive_id: "",
          date: "2025-05-01T10:00:00Z",
        }),
        upsert("queen", randomUUID(), apiaryId, devA.stamp(), { hive_id: hiveId, year: 0 }),
        harvest(12.5),
      ]);
      expect(r.code).toBe("invalid_argument");
      expect(r.rejections.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(r.rejections.map((x) => x.reason)).toEqual([
        expect.stringMatching(/apiary\.name is required and cannot be blank/),
        expect.stringMatching(/hive\.name is required and cannot be blank/),
        expect.stringMatching(/harvest\.amount_kg must be greater than 0/),
        expect.stringMatching(/harvest\.amount_kg must be greater than 0/),
        expect.stringMatching(/hive\.photo must start with "data:image\/"/),
        expect.stringMatching(/hive\.photo must be at most 524288 bytes/),
        expect.stringMatching(/inspection\.photo_keys add\[0\] must start with "data:image\/"/),
        expect.stringMatching(/inspection\.hive_id is required and cannot be empty/),
        expect.stringMatching(/queen\.year must be greater than 0/),
      ]);
      await expectNothingWritten(t, head, [["hives", newHive]]);
    });

    it("refuses the security review's values (apiary lat 1e308, hive boxes -5) as CreateApiary and CreateHive do, in the same words", async () => {
      const head = await feedHead(t);
      const { apiaryId, hiveId } = base;
      const newApiary = randomUUID();
      const r = await pushRejected(t, [
        apiaryUpsert(newApiary, devA.stamp(), { name: "Far away", lat: 1e308 }),
        upsert("hive", hiveId, apiaryId, devA.stamp(), { boxes: -5 }),
      ]);
      expect(r.code).toBe("invalid_argument");
      const latPhrase = "must be between -90 and 90";
      const boxesPhrase = "must be between 0 and 20";
      expect(r.rejections.map((x) => x.reason)).toEqual([
        `apiary.lat ${latPhrase}`,
        `hive.boxes ${boxesPhrase}`,
      ]);
      await expectNothingWritten(t, head, [["apiaries", newApiary]]);

      const apiary = await t.call("ApiaryService/CreateApiary", { name: "Far away", lat: 1e308 });
      expect(apiary.status).toBe(400);
      expect(apiary.body).toEqual({ code: "invalid_argument", message: `lat ${latPhrase}` });
      const hive = await t.call("HiveService/CreateHive", { apiaryId, name: "Minus", boxes: -5 });
      expect(hive.status).toBe(400);
      expect(hive.body).toEqual({ code: "invalid_argument", message: `boxes ${boxesPhrase}` });
      expect(await feedHead(t)).toBe(head);
    });

    it("rejects references to ids that do not exist in the tenant, another tenant's included", async () => {
      const head = await feedHead(t);
      const foreign = await foreignHive();
      const { apiaryId, hiveId } = base;
      const ghost = randomUUID();
      const inspections = [randomUUID(), randomUUID(), randomUUID()];
      const r = await pushRejected(t, [
        upsert("inspection", inspections[0] as string, apiaryId, devA.stamp(), {
          hive_id: ghost,
          date: "2025-05-01T10:00:00Z",
        }),
        upsert("inspection", inspections[1] as string, apiaryId, devA.stamp(), {
          hive_id: foreign.hiveId,
          date: "2025-05-01T10:00:00Z",
        }),
        upsert("harvest", randomUUID(), apiaryId, devA.stamp(), {
          hive_id: hiveId,
          queen_id: ghost,
          date: "2025-07-01T00:00:00Z",
          amount_kg: 3,
        }),
        upsert("inspection", inspections[2] as string, apiaryId, devA.stamp(), {
          hive_id: hiveId,
          date: "2025-05-01T10:00:00Z",
        }),
      ]);
      expect(r.code).toBe("invalid_argument");
      expect(r.rejections).toEqual([
        { index: 0, code: "invalid_argument", reason: `hive_id references unknown hive ${ghost}` },
        {
          index: 1,
          code: "invalid_argument",
          reason: `hive_id references unknown hive ${foreign.hiveId}`,
        },
        {
          index: 2,
          code: "invalid_argument",
          reason: `queen_id references unknown queen ${ghost}`,
        },
      ]);
      await expectNothingWritten(
        t,
        head,
        inspections.map((id) => ["inspections", id] as const),
      );
    });

    it("rejects changing queen.hive_id, an immutable column, and accepts re-sending its value", async () => {
      const { apiaryId, hiveId } = base;
      const queenId = (await callOk(t, "QueenService/CreateQueen", { hiveId, year: 2025 })).queen
        .id;
      const otherHive = (await callOk(t, "HiveService/CreateHive", { apiaryId, name: "Other" }))
        .hive.id;
      const head = await feedHead(t);
      const r = await pushRejected(t, [
        upsert("queen", queenId, apiaryId, devA.stamp(), { hive_id: otherHive }),
      ]);
      expect(r).toMatchObject({ code: "invalid_argument" });
      expect(r.rejections).toEqual([
        {
          index: 0,
          code: "invalid_argument",
          reason: expect.stringMatching(/hive_id is immutable/),
        },
      ]);
      expect(await feedHead(t)).toBe(head);

      await pushOk(t, [
        upsert("queen", queenId, apiaryId, devA.stamp(), { hive_id: hiveId, note: "Calm" }),
      ]);
      const queen = (await callOk(t, "QueenService/GetQueen", { id: queenId })).queen;
      expect(queen).toMatchObject({ hiveId, note: "Calm" });
    });

    it("accepts creating and tombstoning an event, and rejects editing one", async () => {
      const { apiaryId, hiveId } = base;
      const eventId = randomUUID();
      const create = upsert("event", eventId, apiaryId, devA.stamp(), {
        type: 5,
        apiary_id: apiaryId,
        hive_id: hiveId,
        ref_entity: "inspection",
        ref_id: randomUUID(),
        title: "Inspection",
        date: "2025-05-01T10:00:00Z",
      });
      await pushOk(t, [create]);
      expect((await callOk(t, "EventService/GetEvent", { id: eventId })).event).toMatchObject({
        id: eventId,
        type: "EVENT_TYPE_INSPECTION",
      });

      const head = await feedHead(t);
      const r = await pushRejected(t, [
        upsert("event", eventId, apiaryId, devA.stamp(), { title: "Edited" }),
      ]);
      expect(r.code).toBe("invalid_argument");
      expect(r.rejections).toEqual([
        { index: 0, code: "invalid_argument", reason: expect.stringMatching(/append-only/) },
      ]);
      expect(await feedHead(t)).toBe(head);

      await pushOk(t, [tombstone("event", eventId, apiaryId, devA.stamp())]);
      expect((await t.call("EventService/GetEvent", { id: eventId })).status).toBe(404);
    });

    it("rejects scopes the caller cannot write with permission_denied", async () => {
      const head = await feedHead(t);
      const foreign = await foreignHive();
      const unknownApiary = randomUUID();
      const hives = [randomUUID(), randomUUID(), randomUUID()];
      const task = randomUUID();
      const r = await pushRejected(t, [
        upsert("hive", hives[0] as string, unknownApiary, devA.stamp(), { name: "Nowhere" }),
        upsert("hive", hives[1] as string, foreign.apiaryId, devA.stamp(), { name: "Theirs" }),
        upsert("task", task, "user:00000000-0000-7000-8000-0000000000cc", devA.stamp(), {
          title: "Someone else's errand",
        }),
        upsert("hive", hives[2] as string, base.apiaryId, devA.stamp(), {
          apiary_id: base.apiaryId,
          name: "Fine",
        }),
      ]);
      expect(r.code).toBe("permission_denied");
      expect(r.rejections).toEqual([
        {
          index: 0,
          code: "permission_denied",
          reason: `scope ${unknownApiary} is not an apiary the caller can write`,
        },
        {
          index: 1,
          code: "permission_denied",
          reason: `scope ${foreign.apiaryId} is not an apiary the caller can write`,
        },
        {
          index: 2,
          code: "permission_denied",
          reason: expect.stringMatching(/another user's personal scope/),
        },
      ]);
      await expectNothingWritten(t, head, [
        ...hives.map((id) => ["hives", id] as const),
        ["tasks", task],
      ]);
    });

    it("fails with permission_denied when any rejection is about a scope, listing the invalid ones too", async () => {
      const head = await feedHead(t);
      const r = await pushRejected(t, [
        apiaryUpsert(randomUUID(), devA.stamp(), { name: "" }),
        upsert("task", randomUUID(), "user:00000000-0000-7000-8000-0000000000cc", devA.stamp(), {
          title: "Theirs",
        }),
      ]);
      expect(r.code).toBe("permission_denied");
      expect(r.rejections.map((x) => [x.index, x.code])).toEqual([
        [0, "invalid_argument"],
        [1, "permission_denied"],
      ]);
      expect(await feedHead(t)).toBe(head);
    });
  });

  describe("error details", () => {
    it("carries a PushRejection detail that the typed client decodes with ConnectError.findDetails", async () => {
      const err = await t
        .client(SyncService)
        .push({
          changes: [
            toMessage(apiaryUpsert(randomUUID(), devA.stamp(), { name: "Fine" })),
            toMessage(apiaryUpsert(randomUUID(), devA.stamp(), { name: "" })),
          ],
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectError);
      const ce = err as ConnectError;
      expect(ce.code).toBe(Code.InvalidArgument);
      const [detail, ...more] = ce.findDetails(PushRejectionSchema);
      expect(more).toEqual([]);
      expect(detail?.rejections.map((r) => ({ index: r.index, code: r.code }))).toEqual([
        { index: 1, code: "invalid_argument" },
      ]);
    });

    it("sends the detail in JSON as type hivekeep.v1.PushRejection and names each bad index in the message", async () => {
      const head = await feedHead(t);
      const batch = [
        apiaryUpsert(randomUUID(), devA.stamp(), { name: "Fine" }),
        apiaryUpsert(randomUUID(), devA.stamp(), { name: "" }),
        apiaryUpsert(randomUUID(), devA.stamp(), { name: "Also fine" }),
        apiaryUpsert(randomUUID(), devA.stamp(), { lat: "north" }),
      ];
      const r = await pushJson(t, batch);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("invalid_argument");
      expect(r.body.message).toMatch(
        /^2 changes rejected, nothing written: #1 invalid_argument: .*; #3 /,
      );
      expect(r.body.details).toHaveLength(1);
      expect(r.body.details[0].type).toBe("hivekeep.v1.PushRejection");
      expect(jsonRejections(r.body).map((x) => x.index)).toEqual([1, 3]);
      expect(await feedHead(t)).toBe(head);

      const denied = await pushJson(t, [
        upsert("task", randomUUID(), "user:00000000-0000-7000-8000-0000000000cc", devA.stamp(), {
          title: "x",
        }),
      ]);
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe("permission_denied");
      expect(jsonRejections(denied.body)).toEqual([
        { index: 0, code: "permission_denied", reason: expect.any(String) },
      ]);
    });

    it("lets the device set exactly the listed changes aside and push the rest", async () => {
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const batch = [
        apiaryUpsert(ids[0] as string, devA.stamp(), { name: "Keep 0" }),
        apiaryUpsert(ids[1] as string, devA.stamp(), { name: " " }),
        apiaryUpsert(ids[2] as string, devA.stamp(), { name: "Keep 2" }),
      ];
      const r = await pushRejected(t, batch);
      const bad = new Set(r.rejections.map((x) => x.index));
      await pushOk(
        t,
        batch.filter((_, i) => !bad.has(i)),
      );
      expect(await stored(t, "apiaries", ids[0] as string)).toBe(true);
      expect(await stored(t, "apiaries", ids[1] as string)).toBe(false);
      expect(await stored(t, "apiaries", ids[2] as string)).toBe(true);
    });
  });

  describe("merge", () => {
    it("takes each column from the strictly greater HLC and reports the columns that lost with the winning HLC", async () => {
      const id = randomUUID();
      const t0 = Date.now() - 10_000;
      const head = await feedHead(t);
      const a = hlcAt(t0 + 2_000, "dev-a");
      await pushOk(t, [apiaryUpsert(id, a, { name: "North", address: "A lane" })]);

      // Device B wrote earlier (offline): its name loses, its lat is new and wins.
      const b = hlcAt(t0 + 1_000, "dev-b");
      const res = await t
        .client(SyncService)
        .push({ changes: [toMessage(apiaryUpsert(id, b, { name: "South", lat: 47.5 }))] });
      expect(
        res.conflicts.map((c) => ({
          entity: c.entity,
          entityId: c.entityId,
          columns: c.columns,
          winningHlc: c.winningHlc,
        })),
      ).toEqual([{ entity: "apiary", entityId: id, columns: ["name"], winningHlc: a }]);

      // Same millisecond, higher counter: strictly greater, so it wins.
      const c = hlcAt(t0 + 2_000, "dev-b", 1);
      const body = await pushOk(t, [apiaryUpsert(id, c, { name: "Centre" })]);
      expect(body.conflicts).toBeUndefined();

      const apiary = (await callOk(t, "ApiaryService/GetApiary", { id })).apiary;
      expect(apiary).toMatchObject({ name: "Centre", address: "A lane", lat: 47.5 });
      // The feed holds only what each change got accepted.
      expect((await feedSince(t, head)).map((f) => [f.hlc, f.payload])).toEqual([
        [a, { name: "North", address: "A lane" }],
        [b, { lat: 47.5 }],
        [c, { name: "Centre" }],
      ]);
    });

    it("adds no feed row for a change of which nothing was accepted, and still reports its conflict", async () => {
      const id = randomUUID();
      const t0 = Date.now() - 10_000;
      const winner = hlcAt(t0 + 500, "dev-a");
      await pushOk(t, [apiaryUpsert(id, winner, { name: "Kept", address: "Here" })]);
      const head = await feedHead(t);
      const body = await pushOk(t, [
        apiaryUpsert(id, hlcAt(t0, "dev-b"), { name: "Lost", address: "There" }),
      ]);
      expect(body.conflicts).toEqual([
        { entity: "apiary", entityId: id, columns: ["name", "address"], winningHlc: winner },
      ]);
      expect(await feedHead(t)).toBe(head);
    });

    it("merges inspection.photo_keys as an add-wins observed-remove set", async () => {
      const { apiaryId, hiveId } = base;
      const id = randomUUID();
      const t0 = Date.now() - 10_000;
      const tagA = hlcAt(t0, "dev-a");
      const get = async () =>
        (await callOk(t, "InspectionService/GetInspection", { id })).inspection.photoKeys ?? [];
      await pushOk(t, [
        upsert("inspection", id, apiaryId, tagA, {
          hive_id: hiveId,
          apiary_id: apiaryId,
          date: iso(t0),
          photo_keys: { add: [photo(1), photo(2)] },
        }),
      ]);
      expect(await get()).toEqual([photo(1), photo(2)]);

      // Device C adds photo 1 again, concurrently with device B removing what it had
      // observed (both adds of device A, tag tagA). The unobserved add survives.
      const tagC = hlcAt(t0 + 1_000, "dev-c");
      await pushOk(t, [
        upsert("inspection", id, apiaryId, tagC, { photo_keys: { add: [photo(1)] } }),
      ]);
      const head = await feedHead(t);
      await pushOk(t, [
        upsert("inspection", id, apiaryId, hlcAt(t0 + 2_000, "dev-b"), {
          photo_keys: { remove: [tagA] },
        }),
      ]);
      expect(await get()).toEqual([photo(1)]);
      expect((await feedSince(t, head)).map((f) => f.payload)).toEqual([
        { photo_keys: { remove: [tagA] } },
      ]);

      // A re-push of that removal (a lost response) names a tag the set has removed: taken,
      // and nothing of it is new, so it adds no feed row.
      await pushOk(t, [
        upsert("inspection", id, apiaryId, hlcAt(t0 + 2_000, "dev-b"), {
          photo_keys: { remove: [tagA] },
        }),
      ]);
      expect((await feedSince(t, head)).map((f) => f.payload)).toHaveLength(1);

      // A removal names adds its writer observed, which reached the server first: a tag the
      // set never received is refused (issue 27), not kept in the set's removed tags for good.
      const tagD = hlcAt(t0 + 3_000, "dev-d");
      const before = await feedHead(t);
      const r = await pushRejected(t, [
        upsert("inspection", id, apiaryId, hlcAt(t0 + 4_000, "dev-b"), {
          photo_keys: { remove: [tagD] },
        }),
      ]);
      expect(r.rejections).toEqual([
        {
          index: 0,
          code: "invalid_argument",
          reason: `inspection.photo_keys remove[0] "${tagD}" is not the tag of an add this set received: a removal names only adds it observed`,
        },
      ]);
      expect(await feedHead(t)).toBe(before);
      await pushOk(t, [
        upsert("inspection", id, apiaryId, tagD, { photo_keys: { add: [photo(3)] } }),
      ]);
      expect(await get()).toEqual([photo(1), photo(3)]);
    });

    it("never undoes a tombstone: later edits merge into the row but it stays deleted", async () => {
      const { apiaryId } = base;
      const hiveId = randomUUID();
      const head = await feedHead(t);
      await pushOk(t, [
        upsert("hive", hiveId, apiaryId, devA.stamp(), { apiary_id: apiaryId, name: "Doomed" }),
        tombstone("hive", hiveId, apiaryId, devA.stamp()),
      ]);
      await pushOk(t, [upsert("hive", hiveId, apiaryId, devB.stamp(), { name: "Edited later" })]);
      expect((await t.call("HiveService/GetHive", { id: hiveId })).status).toBe(404);
      const list = await callOk(t, "HiveService/ListHives", { apiaryId });
      expect(list.hives.map((h: { id: string }) => h.id)).not.toContain(hiveId);
      expect((await feedSince(t, head)).map((f) => f.op)).toEqual([
        "CHANGE_OP_UPSERT",
        "CHANGE_OP_DELETE",
        "CHANGE_OP_UPSERT",
      ]);

      // A hive deleted through the service stays deleted when a device edits it afterwards.
      const rpcHive = (await callOk(t, "HiveService/CreateHive", { apiaryId, name: "RPC" })).hive
        .id;
      await callOk(t, "HiveService/DeleteHive", { id: rpcHive });
      await pushOk(t, [upsert("hive", rpcHive, apiaryId, devB.stamp(1_000), { note: "Offline" })]);
      expect((await t.call("HiveService/GetHive", { id: rpcHive })).status).toBe(404);
    });

    it("stores a partial change for an unknown row without blocking the batch, and completes it when the create arrives", async () => {
      const { apiaryId, hiveId } = base;
      const id = randomUUID();
      const other = randomUUID();
      const t0 = Date.now() - 10_000;
      const late = hlcAt(t0 + 1_000, "dev-b");
      const head = await feedHead(t);
      // Device B's edit reaches the server before device A's create.
      await pushOk(t, [
        upsert("inspection", id, apiaryId, late, { note: "Queen cells seen" }),
        apiaryUpsert(other, hlcAt(t0 + 1_001, "dev-b"), { name: "Unblocked" }),
      ]);
      expect(await stored(t, "inspections", id)).toBe(true);
      expect((await t.call("InspectionService/GetInspection", { id })).status).toBe(404);
      expect((await callOk(t, "ApiaryService/GetApiary", { id: other })).apiary.name).toBe(
        "Unblocked",
      );

      const create = hlcAt(t0, "dev-a");
      const body = await pushOk(t, [
        upsert("inspection", id, apiaryId, create, {
          hive_id: hiveId,
          apiary_id: apiaryId,
          date: "2025-05-01T10:00:00Z",
          note: "First look",
        }),
      ]);
      expect(body.conflicts).toEqual([
        { entity: "inspection", entityId: id, columns: ["note"], winningHlc: late },
      ]);
      const got = (await callOk(t, "InspectionService/GetInspection", { id })).inspection;
      expect(got).toMatchObject({
        id,
        hiveId,
        note: "Queen cells seen",
        date: "2025-05-01T10:00:00Z",
      });
      expect(
        (await feedSince(t, head)).filter((f) => f.entityId === id).map((f) => f.payload),
      ).toEqual([
        { note: "Queen cells seen" },
        { hive_id: hiveId, apiary_id: apiaryId, date: "2025-05-01T10:00:00.000Z" },
      ]);
    });

    it("changes nothing and adds nothing when the same batch is pushed again (a retry after a lost response)", async () => {
      const apiaryId = randomUUID();
      const hiveId = randomUUID();
      const inspectionId = randomUUID();
      const eventId = randomUUID();
      const neverSeen = randomUUID();
      const batch = [
        apiaryUpsert(apiaryId, devA.stamp(), { name: "Retry", created_at: "2025-05-01T00:00:00Z" }),
        upsert("hive", hiveId, apiaryId, devA.stamp(), { apiary_id: apiaryId, name: "R1" }),
        upsert("inspection", inspectionId, apiaryId, devA.stamp(), {
          hive_id: hiveId,
          apiary_id: apiaryId,
          date: "2025-05-01T10:00:00Z",
          photo_keys: { add: [photo(9)] },
        }),
        upsert("event", eventId, apiaryId, devA.stamp(), {
          type: 5,
          apiary_id: apiaryId,
          hive_id: hiveId,
          ref_entity: "inspection",
          ref_id: inspectionId,
          date: "2025-05-01T10:00:00Z",
        }),
        upsert("hive", hiveId, apiaryId, devA.stamp(), { note: "Edited in the same batch" }),
        upsert("task", randomUUID(), ownScope, devA.stamp(), { title: "Personal", apiary_id: "" }),
        // A tombstone for an apiary this server has never seen: kept as a partial row.
        tombstone("apiary", neverSeen, neverSeen, devA.stamp()),
      ];
      await pushOk(t, batch);
      const head = await feedHead(t);
      const snapshot = async () => ({
        hive: (await callOk(t, "HiveService/GetHive", { id: hiveId })).hive,
        inspection: (await callOk(t, "InspectionService/GetInspection", { id: inspectionId }))
          .inspection,
        event: (await callOk(t, "EventService/GetEvent", { id: eventId })).event,
      });
      const before = await snapshot();

      const again = await pushOk(t, batch);
      expect(Object.keys(again)).toEqual(["serverTime"]);
      const typed = await t.client(SyncService).push({ changes: batch.map(toMessage) });
      expect(typed.conflicts).toEqual([]);
      expect(await feedHead(t)).toBe(head);
      expect(await snapshot()).toEqual(before);
    });
  });

  // Issue 27, finding 3: Push passed the 20-photo cap (it counted distinct photos, the set stores
  // one entry per add) and kept removals of any number of made-up tags.
  describe("the photo cap counts what the set stores; removals name what it received", () => {
    const dev = device("dev-cap");
    const tiny = photo(0);
    /** A new inspection of the base hive, pushed; its id. */
    async function newInspection(): Promise<string> {
      const { apiaryId, hiveId } = base;
      const id = randomUUID();
      await pushOk(t, [
        upsert("inspection", id, apiaryId, dev.stamp(), {
          hive_id: hiveId,
          apiary_id: apiaryId,
          date: iso(Date.now() - 60_000),
        }),
      ]);
      return id;
    }
    /** The stored set as the row holds it. */
    async function storedSet(id: string): Promise<{ adds: { tag: string }[]; removed: string[] }> {
      const [row] = await t.server.db.query<{ photo_keys: unknown }>(
        "select photo_keys from inspections where organization_id = $1 and id = $2",
        [localOrganizationId, id],
      );
      const value = row?.photo_keys;
      return (typeof value === "string" ? JSON.parse(value) : value) ?? { adds: [], removed: [] };
    }
    const photoChange = (id: string, patch: object, hlc = dev.stamp()) =>
      upsert("inspection", id, base.apiaryId, hlc, { photo_keys: patch });

    it("four Pushes of 15 changes re-adding one photo under new stamps never store more than 20", async () => {
      const id = await newInspection();
      const pushes = Array.from({ length: 4 }, () =>
        Array.from({ length: 15 }, () => photoChange(id, { add: [tiny] })),
      );
      const [first, ...rest] = pushes;
      await pushOk(t, first ?? []);
      expect((await storedSet(id)).adds).toHaveLength(15);
      for (const batch of rest) {
        const head = await feedHead(t);
        const r = await pushRejected(t, batch);
        expect(r.code).toBe("invalid_argument");
        // The batch's first 5 fill the set to 20; each later one would make it hold 21.
        expect(r.rejections.map((x) => x.index)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
        expect(r.rejections[0]?.reason).toBe(
          "inspection.photo_keys holds at most 20 elements, an element added twice counting twice (would hold 21)",
        );
        expect(await feedHead(t)).toBe(head);
        expect((await storedSet(id)).adds).toHaveLength(15);
      }
      await pushOk(t, (rest[0] ?? []).slice(0, 5));
      expect((await storedSet(id)).adds).toHaveLength(20);
      const got = await callOk(t, "InspectionService/GetInspection", { id });
      expect(got.inspection.photoKeys).toEqual([tiny]);
    });

    it("refuses a removal of 100 000 made-up tags, and of one made-up tag among real ones", async () => {
      const id = await newInspection();
      const added = dev.stamp();
      await pushOk(t, [photoChange(id, { add: [tiny, photo(1)] }, added)]);
      const head = await feedHead(t);
      const madeUp = Array.from({ length: 100_000 }, (_, i) => hlcAt(i + 1, "forged"));
      const many = await pushRejected(t, [photoChange(id, { remove: madeUp })]);
      expect(many.rejections).toEqual([
        {
          index: 0,
          code: "invalid_argument",
          reason: "inspection.photo_keys removes at most 20 tags at once (the patch names 100000)",
        },
      ]);
      const one = await pushRejected(t, [photoChange(id, { remove: [added, madeUp[0]] })]);
      expect(one.rejections.map((x) => x.reason)).toEqual([
        `inspection.photo_keys remove[1] "${madeUp[0]}" is not the tag of an add this set received: a removal names only adds it observed`,
      ]);
      expect(await feedHead(t)).toBe(head);
      expect(await storedSet(id)).toEqual({
        adds: [
          { tag: added, value: tiny },
          { tag: added, value: photo(1) },
        ],
        removed: [],
      });
    });

    it("takes a removal of a real tag, of one added earlier in the same Push, and its re-push", async () => {
      const id = await newInspection();
      const added = dev.stamp();
      await pushOk(t, [photoChange(id, { add: [tiny] }, added)]);
      const sameBatch = dev.stamp();
      const batch = [
        photoChange(id, { remove: [added] }),
        photoChange(id, { add: [photo(2)] }, sameBatch),
        photoChange(id, { remove: [sameBatch] }),
      ];
      await pushOk(t, batch);
      await pushOk(t, batch);
      expect(await storedSet(id)).toEqual({ adds: [], removed: [added, sameBatch] });
    });
  });
});

describe.each(databaseKinds)("Push limits on %s", (kind) => {
  // Its own server: accepting a stamp 50 s ahead moves the server's clock forward,
  // and 5000 apiaries would slow the other tests' feed reads.
  const t = useTestServer(kind);
  const devA = device("dev-a");

  it("refuses a push of more than 5000 changes with invalid_argument and writes nothing; 5000 go through", async () => {
    const head = await feedHead(t);
    const batch = Array.from({ length: 5001 }, (_, i) =>
      apiaryUpsert(randomUUID(), devA.stamp(), { name: `Bulk ${i}` }),
    );
    const r = await pushJson(t, batch);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
    expect(r.body.message).toMatch(/at most 5000 changes \(got 5001\)/);
    expect(await feedHead(t)).toBe(head);

    await pushOk(t, batch.slice(0, 5000));
    expect(Number(await feedHead(t))).toBe(Number(head) + 5000);
  });

  it("rejects a change stamped more than 60 s ahead of the server clock; the re-stamped batch goes through", async () => {
    const dev = device("dev-fast");
    const soon = randomUUID();
    const far = randomUUID();
    const head = await feedHead(t);
    const r = await pushRejected(t, [
      apiaryUpsert(soon, dev.stamp(50_000), { name: "50 s ahead" }),
      apiaryUpsert(far, hlcAt(Date.now() + 70_000, "dev-fast"), { name: "70 s ahead" }),
    ]);
    expect(r.code).toBe("invalid_argument");
    expect(r.rejections).toEqual([
      {
        index: 1,
        code: "invalid_argument",
        reason: expect.stringMatching(/ahead of the server clock .*re-stamp/),
      },
    ]);
    await expectNothingWritten(t, head, [
      ["apiaries", soon],
      ["apiaries", far],
    ]);

    // The device re-stamps what was never accepted and pushes again.
    const fixed = device("dev-fixed");
    await pushOk(t, [
      apiaryUpsert(soon, fixed.stamp(50_000), { name: "50 s ahead" }),
      apiaryUpsert(far, fixed.stamp(50_000), { name: "Re-stamped" }),
    ]);
    expect((await callOk(t, "ApiaryService/GetApiary", { id: far })).apiary.name).toBe(
      "Re-stamped",
    );
  });
});

/**
 * InspectionService.CreateReadings (beside the contract; client-core ops/create-readings.ts) on
 * every database over HTTP and on a device's local operations: a scale's readings in one call,
 * each what CreateInspection with measurement fields writes; per-reading idempotency keys; all
 * or nothing with every bad reading named.
 */
import { ConnectError } from "@connectrpc/connect";
import { maxReadingsPerCall } from "@hivekeep/client-core/core";
import { InspectionService, ReadingRejectionSchema } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { readingId } from "../../client-core/src/ops/create-readings.ts";
import {
  callOk,
  expectError,
  feedHead,
  feedReader,
  movedHiveWithTwoQueens,
  pullAll,
  withApiaryAndHive,
} from "../support/fixtures.ts";
import type { JsonReply } from "../support/server.ts";
import { hlcAt, toJson, upsert } from "../support/sync.ts";
import { serverOnly, targetKinds, useTestTarget } from "../support/target.ts";

describe.each(targetKinds)("CreateReadings on %s", (kind) => {
  const t = useTestTarget(kind);
  const readings = (body: object) => t.call("InspectionService/CreateReadings", body);
  const newChanges = feedReader(t);
  /** A refused call: its status, and its code and message (details carry every problem). */
  const refused = (r: JsonReply, status: number): { code: string; message: string } => {
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r.body;
  };

  it("writes each reading as CreateInspection does: the inspection with its apiary and queen as of its date, and its INSPECTION event", async () => {
    const { a, b, hive, oldQueen, newQueen } = await movedHiveWithTwoQueens(t);
    await newChanges();
    const body = await callOk(t, "InspectionService/CreateReadings", {
      readings: [
        { hiveId: hive.id, date: "2025-01-10T06:00:00Z", weightKg: 38.5, tempHive: 12.5 },
        { hiveId: hive.id, weightKg: 41, humidityHive: 58, tempOutside: -2.5 },
      ],
    });
    expect(body.created).toBe(2);
    expect(body.alreadyStored).toBeUndefined();
    const [old, recent] = body.results;
    expect(old.status).toBe("READING_STATUS_CREATED");
    expect(recent.status).toBe("READING_STATUS_CREATED");
    const got = async (id: string) =>
      (await callOk(t, "InspectionService/GetInspection", { id })).inspection;
    expect(await got(old.inspectionId)).toMatchObject({
      hiveId: hive.id,
      apiaryId: a,
      queenId: oldQueen,
      date: "2025-01-10T06:00:00Z",
      weightKg: 38.5,
      tempHive: 12.5,
    });
    expect(await got(recent.inspectionId)).toMatchObject({
      apiaryId: b,
      queenId: newQueen,
      weightKg: 41,
      humidityHive: 58,
      tempOutside: -2.5,
    });
    const changes = await newChanges();
    expect(changes.map((c) => c.entity).sort()).toEqual([
      "event",
      "event",
      "inspection",
      "inspection",
    ]);
    const events = await callOk(t, "EventService/ListEvents", { hiveId: hive.id });
    const inspectionEvents = events.events.filter(
      (e: { type: string }) => e.type === "EVENT_TYPE_INSPECTION",
    );
    expect(inspectionEvents.map((e: { refId: string }) => e.refId).sort()).toEqual(
      [old.inspectionId, recent.inspectionId].sort(),
    );
  });

  it("a reading sent again under its key, in a re-sent, overlapping or the same batch, is written once", async () => {
    const { hiveId } = await withApiaryAndHive(t);
    const at = (h: number) => `2026-03-01T${String(h).padStart(2, "0")}:00:00Z`;
    const reading = (h: number) => ({
      hiveId,
      date: at(h),
      idempotencyKey: `scale-7:${at(h)}`,
      weightKg: 30 + h / 10,
    });
    const first = await callOk(t, "InspectionService/CreateReadings", {
      readings: [reading(0), reading(1), reading(2)],
    });
    expect(first.created).toBe(3);
    const head = await feedHead(t);
    const again = await callOk(t, "InspectionService/CreateReadings", {
      readings: [reading(0), reading(1), reading(2)],
    });
    expect(again).toEqual({
      results: first.results.map((r: { inspectionId: string }) => ({
        inspectionId: r.inspectionId,
        status: "READING_STATUS_ALREADY_STORED",
      })),
      alreadyStored: 3,
    });
    expect((await pullAll(t, head)).changes).toEqual([]);
    // Overlapping: two old ones, two new ones, one of them twice.
    const overlap = await callOk(t, "InspectionService/CreateReadings", {
      readings: [reading(1), reading(2), reading(3), reading(4), reading(3)],
    });
    expect(overlap.results.map((r: { status: string }) => r.status)).toEqual([
      "READING_STATUS_ALREADY_STORED",
      "READING_STATUS_ALREADY_STORED",
      "READING_STATUS_CREATED",
      "READING_STATUS_CREATED",
      "READING_STATUS_ALREADY_STORED",
    ]);
    expect(overlap.results[4].inspectionId).toBe(overlap.results[2].inspectionId);
    expect(overlap.results[0].inspectionId).toBe(first.results[1].inspectionId);
    const listed = await callOk(t, "InspectionService/ListInspections", { hiveId });
    expect(listed.page.total).toBe(5);
    // Readings without a key are written every time they are sent.
    const unkeyed = { hiveId, date: at(5), weightKg: 31 };
    await callOk(t, "InspectionService/CreateReadings", { readings: [unkeyed, unkeyed] });
    const all = await callOk(t, "InspectionService/ListInspections", { hiveId });
    expect(all.page.total).toBe(7);
  });

  it("the same key for another hive is another reading; a stored reading keeps its correction when sent again; one key twice in a call with other values is refused", async () => {
    const { apiaryId, hiveId } = await withApiaryAndHive(t);
    const other = (await callOk(t, "HiveService/CreateHive", { apiaryId, name: "Hive 2" })).hive.id;
    const date = "2026-03-02T00:00:00Z";
    const r = { date, idempotencyKey: "k", weightKg: 20 };
    const both = await callOk(t, "InspectionService/CreateReadings", {
      readings: [
        { ...r, hiveId },
        { ...r, hiveId: other },
      ],
    });
    expect(both.created).toBe(2);
    // The beekeeper corrects the reading; the scale sends it again, as it measured it.
    const id = both.results[0].inspectionId;
    await callOk(t, "InspectionService/UpdateInspection", {
      inspection: { id, date, weightKg: 19.5, note: "scale drifted" },
    });
    const head = await feedHead(t);
    const again = await callOk(t, "InspectionService/CreateReadings", {
      readings: [{ ...r, hiveId }],
    });
    expect(again.results).toEqual([{ inspectionId: id, status: "READING_STATUS_ALREADY_STORED" }]);
    expect((await pullAll(t, head)).changes).toEqual([]);
    const kept = await callOk(t, "InspectionService/GetInspection", { id });
    expect(kept.inspection).toMatchObject({ weightKg: 19.5, note: "scale drifted" });
    // One key twice in one call with other values: the scale reused a key.
    const changed = await readings({
      readings: [
        { ...r, hiveId, idempotencyKey: "new" },
        { ...r, hiveId, idempotencyKey: "new", weightKg: 21 },
      ],
    });
    const e = refused(changed, 400);
    expect(e.code).toBe("failed_precondition");
    expect(e.message).toContain("readings[1].idempotencyKey");
    expect(e.message).toContain("weightKg differs");
    expect((await pullAll(t, head)).changes).toEqual([]);
  });

  serverOnly(kind, "the partial row comes from a Push")(
    "a reading whose row a device's partial change made first is written into that row, once",
    async () => {
      const { apiaryId, hiveId } = await withApiaryAndHive(t);
      const date = "2026-03-03T00:00:00Z";
      const reading = { hiveId, date, idempotencyKey: `scale-9:${date}`, weightKg: 31 };
      // A change of the reading's row before its create (a device's edit whose create it has not
      // pushed): the server keeps it as a partial row, which no read shows.
      const id = readingId(hiveId, reading.idempotencyKey);
      const partial = upsert("inspection", id, apiaryId, hlcAt(Date.now() - 60_000, "dev-a"), {
        note: "lid was open",
      });
      const pushed = await t.call("SyncService/Push", { changes: [toJson(partial)] });
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
      // The store looks the readings' ids up once: a partial row is not "no row", so the reading
      // merges into it (an insert would collide with it).
      const first = await callOk(t, "InspectionService/CreateReadings", {
        readings: [
          reading,
          { ...reading, idempotencyKey: "scale-9:other", date: "2026-03-04T00:00:00Z" },
        ],
      });
      expect(first.results.map((r: { status: string }) => r.status)).toEqual([
        "READING_STATUS_CREATED",
        "READING_STATUS_CREATED",
      ]);
      expect(first.results[0].inspectionId).toBe(id);
      const got = await callOk(t, "InspectionService/GetInspection", { id });
      expect(got.inspection).toMatchObject({ hiveId, apiaryId, date, weightKg: 31 });
      const again = await callOk(t, "InspectionService/CreateReadings", { readings: [reading] });
      expect(again.results).toEqual([
        { inspectionId: id, status: "READING_STATUS_ALREADY_STORED" },
      ]);
    },
  );

  it("is all or nothing: every bad reading is named by its index and field, and nothing is written", async () => {
    const { hiveId } = await withApiaryAndHive(t);
    const head = await feedHead(t);
    const bad = await readings({
      readings: [
        { hiveId, weightKg: 40 },
        { hiveId, weightKg: 900 },
        { weightKg: 40 },
        { hiveId, date: "2999-01-01T00:00:00Z" },
        { hiveId, idempotencyKey: "tab\there" },
        { hiveId: "no-such-hive", weightKg: 1 },
        { hiveId, humidityHive: 140 },
      ],
    });
    const e = refused(bad, 400);
    expect(bad.body.details).toHaveLength(1);
    expect(e.code).toBe("invalid_argument");
    expect(e.message).toMatch(/^6 readings refused, nothing written: readings\[1\]\.weightKg/);
    expect(e.message).toContain("readings[2].hiveId");
    expect(e.message).toContain("readings[3].date");
    expect(e.message).toContain("readings[4].idempotencyKey");
    expect(e.message).toContain("readings[5]: hive");
    expect(e.message).toContain("and 1 more");
    expect((await pullAll(t, head)).changes).toEqual([]);
    // The typed client reads every problem from the error's detail.
    const err = await t
      .client(InspectionService)
      .createReadings({ readings: [{ hiveId: "nope" }, { hiveId, weightKg: -1 }] })
      .catch((x: unknown) => ConnectError.from(x));
    expect(err).toBeInstanceOf(ConnectError);
    const problems = (err as ConnectError).findDetails(ReadingRejectionSchema)[0]?.problems;
    expect(problems?.map((p) => [p.index, p.field, p.code])).toEqual([
      [0, "readings[0]", "not_found"],
      [1, "readings[1].weightKg", "invalid_argument"],
    ]);
    // Only unknown hives: not_found.
    const unknown = await readings({ readings: [{ hiveId: "nope", weightKg: 1 }] });
    expect(refused(unknown, 404).code).toBe("not_found");
  });

  it(`takes ${maxReadingsPerCall} readings in one call and refuses more`, async () => {
    const { hiveId } = await withApiaryAndHive(t);
    const start = Date.parse("2026-01-01T00:00:00Z");
    const many = Array.from({ length: maxReadingsPerCall }, (_, i) => ({
      hiveId,
      date: new Date(start + i * 15 * 60_000).toISOString(),
      idempotencyKey: String(i),
      weightKg: 40,
    }));
    const r = await callOk(t, "InspectionService/CreateReadings", { readings: many });
    expect(r.created).toBe(maxReadingsPerCall);
    const more = await readings({ readings: [...many, many[0]] });
    expect(expectError(more, 400).message).toContain(`at most ${maxReadingsPerCall} are allowed`);
  });
});

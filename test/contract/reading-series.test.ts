/**
 * InspectionService.GetReadingSeries (beside the contract, issue 29) on every database over HTTP
 * and on a device's local operations: the server's SQL aggregate answers exactly (to the bit)
 * what the one rule of client-core core/reading-series.ts answers over the same rows, for random
 * readings, visits and deletions; bad input is invalid_argument; an unknown or deleted hive is
 * not_found (another tenant's: tenant-isolation.test.ts).
 */
import { randomUUID } from "node:crypto";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  maxSeriesDays,
  readingSeries,
  type SeriesRow,
  seriesDayMs,
} from "@hivekeep/client-core/core";
import { bucketsOf } from "@hivekeep/client-core/ops";
import { InspectionService } from "@hivekeep/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callOk, expectError, withApiaryAndHive } from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

/** 2026-03-01T00:00Z: the random rows fall in the ten days after it. */
const base = Date.UTC(2026, 2, 1);
const spanMs = 10 * seriesDayMs;

/** A measurement: often unset (0), sometimes a round value, mostly any double of its range. */
const measure = (min: number, max: number) =>
  fc.oneof(
    fc.constant(0),
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
  );

const readingArb = fc.record({
  /** Many equal dates: the (date, id) order decides how the mean's sum is added. */
  at: fc.oneof(
    fc.integer({ min: 0, max: spanMs - 1 }),
    fc.integer({ min: 0, max: seriesDayMs - 1 }),
    fc.constantFrom(0, seriesDayMs - 1, seriesDayMs, 3 * seriesDayMs + 7),
  ),
  weightKg: measure(0, 500),
  tempHive: measure(-40, 70),
  tempOutside: measure(-50, 60),
  humidityHive: measure(0, 100),
  humidityOutside: measure(0, 100),
  visit: fc.boolean(),
  deleted: fc.boolean(),
});

describe.each(targetKinds)("GetReadingSeries on %s", (kind) => {
  const t = useTestTarget(kind);

  it("answers exactly what the rule of core/reading-series.ts answers over the same rows", async () => {
    const { hiveId } = await withApiaryAndHive(t);
    const inspections = t.client(InspectionService);
    let seen: SeriesRow[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(readingArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: -2, max: 9 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(1, 1, 2, 7),
        async (adds, fromDay, days, bucketDays) => {
          // The hive's rows accumulate over the runs: each run adds some and asks a new range.
          for (const a of adds) {
            const date = timestampFromMs(base + a.at);
            const values = {
              weightKg: a.weightKg,
              tempHive: a.tempHive,
              tempOutside: a.tempOutside,
              humidityHive: a.humidityHive,
              humidityOutside: a.humidityOutside,
            };
            const { inspection } = await inspections.createInspection({
              hiveId,
              date,
              ...values,
              ...(a.visit ? { note: "looked in" } : {}),
            });
            const id = inspection?.id ?? "";
            if (a.deleted) await inspections.deleteInspection({ id });
            else {
              seen.push({
                id,
                at: base + a.at,
                values: {
                  weight_kg: a.weightKg,
                  temp_hive: a.tempHive,
                  temp_outside: a.tempOutside,
                  humidity_hive: a.humidityHive,
                  humidity_outside: a.humidityOutside,
                },
              });
            }
          }
          const fromMs = base + fromDay * seriesDayMs + 3_600_000 * (fromDay % 3);
          const toMs = fromMs + days * seriesDayMs;
          const res = await inspections.getReadingSeries({
            hiveId,
            from: timestampFromMs(fromMs),
            to: timestampFromMs(toMs),
            bucketDays,
          });
          expect(res.bucketDays).toBe(bucketDays);
          expect(bucketsOf(res)).toEqual(readingSeries(seen, fromMs, toMs, bucketDays));
        },
      ),
      { numRuns: 15 },
    );
    seen = [];
  });

  it("counts a visit's measurements, leaves out deleted rows, rows outside the range and unset measurements", async () => {
    const { hiveId } = await withApiaryAndHive(t);
    const day = (d: number, h = 0) =>
      new Date(base + d * seriesDayMs + h * 3_600_000).toISOString();
    await callOk(t, "InspectionService/CreateReadings", {
      readings: [
        { hiveId, date: day(0, 1), weightKg: 40, tempHive: 30 },
        { hiveId, date: day(0, 2), weightKg: 41 },
        { hiveId, date: day(0, 3), weightKg: 45.5, humidityOutside: 80 },
        { hiveId, date: day(2, 23), tempOutside: -3 },
        { hiveId, date: day(3), weightKg: 99 },
      ],
    });
    const visit = await callOk(t, "InspectionService/CreateInspection", {
      hiveId,
      date: day(2, 12),
      note: "weighed by hand",
      weightKg: 43,
    });
    await callOk(t, "InspectionService/CreateInspection", {
      hiveId,
      date: day(2, 13),
      note: "no scale",
    });
    const gone = await callOk(t, "InspectionService/CreateInspection", {
      hiveId,
      date: day(2, 14),
      weightKg: 10,
    });
    await callOk(t, "InspectionService/DeleteInspection", { id: gone.inspection.id });
    expect(visit.inspection.weightKg).toBe(43);
    const body = await callOk(t, "InspectionService/GetReadingSeries", {
      hiveId,
      from: day(0),
      to: day(3),
    });
    expect(body).toEqual({
      bucketDays: 1,
      buckets: [
        {
          start: "2026-03-01T00:00:00Z",
          count: 3,
          weightKg: { count: 3, min: 40, max: 45.5, mean: (40 + 41 + 45.5) / 3 },
          tempHive: { count: 1, min: 30, max: 30, mean: 30 },
          humidityOutside: { count: 1, min: 80, max: 80, mean: 80 },
        },
        {
          start: "2026-03-03T00:00:00Z",
          count: 2,
          weightKg: { count: 1, min: 43, max: 43, mean: 43 },
          tempOutside: { count: 1, min: -3, max: -3, mean: -3 },
        },
      ],
    });
  });

  it("refuses bad input with invalid_argument, quoting at most 80 characters", async () => {
    const { hiveId } = await withApiaryAndHive(t);
    const from = "2026-01-01T00:00:00Z";
    const bad = async (body: object, text: RegExp) => {
      const e = expectError(await t.call("InspectionService/GetReadingSeries", body), 400);
      expect(e.code).toBe("invalid_argument");
      expect(e.message).toMatch(text);
    };
    await bad({ hiveId }, /from is required/);
    await bad({ hiveId, from, to: from }, /to must be after from/);
    await bad({ hiveId, from: "2026-02-01T00:00:00Z", to: from }, /to must be after from/);
    const tooLate = new Date(Date.parse(from) + (maxSeriesDays + 1) * seriesDayMs).toISOString();
    await bad({ hiveId, from, to: tooLate }, new RegExp(`at most ${maxSeriesDays} days`));
    await bad({ hiveId, from, bucketDays: -1 }, /bucketDays/);
    await bad({ hiveId, from, bucketDays: 367 }, /bucketDays/);
    const huge = "x".repeat(100_000);
    const r = await t.call("InspectionService/GetReadingSeries", { hiveId: huge, from });
    const e = expectError(r, 404);
    expect(e.message.length).toBeLessThan(200);
    expect(e.message).toContain(`"${"x".repeat(80)}…"`);
  });

  it("answers not_found for an unknown or deleted hive", async () => {
    const { hiveId } = await withApiaryAndHive(t);
    const from = "2026-01-01T00:00:00Z";
    const unknown = await t.call("InspectionService/GetReadingSeries", {
      hiveId: randomUUID(),
      from,
    });
    expect(expectError(unknown, 404).code).toBe("not_found");
    await callOk(t, "HiveService/DeleteHive", { id: hiveId });
    const deleted = await t.call("InspectionService/GetReadingSeries", { hiveId, from });
    expect(expectError(deleted, 404).code).toBe("not_found");
  });
});

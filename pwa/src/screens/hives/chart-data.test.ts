import type { ReadingColumns } from "@hivekeep/client-core/ops";
import { describe, expect, it } from "vitest";
import { chartData } from "./chart-data.ts";

const day = 86_400_000;
const cutoff = 10 * day;
const local: ReadingColumns = {
  at: [9 * day + 5, cutoff, cutoff + 60_000],
  weightKg: [50, 41, 0],
  tempHive: [0, 30, 31],
  tempOutside: [0, 0, 0],
  humidityHive: [0, 0, 0],
  humidityOutside: [0, 0, 0],
};

describe("chart data", () => {
  it("draws each bucket before the cutoff as its lowest (06:00) and highest (18:00) value, then the readings from the cutoff", () => {
    const d = chartData(
      local,
      [
        {
          start: 8 * day,
          count: 3,
          columns: {
            weight_kg: { count: 3, min: 39, max: 43, mean: 41 },
            temp_hive: { count: 1, min: 29, max: 29, mean: 29 },
          },
        },
        {
          start: cutoff,
          count: 1,
          columns: { weight_kg: { count: 1, min: 41, max: 41, mean: 41 } },
        },
      ],
      cutoff,
    );
    expect(d.fromBuckets).toBe(2);
    expect(d.columns.at).toEqual([
      8 * day + 6 * 3_600_000,
      8 * day + 18 * 3_600_000,
      cutoff,
      cutoff + 60_000,
    ]);
    expect(d.columns.weightKg).toEqual([39, 43, 41, 0]);
    expect(d.columns.tempHive).toEqual([29, 29, 30, 31]);
    expect(d.bucketCounts).toMatchObject({ weight_kg: 3, temp_hive: 1, temp_outside: 0 });
  });

  it("with a period's start takes only the buckets of the days that reach into it", () => {
    const buckets = [5, 6, 7, 8].map((d) => ({
      start: d * day,
      count: 1,
      columns: { weight_kg: { count: 1, min: d, max: d, mean: d } },
    }));
    // From 06:00 of day 6: day 6 reaches into the period (its 18:00 point is in it), day 5 not.
    const d = chartData(local, buckets, cutoff, 6 * day + 6 * 3_600_000);
    expect(d.fromBuckets).toBe(6);
    expect(d.columns.weightKg.slice(0, 6)).toEqual([6, 6, 7, 7, 8, 8]);
    expect(d.bucketCounts.weight_kg).toBe(3);
    // From a UTC midnight: that day on.
    expect(chartData(local, buckets, cutoff, 7 * day).bucketCounts.weight_kg).toBe(2);
  });

  it("without buckets draws the readings as they are", () => {
    expect(chartData(local, undefined, cutoff)).toMatchObject({ columns: local, fromBuckets: 0 });
  });
});

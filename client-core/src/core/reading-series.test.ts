import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DomainError } from "./domain-error.ts";
import {
  bucketStart,
  isSeriesValue,
  maxBucketDays,
  maxSeriesDays,
  readingSeries,
  type SeriesRow,
  seriesDayMs,
  seriesRange,
} from "./reading-series.ts";

const day = Date.UTC(2026, 5, 10);
const row = (id: string, at: number, values: SeriesRow["values"]): SeriesRow => ({
  id,
  at,
  values,
});

describe("reading series rule", () => {
  it("a set measurement is a finite number other than 0", () => {
    expect([1, -3.5, 1e-300].every(isSeriesValue)).toBe(true);
    expect([0, -0, Number.NaN, Infinity, null, undefined, "4", true].some(isSeriesValue)).toBe(
      false,
    );
  });

  it("buckets are whole UTC days aligned from the epoch", () => {
    expect(bucketStart(day + 5, 1)).toBe(day);
    expect(bucketStart(day - 1, 1)).toBe(day - seriesDayMs);
    expect(bucketStart(Date.UTC(1969, 11, 31, 23), 1)).toBe(Date.UTC(1969, 11, 31));
    // A week bucket starts on a multiple of 7 days from 1970-01-01 (a Thursday).
    expect(bucketStart(Date.UTC(1970, 0, 9), 7)).toBe(Date.UTC(1970, 0, 8));
  });

  it("aggregates each column over the rows that have it set, oldest bucket first", () => {
    const rows = [
      row("b", day + 3_600_000, { weight_kg: 42, temp_hive: 0 }),
      row("a", day + 3_600_000, { weight_kg: 40, temp_hive: 31 }),
      row("c", day + seriesDayMs + 1, { humidity_outside: 70 }),
      row("d", day + 2, { weight_kg: 0, temp_hive: 0 }),
      row("e", day - 1, { weight_kg: 100 }),
      row("f", day + 2 * seriesDayMs, { weight_kg: 50 }),
    ];
    expect(readingSeries(rows, day, day + 2 * seriesDayMs, 1)).toEqual([
      {
        start: day,
        count: 2,
        columns: {
          weight_kg: { count: 2, min: 40, max: 42, mean: 41 },
          temp_hive: { count: 1, min: 31, max: 31, mean: 31 },
        },
      },
      {
        start: day + seriesDayMs,
        count: 1,
        columns: { humidity_outside: { count: 1, min: 70, max: 70, mean: 70 } },
      },
    ]);
  });

  it("adds a bucket's values in (date, id) order, whatever order the rows come in", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 3 * seriesDayMs }),
            w: fc.double({ min: 0, max: 500, noNaN: true }),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 3 }),
        (xs, width) => {
          const rows = xs.map((x, i) =>
            row(`r${String(i).padStart(3, "0")}`, day + x.at, { weight_kg: x.w }),
          );
          const sorted = [...rows].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
          const got = readingSeries([...rows].reverse(), day, day + 4 * seriesDayMs, width);
          for (const b of got) {
            const inB = sorted.filter(
              (r) => bucketStart(r.at, width) === b.start && isSeriesValue(r.values.weight_kg),
            );
            let sum = 0;
            for (const r of inB) sum += r.values.weight_kg as number;
            expect(b.columns.weight_kg?.mean).toBe(sum / inB.length);
            expect(b.count).toBe(inB.length);
          }
        },
      ),
    );
  });

  it("checks the range: from required, to after from, at most the longest span, bucket width", () => {
    const bad = (f: () => unknown, field: string) => {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(DomainError);
        expect((e as DomainError).field).toBe(field);
      }
    };
    bad(() => seriesRange(undefined, day, 1), "from");
    bad(() => seriesRange(day, day, 1), "to");
    bad(() => seriesRange(day, day + (maxSeriesDays + 1) * seriesDayMs, 1), "to");
    bad(() => seriesRange(day - 1, day, -1), "bucketDays");
    bad(() => seriesRange(day - 1, day, maxBucketDays + 1), "bucketDays");
    expect(seriesRange(day - 1, day, 0)).toEqual({ fromMs: day - 1, toMs: day, bucketDays: 1 });
    expect(seriesRange(day, day + maxSeriesDays * seriesDayMs, 7).bucketDays).toBe(7);
  });
});

import { describe, expect, it } from "vitest";
import { measured, measurementSeries, summarize, tableRows } from "./series.ts";

type Row = { date?: string; weight?: number; inside?: number; outside?: number };
const day = 86_400;
const at = (d: string) => new Date(d).getTime() / 1000;
const dateOf = (r: Row) => (r.date === undefined ? undefined : new Date(r.date));
const weight = (r: Row) => r.weight;
const inside = (r: Row) => r.inside;
const outside = (r: Row) => r.outside;

describe("measured", () => {
  it("takes 0, NaN and a missing value as not measured", () => {
    expect(measured(0)).toBe(false);
    expect(measured(undefined)).toBe(false);
    expect(measured(Number.NaN)).toBe(false);
    expect(measured(-3.5)).toBe(true);
    expect(measured(41)).toBe(true);
  });
});

describe("measurementSeries", () => {
  it("sorts by date and never plots a 0", () => {
    const rows: Row[] = [
      { date: "2026-06-03T10:00:00Z", weight: 42 },
      { date: "2026-06-01T10:00:00Z", weight: 40 },
      { date: "2026-06-02T10:00:00Z", weight: 0 },
    ];
    const s = measurementSeries(rows, dateOf, [weight]);
    expect(s.x).toEqual([at("2026-06-01T10:00:00Z"), at("2026-06-03T10:00:00Z")]);
    expect(s.ys).toEqual([[40, 42]]);
  });

  it("leaves out rows without a date or without any of the fields", () => {
    const rows: Row[] = [
      { weight: 40 },
      { date: "2026-06-01T10:00:00Z", inside: 34 },
      { date: "2026-06-02T10:00:00Z", weight: 41 },
    ];
    const s = measurementSeries(rows, dateOf, [weight]);
    expect(s.x).toEqual([at("2026-06-02T10:00:00Z")]);
    expect(s.ys).toEqual([[41]]);
  });

  it("is empty when nothing was measured", () => {
    const s = measurementSeries([{ date: "2026-06-01T10:00:00Z" }], dateOf, [weight, inside]);
    expect(s).toEqual({ x: [], ys: [[], []] });
  });

  it("marks a field missing in a row as not measured (the line runs on), not as a gap", () => {
    const rows: Row[] = [
      { date: "2026-06-01T10:00:00Z", inside: 34, outside: 18 },
      { date: "2026-06-01T11:00:00Z", inside: 34.5 },
      { date: "2026-06-01T12:00:00Z", inside: 35, outside: 20 },
    ];
    const s = measurementSeries(rows, dateOf, [inside, outside]);
    expect(s.ys).toEqual([
      [34, 34.5, 35],
      [18, undefined, 20],
    ]);
  });

  it("breaks every line where the record pauses for long", () => {
    // Hourly readings, then nothing for 5 days.
    const start = at("2026-06-01T00:00:00Z");
    const rows: Row[] = [0, 1, 2, 3].map((h) => ({
      date: new Date((start + h * 3600) * 1000).toISOString(),
      weight: 40 + h,
    }));
    rows.push({ date: new Date((start + 5 * day) * 1000).toISOString(), weight: 50 });
    const s = measurementSeries(rows, dateOf, [weight]);
    expect(s.ys[0]).toEqual([40, 41, 42, 43, null, 50]);
    expect(s.x[4]).toBe((start + 3 * 3600 + start + 5 * day) / 2);
  });

  it("keeps weekly visits joined, and breaks over a winter", () => {
    const dates = [
      "2025-09-01",
      "2025-09-08",
      "2025-09-15",
      "2025-09-29",
      "2026-03-20",
      "2026-03-27",
    ];
    const rows: Row[] = dates.map((d, i) => ({ date: `${d}T10:00:00Z`, weight: 30 + i }));
    const s = measurementSeries(rows, dateOf, [weight]);
    expect(s.ys[0]).toEqual([30, 31, 32, 33, null, 34, 35]);
  });

  it("breaks one field's line where only that field pauses", () => {
    // Inside every 6 hours for 6 days; the outside sensor is silent for 4 days in between.
    const start = at("2026-06-01T00:00:00Z");
    const rows: Row[] = [];
    for (let i = 0; i <= 24; i++) {
      const t = start + i * 6 * 3600;
      const silent = t > start + day && t < start + 5 * day;
      rows.push({
        date: new Date(t * 1000).toISOString(),
        inside: 34,
        outside: silent ? undefined : 15,
      });
    }
    const s = measurementSeries(rows, dateOf, [inside, outside]);
    expect(s.ys[0]?.every((v) => v === 34)).toBe(true);
    const out = s.ys[1] ?? [];
    // Every row between the outside sensor's last and next reading is a gap, none undefined.
    const first = out.indexOf(null);
    const last = out.lastIndexOf(null);
    expect(out[first - 1]).toBe(15);
    expect(out[last + 1]).toBe(15);
    expect(out.slice(first, last + 1).every((v) => v === null)).toBe(true);
    expect(last - first + 1).toBe(15);
    expect(out.includes(undefined)).toBe(false);
  });
});

describe("summarize", () => {
  it("gives count, range, first and latest, skipping gaps", () => {
    expect(summarize([1, 2, 3, 4], [undefined, 40, null, 38.5])).toEqual({
      count: 2,
      min: 38.5,
      max: 40,
      first: { x: 2, value: 40 },
      last: { x: 4, value: 38.5 },
    });
    expect(summarize([1], [undefined])).toBeUndefined();
  });
});

describe("tableRows", () => {
  it("lists measured rows newest first, leaving out gap rows, up to a limit", () => {
    const series = {
      x: [1, 2, 3, 4],
      ys: [
        [10, null, 12, undefined],
        [undefined, null, 5, 6],
      ],
    };
    expect(tableRows(series, 10)).toEqual({
      rows: [
        { x: 4, values: [undefined, 6] },
        { x: 3, values: [12, 5] },
        { x: 1, values: [10, undefined] },
      ],
      total: 3,
    });
    expect(tableRows(series, 1).rows).toHaveLength(1);
    expect(tableRows(series, 1).total).toBe(3);
  });
});

import { describe, expect, it } from "vitest";
import { honeyBars, honeyByYear, monthsBefore } from "./honey.ts";

const now = new Date("2026-06-15T12:00:00Z");

describe("honeyBars", () => {
  it("is empty without a harvest", () => {
    expect(honeyBars([], now)).toEqual([]);
  });

  it("shows the last 12 months up to now, a month without honey as 0", () => {
    const bars = honeyBars([{ year: 2026, month: 5, kg: 12.5 }], now);
    expect(bars).toHaveLength(12);
    expect(bars[0]).toEqual({ year: 2025, month: 7, kg: 0 });
    expect(bars.at(-1)).toEqual({ year: 2026, month: 6, kg: 0 });
    expect(bars.at(-2)).toEqual({ year: 2026, month: 5, kg: 12.5 });
    expect(bars.filter((b) => b.kg > 0)).toHaveLength(1);
  });

  it("reaches back to the first harvest, but at most maxMonths", () => {
    const history = [
      { year: 2024, month: 7, kg: 3 },
      { year: 2025, month: 1, kg: 4 },
      { year: 2026, month: 6, kg: 5 },
    ];
    const bars = honeyBars(history, now, { maxMonths: 24 });
    expect(bars).toHaveLength(24);
    expect(bars[0]).toEqual({ year: 2024, month: 7, kg: 3 });
    const short = honeyBars(history, now, { maxMonths: 18 });
    expect(short).toHaveLength(18);
    expect(short[0]).toEqual({ year: 2025, month: 1, kg: 4 });
    expect(monthsBefore(history, short)).toBe(1);
    expect(monthsBefore(history, bars)).toBe(0);
  });

  it("crosses a year boundary month by month", () => {
    const bars = honeyBars([{ year: 2025, month: 11, kg: 1 }], new Date("2026-02-01T00:00:00Z"), {
      minMonths: 4,
    });
    expect(bars.map((b) => `${b.year}-${b.month}`)).toEqual([
      "2025-11",
      "2025-12",
      "2026-1",
      "2026-2",
    ]);
  });

  it("extends to a harvest dated after the current month", () => {
    const bars = honeyBars([{ year: 2026, month: 8, kg: 2 }], now, { minMonths: 3 });
    expect(bars.map((b) => b.month)).toEqual([6, 7, 8]);
  });

  it("adds up a month given twice", () => {
    const bars = honeyBars(
      [
        { year: 2026, month: 6, kg: 1.25 },
        { year: 2026, month: 6, kg: 2 },
      ],
      now,
      { minMonths: 1 },
    );
    expect(bars).toEqual([{ year: 2026, month: 6, kg: 3.25 }]);
  });
});

describe("honeyByYear", () => {
  it("sums the months of each year, oldest first", () => {
    expect(
      honeyByYear([
        { year: 2026, month: 6, kg: 0.1 },
        { year: 2025, month: 7, kg: 10 },
        { year: 2026, month: 7, kg: 0.2 },
      ]),
    ).toEqual([
      { year: 2025, kg: 10 },
      { year: 2026, kg: 0.3 },
    ]);
  });
});

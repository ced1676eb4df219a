import { describe, expect, it } from "vitest";
import {
  barScaleTop,
  barTickIndices,
  monthTicks,
  placeBarLabels,
  timeTicks,
  valueAxis,
  valueTicks,
} from "./ticks.ts";

const local = (y: number, m: number, d: number, h = 0) => new Date(y, m - 1, d, h).getTime() / 1000;
const day = 86_400;

describe("timeTicks", () => {
  it("names months, with the year on the first and where a year starts", () => {
    const ticks = timeTicks("en-GB")(
      [local(2025, 11, 1), local(2025, 12, 1), local(2026, 1, 1), local(2026, 2, 1)],
      30 * day,
    );
    expect(ticks).toEqual(["Nov\n2025", "Dec", "Jan\n2026", "Feb"]);
  });

  it("speaks German", () => {
    const ticks = timeTicks("de-DE")([local(2026, 3, 1), local(2026, 6, 1)], 90 * day);
    expect(ticks).toEqual(["Mär\n2026", "Jun"]);
    expect(timeTicks("de-DE")([local(2026, 6, 3)], 7 * day)).toEqual(["3. Juni\n2026"]);
  });

  it("gives times within a day, and the day at midnight", () => {
    const ticks = timeTicks("en-GB")([local(2026, 6, 1, 18), local(2026, 6, 2, 0)], 6 * 3600);
    expect(ticks).toEqual(["18:00", "2 Jun"]);
  });

  it("gives years for long spans", () => {
    expect(timeTicks("en-GB")([local(2024, 1, 1), local(2025, 1, 1)], 365 * day)).toEqual([
      "2024",
      "2025",
    ]);
  });
});

describe("monthTicks", () => {
  it("names the months of the bars, the year where it starts", () => {
    const months = [
      { year: 2025, month: 12 },
      { year: 2026, month: 1 },
      { year: 2026, month: 2 },
    ];
    expect(monthTicks("en-GB", months)([0, 1, 2])).toEqual(["Dec\n2025", "Jan\n2026", "Feb"]);
    expect(monthTicks("de-DE", months)([1, 2])).toEqual(["Jan\n2026", "Feb"]);
  });
});

describe("barTickIndices", () => {
  it("labels every bar when there is room", () => {
    expect(barTickIndices(4, 400, 40)).toEqual([0, 1, 2, 3]);
  });

  it("labels every few bars counted back from the last on a narrow chart", () => {
    // 24 bars on 300 px: 12.5 px each; 40 px needs every 4th.
    expect(barTickIndices(24, 300, 40)).toEqual([3, 7, 11, 15, 19, 23]);
  });

  it("has nothing to label without bars", () => {
    expect(barTickIndices(0, 300, 40)).toEqual([]);
  });
});

describe("valueAxis", () => {
  const inside = (lo: number, hi: number) => {
    const a = valueAxis(lo, hi);
    expect(a.min).toBeLessThan(lo);
    expect(a.max).toBeGreaterThan(hi);
    expect((a.max - a.min) / a.step).toBeLessThanOrEqual(4);
    return a;
  };

  it("encloses the data between labelled gridlines", () => {
    // Humidity 55 % and 61 %: 56, 58, 60 alone would leave both points outside.
    expect(inside(55, 61)).toEqual({ min: 54, max: 62, step: 2 });
    expect(valueTicks(valueAxis(55, 61))).toEqual([54, 56, 58, 60, 62]);
    expect(inside(21, 34.5)).toEqual({ min: 20, max: 40, step: 5 });
  });

  it("gives a lone value room either side", () => {
    const a = inside(42.5, 42.5);
    expect(a.step).toBeGreaterThan(0);
    expect(valueTicks(a).length).toBeGreaterThanOrEqual(2);
  });

  it("works below zero and with small values", () => {
    expect(inside(-3.5, 4)).toEqual({ min: -5, max: 5, step: 5 });
    const small = inside(0.1, 0.3);
    expect(valueTicks(small).every((v) => String(v).length < 6)).toBe(true);
  });
});

describe("barScaleTop", () => {
  it("leaves room above the tallest bar for its value", () => {
    const top = barScaleTop(12.5, 150, 20);
    // The bar's top is 20 px below the scale's top.
    expect(150 - (12.5 / top) * 150).toBeCloseTo(20);
  });

  it("copes with no honey and a tiny plot", () => {
    expect(barScaleTop(0, 150, 20)).toBeGreaterThan(1);
    expect(barScaleTop(10, 30, 20)).toBe(20);
  });
});

describe("placeBarLabels", () => {
  const bar = (center: number, value: number, width = 28) => ({ center, width, value });

  it("writes a wide label over empty neighbours", () => {
    // Slots of 20 px: "12.5" (28 px) fits because Aug and Oct are empty.
    const labels = [bar(10, 0), bar(30, 0), bar(50, 12.5), bar(70, 0), bar(90, 9, 8)];
    expect(placeBarLabels(labels, 0, 100, 2)).toEqual([2, 4]);
  });

  it("gives the taller bar its label when two would overlap", () => {
    const labels = [bar(10, 5), bar(30, 9), bar(50, 4)];
    expect(placeBarLabels(labels, 0, 100, 2)).toEqual([1]);
  });

  it("keeps labels inside the plot", () => {
    expect(placeBarLabels([bar(5, 3)], 0, 100, 2)).toEqual([]);
  });
});

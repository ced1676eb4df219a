import { describe, expect, it } from "vitest";
import { barTickIndices, monthTicks, timeTicks } from "./ticks.ts";

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

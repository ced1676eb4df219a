import { describe, expect, it } from "vitest";
import { alternate, compared, quantile, spread } from "./report.ts";

describe("bench report", () => {
  it("takes the nearest-rank quantile of sorted samples", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(sorted, 0.5)).toBe(50);
    expect(quantile(sorted, 0.99)).toBe(99);
    expect(quantile(sorted, 1)).toBe(100);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it("spreads samples into min, median and max whatever their order", () => {
    expect(spread([5, 1, 3])).toEqual({ min: 1, median: 3, max: 5, n: 3 });
  });

  it("gives higher-is-better ratios: ours/baseline for rates, baseline/ours for latencies", () => {
    const fields = {
      name: "x",
      database: "pglite" as const,
      unit: "u",
      baseline: "b",
      target: "t",
      notes: "",
    };
    const rate = compared(
      fields,
      { ours: [50, 40, 60], baseline: [100, 100, 100] },
      "better",
      (r) => r >= 0.5,
    );
    expect(rate).toMatchObject({ value: 50, baselineValue: 100, ratio: 0.5, met: true });
    const latency = compared(
      fields,
      { ours: [20, 20, 20], baseline: [5, 5, 5] },
      "worse",
      (r) => r >= 0.5,
    );
    expect(latency).toMatchObject({ value: 20, baselineValue: 5, ratio: 0.25, met: false });
  });

  it("alternates the sides after the warm-up, switching which goes first", async () => {
    const order: string[] = [];
    let n = 0;
    const side = (name: string) => async () => {
      order.push(name);
      return ++n;
    };
    const samples = await alternate(3, 1, side("ours"), side("raw"));
    expect(order).toEqual(["ours", "raw", "ours", "raw", "raw", "ours", "ours", "raw"]);
    expect(samples).toEqual({ ours: [3, 6, 7], baseline: [4, 5, 8] });
  });
});

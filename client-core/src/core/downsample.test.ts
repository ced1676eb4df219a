import { describe, expect, it } from "vitest";
import { bucketWidth, downsample } from "./downsample.ts";

/** Three years of 15-minute readings: a slow wave, with noise from a fixed generator. */
function years(n = 105_000) {
  const x: number[] = [];
  const y: number[] = [];
  let seed = 7;
  const noise = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648 - 0.5;
  };
  for (let i = 0; i < n; i++) {
    x.push(1_700_000_000 + i * 900);
    y.push(40 + 10 * Math.sin(i / 3000) + noise());
  }
  return { x, y };
}

describe("downsample", () => {
  it("thins 105,000 readings to about two points per bucket", () => {
    const { x, y } = years();
    const kept = downsample(x, y, 400);
    expect(kept.length).toBeGreaterThan(400);
    expect(kept.length).toBeLessThanOrEqual(2 * 400 + 2);
  });

  it("keeps the series' extremes, its first and its newest point", () => {
    const { x, y } = years();
    y[50_000] = 12; // a swarm's drop in the middle
    y[70_000] = 90; // a misread peak
    const kept = downsample(x, y, 300);
    expect(kept).toContain(50_000);
    expect(kept).toContain(70_000);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(x.length - 1);
  });

  it("keeps every bucket's minimum and maximum", () => {
    const { x, y } = years(20_000);
    const kept = new Set(downsample(x, y, 100));
    const width = bucketWidth((x.at(-1) as number) - (x[0] as number), 100);
    const buckets = new Map<number, number[]>();
    x.forEach((t, i) => {
      const k = Math.floor(t / width);
      buckets.set(k, [...(buckets.get(k) ?? []), i]);
    });
    for (const idx of buckets.values()) {
      const values = idx.map((i) => y[i] as number);
      const lo = idx[values.indexOf(Math.min(...values))] as number;
      const hi = idx[values.indexOf(Math.max(...values))] as number;
      expect(kept.has(lo) && kept.has(hi)).toBe(true);
    }
  });

  it("answers in ascending order, without repeats, the same for the same input", () => {
    const { x, y } = years(30_000);
    const a = downsample(x, y, 200);
    expect(a).toEqual([...new Set(a)].sort((p, q) => p - q));
    expect(downsample(x, y, 200)).toEqual(a);
  });

  it("is stable: a new reading at the end changes only the last bucket", () => {
    const { x, y } = years(30_001);
    const before = downsample(x.slice(0, 30_000), y.slice(0, 30_000), 200);
    const after = downsample(x, y, 200);
    const width = bucketWidth((x[29_999] as number) - (x[0] as number), 200);
    const lastBucket = Math.floor((x[29_999] as number) / width);
    const settled = (kept: number[]) =>
      kept.filter((i) => Math.floor((x[i] as number) / width) < lastBucket);
    expect(settled(after)).toEqual(settled(before));
    expect(after.at(-1)).toBe(30_000);
  });

  it("skips points without a value and keeps a short series whole", () => {
    expect(downsample([1, 2, 3, 4], [5, null, undefined, 6], 10)).toEqual([0, 3]);
    expect(downsample([1, 2], [null, Number.NaN], 10)).toEqual([]);
    expect(downsample([], [], 10)).toEqual([]);
  });

  it("never keeps a point without a value among many", () => {
    const { x, y } = years(10_000);
    const holes: (number | null)[] = y.map((v, i) => (i % 3 === 0 ? null : v));
    for (const i of downsample(x, holes, 50)) expect(holes[i]).not.toBeNull();
  });
});

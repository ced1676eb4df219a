import { timestampMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { scaleReadings } from "./scales.ts";

const quarter = 15 * 60_000;
const now = new Date("2026-11-27T11:52:10Z");
const ms = (r: ReturnType<typeof scaleReadings>["readings"][number]) =>
  r.date ? timestampMs(r.date as Parameters<typeof timestampMs>[0]) : Number.NaN;

describe("a hive scale's sample readings", () => {
  const { readings, newestMs, swarmMs } = scaleReadings(1, "hive-1", { now, days: 3 * 365 });

  it("are 15 minutes apart, oldest first, up to the last quarter hour before now", () => {
    expect(readings).toHaveLength(3 * 365 * 96);
    expect(newestMs).toBe(Date.parse("2026-11-27T11:45:00Z"));
    const times = readings.map(ms);
    expect(times.at(-1)).toBe(newestMs);
    expect(times.filter((t, i) => i > 0 && t - (times[i - 1] ?? 0) !== quarter)).toEqual([]);
  });

  it("each have their own idempotency key, every measurement and the hive", () => {
    expect(new Set(readings.map((r) => r.idempotencyKey)).size).toBe(readings.length);
    const unmeasured = readings.filter(
      (r) =>
        r.hiveId !== "hive-1" ||
        [r.weightKg, r.tempHive, r.tempOutside, r.humidityHive, r.humidityOutside].some((v) => !v),
    );
    expect(unmeasured).toEqual([]);
  });

  it("weigh like a colony: within 20 to 70 kg, heavier in July than in March", () => {
    const weights = readings.map((r) => r.weightKg ?? 0);
    expect(Math.min(...weights)).toBeGreaterThan(20);
    expect(Math.max(...weights)).toBeLessThan(70);
    const month = (m: number) =>
      readings.filter((r) => new Date(ms(r)).getUTCMonth() === m).map((r) => r.weightKg ?? 0);
    expect(Math.max(...month(6))).toBeGreaterThan(Math.max(...month(2)) + 5);
  });

  it("drop more than 1.5 kg within an hour only when honey is taken or the colony swarms", () => {
    expect(swarmMs).toBe(Date.parse("2025-05-20T11:30:00Z"));
    const dayOfYear = (t: number) =>
      Math.floor((t - Date.UTC(new Date(t).getUTCFullYear(), 0, 1)) / 86_400_000);
    const swarmDay = dayOfYear(swarmMs ?? 0);
    const dropDays = new Set<number>();
    for (let i = 4; i < readings.length; i++) {
      const [before, after] = [readings[i - 4], readings[i]];
      if ((before?.weightKg ?? 0) - (after?.weightKg ?? 0) > 1.5) {
        dropDays.add(dayOfYear(ms(after as (typeof readings)[number])));
      }
    }
    // The honey at the end of May (day 148) and of July (day 206), the swarm on 20 May.
    expect([...dropDays].sort()).toEqual([swarmDay, 148, 206].sort());
  });

  it("are the same for the same scale, seed and now; another scale's differ", () => {
    const again = scaleReadings(1, "hive-1", { now, days: 2 });
    expect(again.readings).toEqual(scaleReadings(1, "hive-1", { now, days: 2 }).readings);
    expect(scaleReadings(2, "hive-1", { now, days: 2 }).readings[0]?.weightKg).not.toBe(
      again.readings[0]?.weightKg,
    );
  });
});

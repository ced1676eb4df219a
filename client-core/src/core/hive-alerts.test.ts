import { describe, expect, it } from "vitest";
import {
  hemisphereOf,
  inSwarmSeason,
  inWinter,
  recentAlerts,
  starvingAlert,
  swarmAlerts,
  type WeightPoint,
  winterStart,
} from "./hive-alerts.ts";

const min = 60_000;
const may = Date.UTC(2026, 4, 20, 10, 0);
/** Readings every 15 minutes from `from`, one per weight. */
const every15 = (from: number, kgs: readonly number[]): WeightPoint[] =>
  kgs.map((kg, i) => ({ at: from + i * 15 * min, kg }));

describe("swarmAlerts", () => {
  it("finds a drop of more than 1.5 kg within an hour in the swarm season, once", () => {
    const readings = every15(may, [42, 42.1, 42.1, 40.2, 40.1, 40.1, 40.2, 40.3]);
    const alerts = swarmAlerts(readings, []);
    expect(alerts).toEqual([{ kind: "swarm", at: may + 45 * min, fromKg: 42.1, toKg: 40.2 }]);
  });

  it("takes a slow fall (foraging, evaporation) and exactly 1.5 kg for no swarm", () => {
    const slow = every15(may, [42, 41.7, 41.4, 41.1, 40.8, 40.5, 40.2, 39.9]);
    expect(swarmAlerts(slow, [])).toEqual([]);
    expect(swarmAlerts(every15(may, [42, 42, 40.5, 40.5]), [])).toEqual([]);
  });

  it("finds nothing outside the swarm season, and uses the apiary's hemisphere", () => {
    const november = Date.UTC(2026, 10, 10, 10);
    const drop = (at: number) => every15(at, [42, 42, 39, 39]);
    expect(swarmAlerts(drop(november), [])).toEqual([]);
    expect(swarmAlerts(drop(november), [], "south")).toHaveLength(1);
    expect(swarmAlerts(drop(may), [], "south")).toEqual([]);
  });

  it("compares nothing over a gap in the readings", () => {
    // The scale was off for three hours; it comes back 3 kg lighter.
    const readings = [
      { at: may, kg: 42 },
      { at: may + 3 * 60 * min, kg: 39 },
      { at: may + 3 * 60 * min + 15 * min, kg: 39 },
    ];
    expect(swarmAlerts(readings, [])).toEqual([]);
  });

  it("takes a drop within an hour of a visit for the beekeeper's work, not a swarm", () => {
    const readings = every15(may, [42, 42, 36, 36, 36]);
    expect(swarmAlerts(readings, [may + 20 * min])).toEqual([]);
    expect(swarmAlerts(readings, [may - 5 * 60 * min])).toHaveLength(1);
  });

  it("takes a single low reading (a weight entered by hand among the scale's) for no swarm", () => {
    const readings = every15(may, [42, 42, 38.5, 42, 42]);
    expect(swarmAlerts(readings, [])).toEqual([]);
    // …unless it is the newest reading: nothing says yet that it was a slip.
    expect(swarmAlerts(every15(may, [42, 42, 38.5]), [])).toHaveLength(1);
  });

  it("reads readings in any order and finds two swarms on two days", () => {
    const day = 24 * 60 * min;
    const readings = [
      ...every15(may, [42, 42, 40, 40]),
      ...every15(may + day, [40, 40, 38, 38]),
    ].reverse();
    expect(swarmAlerts(readings, []).map((a) => a.at)).toEqual([
      may + 30 * min,
      may + day + 30 * min,
    ]);
  });

  it("finds no swarm in three years of gentle daily waves", () => {
    const n = 105_000;
    const readings = Array.from({ length: n }, (_, i) => ({
      at: Date.UTC(2024, 0, 1) + i * 15 * min,
      kg: 40 + Math.sin(i / 500),
    }));
    expect(swarmAlerts(readings, [])).toEqual([]);
  });
});

describe("starvingAlert", () => {
  const jan = Date.UTC(2027, 0, 15);
  const dec = Date.UTC(2026, 11, 20);

  it("warns in winter when the latest weight of this winter is below the threshold", () => {
    const weights = [
      { at: dec, kg: 30 },
      { at: jan - 60 * min, kg: 21.5 },
    ];
    expect(starvingAlert(weights, 22, jan)).toEqual({
      kind: "starving",
      at: jan - 60 * min,
      kg: 21.5,
      thresholdKg: 22,
    });
    expect(starvingAlert(weights, 21, jan)).toBeUndefined();
  });

  it("says nothing without a threshold", () => {
    const weights = [{ at: jan - min, kg: 5 }];
    expect(starvingAlert(weights, undefined, jan)).toBeUndefined();
    expect(starvingAlert(weights, 0, jan)).toBeUndefined();
  });

  it("takes only this winter's weights, the latest of them (a manual entry counts)", () => {
    const lastWinter = Date.UTC(2026, 1, 10);
    expect(starvingAlert([{ at: lastWinter, kg: 10 }], 20, jan)).toBeUndefined();
    expect(starvingAlert([{ at: Date.UTC(2026, 9, 30), kg: 10 }], 20, jan)).toBeUndefined();
    // Weighed by hand after the scale's low reading: the latest wins.
    const weights = [
      { at: jan - 2 * 60 * min, kg: 15 },
      { at: jan - 60 * min, kg: 25 },
    ];
    expect(starvingAlert(weights, 20, jan)).toBeUndefined();
  });

  it("says nothing outside winter, and follows the hemisphere", () => {
    const july = Date.UTC(2026, 6, 10);
    const weights = [{ at: july - min, kg: 10 }];
    expect(starvingAlert(weights, 20, july)).toBeUndefined();
    expect(starvingAlert(weights, 20, july, "south")?.kg).toBe(10);
  });
});

describe("seasons", () => {
  it("are whole UTC months, per hemisphere", () => {
    expect(inSwarmSeason(Date.UTC(2026, 3, 1))).toBe(true);
    expect(inSwarmSeason(Date.UTC(2026, 6, 31, 23))).toBe(true);
    expect(inSwarmSeason(Date.UTC(2026, 7, 1))).toBe(false);
    expect(inSwarmSeason(Date.UTC(2026, 2, 31, 23))).toBe(false);
    expect(inWinter(Date.UTC(2026, 10, 1))).toBe(true);
    expect(inWinter(Date.UTC(2026, 3, 1))).toBe(false);
    expect(winterStart(Date.UTC(2027, 1, 3))).toBe(Date.UTC(2026, 10, 1));
    expect(winterStart(Date.UTC(2026, 11, 3))).toBe(Date.UTC(2026, 10, 1));
    expect(winterStart(Date.UTC(2026, 6, 3), "south")).toBe(Date.UTC(2026, 4, 1));
    expect(hemisphereOf(-33.9)).toBe("south");
    expect(hemisphereOf(0)).toBe("north");
    expect(hemisphereOf(undefined)).toBe("north");
  });

  it("shows alerts of the last week only", () => {
    const now = may;
    const day = 86_400_000;
    const alerts = [{ at: now - 8 * day }, { at: now - 2 * day }, { at: now + day }];
    expect(recentAlerts(alerts, now)).toEqual([{ at: now - 2 * day }]);
  });
});

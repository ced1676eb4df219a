/**
 * Alerts from a hive's weight (issue 29), pure: the app shows them on the overview and the hive
 * page. Two:
 *
 * - **Possible swarm**: in the swarm season the weight falls by more than `swarmDropKg` (1.5 kg)
 *   within `swarmWindowMs` (one hour), measured between scale readings only. A swarm takes half
 *   the bees and their honey (1.5–3 kg) in minutes and the weight stays down, so:
 *   - only readings count (isReading): a visit's weight (a hand-held scale, the roof off, a super
 *     taken off) is another measurement and never compared with the scale's;
 *   - a drop within an hour of a visit is no swarm: the beekeeper opened the hive or took honey;
 *   - a drop over a gap (no reading in the hour before) is not compared: a scale that was off
 *     says nothing about how fast the weight fell;
 *   - the next reading (when there is one within the hour) must stay down too: a single low
 *     reading (a gust, a weight entered by hand among the scale's) is no swarm.
 * - **May be starving**: in winter the latest weight of the hive (a reading or a visit's: many
 *   beekeepers weigh by hand in winter) taken this winter is below the beekeeper's threshold.
 *   No threshold set (0): no alert. A weight of an earlier winter or of the summer says nothing.
 *
 * Seasons (whole UTC months): the swarm season is April–July in the northern hemisphere and
 * October–January in the southern; winter is November–March in the north and May–September in
 * the south. The hemisphere is the apiary's (a latitude below 0; an apiary without one counts as
 * northern).
 */

export const swarmDropKg = 1.5;
export const swarmWindowMs = 3_600_000;

/** A weight at a time (Unix ms). */
export interface WeightPoint {
  readonly at: number;
  readonly kg: number;
}

export type Hemisphere = "north" | "south";

/** The hemisphere of an apiary at this latitude (0 or unset: north). */
export const hemisphereOf = (lat: number | undefined): Hemisphere =>
  lat !== undefined && lat < 0 ? "south" : "north";

/** UTC months 0–11 of each season, per hemisphere. */
const swarmMonths: Record<Hemisphere, readonly number[]> = {
  north: [3, 4, 5, 6],
  south: [9, 10, 11, 0],
};
const winterMonths: Record<Hemisphere, readonly number[]> = {
  north: [10, 11, 0, 1, 2],
  south: [4, 5, 6, 7, 8],
};

export const inSwarmSeason = (at: number, h: Hemisphere = "north"): boolean =>
  swarmMonths[h].includes(new Date(at).getUTCMonth());

export const inWinter = (at: number, h: Hemisphere = "north"): boolean =>
  winterMonths[h].includes(new Date(at).getUTCMonth());

/** The first instant (Unix ms) of the winter that `at` lies in; undefined outside winter. */
export function winterStart(at: number, h: Hemisphere = "north"): number | undefined {
  if (!inWinter(at, h)) return undefined;
  const [firstMonth] = winterMonths[h] as [number];
  const d = new Date(at);
  const year = d.getUTCMonth() >= firstMonth ? d.getUTCFullYear() : d.getUTCFullYear() - 1;
  return Date.UTC(year, firstMonth, 1);
}

export interface SwarmAlert {
  readonly kind: "swarm";
  /** When the weight was found down (the reading after the drop). */
  readonly at: number;
  /** The weight before (the highest reading of the hour before) and after. */
  readonly fromKg: number;
  readonly toKg: number;
}

export interface StarvingAlert {
  readonly kind: "starving";
  readonly at: number;
  readonly kg: number;
  readonly thresholdKg: number;
}

export type HiveAlert = SwarmAlert | StarvingAlert;

/**
 * The swarms the readings show: one alert per drop (a run of low readings after one high point
 * counts once), oldest first. `readings` are the scale's readings of one hive (any order; points
 * without a weight left out by the caller), `visits` the times of the beekeeper's visits.
 */
export function swarmAlerts(
  readings: readonly WeightPoint[],
  visits: readonly number[],
  hemisphere: Hemisphere = "north",
): SwarmAlert[] {
  const points = [...readings].filter((p) => p.kg > 0).sort((a, b) => a.at - b.at);
  const nearVisit = (at: number) => visits.some((v) => Math.abs(v - at) <= swarmWindowMs);
  const alerts: SwarmAlert[] = [];
  let start = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i] as WeightPoint;
    while ((points[start] as WeightPoint).at < p.at - swarmWindowMs) start++;
    if (!inSwarmSeason(p.at, hemisphere)) continue;
    // The highest reading of the hour before.
    let high = -1;
    for (let j = start; j < i; j++) {
      if (high < 0 || (points[j] as WeightPoint).kg > (points[high] as WeightPoint).kg) high = j;
    }
    if (high < 0) continue;
    const before = points[high] as WeightPoint;
    if (before.kg - p.kg <= swarmDropKg) continue;
    if (nearVisit(p.at) || nearVisit(before.at)) continue;
    const next = points[i + 1];
    if (
      next !== undefined &&
      next.at - p.at <= swarmWindowMs &&
      before.kg - next.kg <= swarmDropKg
    ) {
      continue;
    }
    // The same drop seen again from its next low reading.
    if (before.at <= (alerts.at(-1)?.at ?? Number.NEGATIVE_INFINITY)) continue;
    alerts.push({ kind: "swarm", at: p.at, fromKg: before.kg, toKg: p.kg });
  }
  return alerts;
}

/**
 * Whether the hive may be starving at `now`: in winter, the latest weight (any kind, Unix ms
 * `at`) taken this winter is below `thresholdKg`. Undefined when no threshold is set (0 or
 * less), outside winter, or without a weight of this winter.
 */
export function starvingAlert(
  weights: readonly WeightPoint[],
  thresholdKg: number | undefined,
  now: number,
  hemisphere: Hemisphere = "north",
): StarvingAlert | undefined {
  if (thresholdKg === undefined || !(thresholdKg > 0)) return undefined;
  const since = winterStart(now, hemisphere);
  if (since === undefined) return undefined;
  let latest: WeightPoint | undefined;
  for (const w of weights) {
    if (w.kg > 0 && w.at >= since && w.at <= now && (latest === undefined || w.at > latest.at)) {
      latest = w;
    }
  }
  if (latest === undefined || latest.kg >= thresholdKg) return undefined;
  return { kind: "starving", at: latest.at, kg: latest.kg, thresholdKg };
}

/** The swarm alerts worth showing at `now`: those of the last `days` days (default 7). */
export const recentAlerts = <A extends { readonly at: number }>(
  alerts: readonly A[],
  now: number,
  days = 7,
): A[] => alerts.filter((a) => a.at <= now && a.at > now - days * 86_400_000);

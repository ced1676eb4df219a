/**
 * Hive scales for the sample data (issue 29): every 15 minutes, for `days` days up to now, a
 * reading of weight, temperatures and humidity, sent through InspectionService.CreateReadings
 * in batches (at most 5,000 readings a call, each with its idempotency key, as a scale uploads
 * its backlog), so seeded readings obey exactly the rules of the API. Deterministic for a given
 * seed and `now`.
 *
 * The curves follow a colony in central Europe (northern hemisphere, the sample apiaries'):
 * through the winter the hive loses a little every day; from April the flows put on weight
 * (most in May and with the linden in July), honey is taken at the end of May and of July,
 * syrup is fed in September up to a winter weight. Through a flying day the weight dips in the
 * morning (the foragers leave) and the day's gain comes in the afternoon; a rainy day gains
 * nothing. One colony (scale 1) swarms once, on a May noon of the middle of the period: 2.6 kg
 * within a quarter of an hour. The brood nest holds 34.5 °C from March to September and the
 * winter cluster less; outside, the day's and the year's swings with some weather.
 *
 * `seedScaleAccount` is issue 29's whole account: the sample season with photos, and the
 * scales (the bench's `scale-account` figures and e2e/scale-account.test.ts).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import { createClient, type Transport } from "@connectrpc/connect";
import { type Hive, HiveService, InspectionService, type ReadingSchema } from "@hivekeep/proto";
import { prng, type SeedSummary, seedSeason } from "./season.ts";

export interface ScaleOptions {
  /** The newest reading is at the last quarter hour at or before `now`. */
  readonly now: Date;
  /** How many days of readings each scale has, back from now. */
  readonly days: number;
  readonly seed?: number;
  /** Readings per CreateReadings call; default (and at most) 5,000. */
  readonly batch?: number;
}

export interface ScaleSummary {
  readonly scales: number;
  readonly readings: number;
  /** The newest reading's time (Unix ms), the same for every scale. */
  readonly newestMs: number;
  /** When scale 1's colony swarmed (Unix ms), when it falls within the days seeded. */
  readonly swarmMs: number | undefined;
}

type Reading = MessageInitShape<typeof ReadingSchema>;

const quarter = 15 * 60_000;
const day = 86_400_000;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
/** A measured value: 0 means "not measured" in a reading, so a true 0 is sent as 0.1. */
const measured = (x: number, digits: number) => round(x, digits) || 0.1;

/** The day's net gain in kg from forage by day of the year (0 = 1 January), before the weather. */
function forage(doy: number): number {
  if (doy < 59 || doy >= 305) return -0.06; // winter: the cluster eats
  if (doy < 90) return -0.12; // March: brood starts, little to fetch
  if (doy < 120) return 0.25; // April: willow, dandelion, fruit blossom
  if (doy < 151) return 0.7; // May: rape and the main spring flow
  if (doy < 166) return -0.05; // the June gap
  if (doy < 181) return 0.3; // late June: clover, bramble
  if (doy < 206) return 0.55; // July: linden
  if (doy < 243) return -0.1; // August: nothing left to fetch
  return -0.05; // September, October
}

const smooth = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x));

/**
 * The readings of scale `scale` (0, 1, 2, …) of hive `hiveId`: `days` days of 15-minute
 * readings ending at the last quarter hour at or before `now`, oldest first.
 */
export function scaleReadings(
  scale: number,
  hiveId: string,
  options: Pick<ScaleOptions, "now" | "days" | "seed">,
): { readings: Reading[]; newestMs: number; swarmMs: number | undefined } {
  const rand = prng((options.seed ?? 2026) * 31 + scale);
  const newestMs = Math.floor(options.now.getTime() / quarter) * quarter;
  const count = Math.max(1, Math.round((options.days * day) / quarter));
  const firstMs = newestMs - (count - 1) * quarter;
  // The middle of the period's swarm season (scale 1 only).
  const middle = new Date(firstMs + (newestMs - firstMs) / 2);
  const swarmAt = Date.UTC(middle.getUTCFullYear(), 4, 20, 11, 30);
  const swarmMs =
    scale === 1 && swarmAt >= firstMs && swarmAt <= newestMs - quarter ? swarmAt : undefined;

  const strength = 0.8 + rand() * 0.4;
  const winterTarget = 40 + rand() * 6;
  /** The weight on 1 April, before the flows: what the honey taken leaves the colony. */
  let springBase = winterTarget - 10;
  let weight = winterTarget - 4;
  let dayStart = weight;
  let gain = 0;
  let dip = 0;
  let weather = 0;
  let today = -1;
  const readings: Reading[] = [];
  for (let k = 0; k < count; k++) {
    const ms = firstMs + k * quarter;
    const date = new Date(ms);
    const dayNumber = Math.floor(ms / day);
    const doy = Math.floor((ms - Date.UTC(date.getUTCFullYear(), 0, 1)) / day);
    if (dayNumber !== today) {
      // A new day: yesterday's gain is in; today's weather, gain and morning dip.
      today = dayNumber;
      dayStart += gain;
      weather = weather * 0.6 + (rand() - 0.5) * 4;
      const rain = rand() < 0.25;
      const flying = forage(doy) > 0 || (doy >= 59 && doy < 274);
      gain = rain && forage(doy) > 0 ? -0.1 : forage(doy) * strength + (rand() - 0.5) * 0.2;
      dip = flying && !rain ? (0.3 + rand() * 0.5) * strength : 0;
      if (doy === 90) springBase = dayStart;
      // Honey taken at the end of May and of July: the supers come off at noon.
      if (doy === 148 || doy === 206) gain -= Math.max(0, dayStart - springBase - 3) * 0.8;
      // Syrup in the first half of September, up to the winter weight.
      if (doy >= 244 && doy < 258) gain += Math.min(1.5, Math.max(0, winterTarget - dayStart));
    }
    const hour = (ms % day) / 3_600_000;
    // The day's gain comes in from 10 to 18 h (the harvest's drop at noon, at once).
    const harvestDay = doy === 148 || doy === 206;
    const share = harvestDay && gain < 0 ? (hour >= 12 ? 1 : 0) : smooth((hour - 10) / 8);
    // The foragers out in the morning: lighter from 7 to 12 h, most at 9:30.
    const out = hour > 7 && hour < 12 ? Math.sin((Math.PI * (hour - 7)) / 5) : 0;
    weight = dayStart + gain * share - dip * out;
    if (swarmMs !== undefined && ms >= swarmMs) weight -= 2.6;
    const season = -Math.cos((2 * Math.PI * (doy - 15)) / 365);
    const tempOutside = 9 + 10 * season + 5 * Math.sin((2 * Math.PI * (hour - 9)) / 24) + weather;
    const brood = doy >= 59 && doy < 274;
    const tempHive = brood ? 34.5 + (rand() - 0.5) * 0.4 : 20 + 4 * season + (rand() - 0.5);
    const humidityOutside = Math.min(100, Math.max(25, 72 - (tempOutside - 9) * 1.5 + weather * 3));
    readings.push({
      hiveId,
      date: timestampFromMs(ms),
      idempotencyKey: `scale-${scale + 1}:${date.toISOString()}`,
      weightKg: measured(weight + (rand() - 0.5) * 0.04, 2),
      tempHive: measured(tempHive, 1),
      tempOutside: measured(tempOutside, 1),
      humidityHive: measured(58 + 6 * Math.sin(doy / 20) + (rand() - 0.5) * 2, 0),
      humidityOutside: measured(humidityOutside, 0),
    });
  }
  return { readings, newestMs, swarmMs };
}

/**
 * One scale on each hive of `hiveIds` (scale 0 on the first, …), `days` days of readings each,
 * through CreateReadings in batches of `batch` readings of one hive, oldest first.
 */
export async function seedScales(
  transport: Transport,
  hiveIds: readonly string[],
  options: ScaleOptions,
): Promise<ScaleSummary> {
  const service = createClient(InspectionService, transport);
  const batch = options.batch ?? 5000;
  let readings = 0;
  let newestMs = 0;
  let swarmMs: number | undefined;
  for (const [scale, hiveId] of hiveIds.entries()) {
    const series = scaleReadings(scale, hiveId, options);
    newestMs = series.newestMs;
    swarmMs ??= series.swarmMs;
    for (let i = 0; i < series.readings.length; i += batch) {
      const part = series.readings.slice(i, i + batch);
      const { created, alreadyStored } = await service.createReadings({ readings: part });
      if (created + alreadyStored !== part.length) {
        throw new Error(`CreateReadings stored ${created + alreadyStored} of ${part.length}`);
      }
      readings += created;
    }
  }
  return { scales: hiveIds.length, readings, newestMs, swarmMs };
}

/** The 3-scale account of issue 29: its size. */
export interface AccountSize {
  /** Hives per apiary of the sample season (4 apiaries, the fourth filled by moves). */
  readonly hivesPerApiary: number;
  /** Weeks of weekly visits from 1 April. */
  readonly weeks: number;
  /** Days of 15-minute readings of each of the three scales, back from now. */
  readonly scaleDays: number;
  /** The photos of each visit (the season's visits count from 0); none when absent. */
  readonly photos?: (visit: number) => readonly string[];
  /** The season's and the readings' now; default the clock's (the server's, in process). */
  readonly now?: () => Date;
}

export interface AccountHive {
  readonly id: string;
  readonly name: string;
  /** The hive's newest visit. */
  readonly lastVisitId: string;
  /** Its oldest measurement (Unix ms): the oldest visit's (each weighs the hive) or reading's. */
  readonly oldestMeasurementMs: number;
  /** Whether a scale posts for it. */
  readonly scale: boolean;
}

/** What seedScaleAccount wrote, as a new device should show it. */
export interface ScaleAccount {
  /** By name. */
  readonly hives: readonly AccountHive[];
  /** The account's newest visit. */
  readonly newestVisitId: string;
  /** Every scale's newest reading (Unix ms). */
  readonly newestReadingMs: number;
  /** Every scale's oldest reading (Unix ms). */
  readonly oldestReadingMs: number;
  readonly season: SeedSummary;
  readonly readings: number;
  /** How long the season (with its photos) and the readings took to seed, in seconds. */
  readonly seconds: { readonly season: number; readonly readings: number };
}

async function allHives(transport: Transport): Promise<Hive[]> {
  const service = createClient(HiveService, transport);
  const hives: Hive[] = [];
  let pageToken = "";
  do {
    const page = await service.listHives({ page: { pageSize: 500, pageToken } });
    hives.push(...page.hives);
    pageToken = page.page?.nextPageToken ?? "";
  } while (pageToken !== "");
  return hives;
}

/** The sample season's hives that get a scale: the last of each of the first three apiaries. */
export function scaleHives(hives: readonly Pick<Hive, "id" | "name">[], hivesPerApiary: number) {
  return ["A", "B", "C"].map((letter) => {
    const name = `${letter}${hivesPerApiary}`;
    const hive = hives.find((h) => h.name === name);
    if (!hive) throw new Error(`the season has no hive ${name}`);
    return hive.id;
  });
}

/** seedScales on the sample season's scale hives (`scaleHives`). */
export async function seedSeasonScales(
  transport: Transport,
  hivesPerApiary: number,
  options: ScaleOptions,
): Promise<ScaleSummary> {
  return seedScales(transport, scaleHives(await allHives(transport), hivesPerApiary), options);
}

/**
 * Issue 29's account: the sample season (`seedSeason`) with `photos` on every visit, then one
 * scale on the last hive of each of the first three apiaries (A, B, C) with `scaleDays` days of
 * readings up to now (`seedScales`, batches of 5,000).
 */
export async function seedScaleAccount(
  transport: Transport,
  size: AccountSize,
): Promise<ScaleAccount> {
  const now = size.now ?? (() => new Date());
  const seasonStart = performance.now();
  const season = await seedSeason(transport, {
    now: now(),
    hivesPerApiary: size.hivesPerApiary,
    weeks: size.weeks,
    ...(size.photos ? { photos: size.photos } : {}),
  });
  const seasonSeconds = (performance.now() - seasonStart) / 1000;

  // The visits, before any reading: each hive's newest and oldest, and the newest of all.
  const newest = new Map<string, { id: string; ms: number }>();
  const oldest = new Map<string, number>();
  let newestVisit = { id: "", ms: 0 };
  const inspections = createClient(InspectionService, transport);
  let pageToken = "";
  do {
    const page = await inspections.listInspections({ page: { pageSize: 500, pageToken } });
    for (const i of page.inspections) {
      const ms = i.date ? timestampMs(i.date) : 0;
      if (ms > (newest.get(i.hiveId)?.ms ?? -1)) newest.set(i.hiveId, { id: i.id, ms });
      oldest.set(i.hiveId, Math.min(ms, oldest.get(i.hiveId) ?? ms));
      if (ms > newestVisit.ms) newestVisit = { id: i.id, ms };
    }
    pageToken = page.page?.nextPageToken ?? "";
  } while (pageToken !== "");
  const hives = await allHives(transport);
  const scaleIds = scaleHives(hives, size.hivesPerApiary);
  const readingsStart = performance.now();
  const scales = await seedScales(transport, scaleIds, { now: now(), days: size.scaleDays });
  const readingsSeconds = (performance.now() - readingsStart) / 1000;
  const perScale = scales.readings / scaleIds.length;
  const oldestReadingMs = scales.newestMs - (perScale - 1) * quarter;
  return {
    hives: hives
      .map((h) => {
        const scale = scaleIds.includes(h.id);
        const visit = oldest.get(h.id) ?? Number.POSITIVE_INFINITY;
        return {
          id: h.id,
          name: h.name,
          lastVisitId: newest.get(h.id)?.id ?? "",
          oldestMeasurementMs: scale ? Math.min(visit, oldestReadingMs) : visit,
          scale,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name)),
    newestVisitId: newestVisit.id,
    newestReadingMs: scales.newestMs,
    oldestReadingMs,
    season,
    readings: scales.readings,
    seconds: { season: seasonSeconds, readings: readingsSeconds },
  };
}

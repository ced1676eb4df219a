/**
 * A plausible beekeeping season for demos and benchmarks: several apiaries,
 * dozens of hives with queens, weekly inspections with scale measurements,
 * a mid-season move, queen replacements, harvests, late-summer treatments and
 * tasks. Everything goes through the public RPCs (any Transport: HTTP or in
 * process), so seeded data obeys exactly the rules of the API. Deterministic
 * for a given seed and `now`.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { createClient, type Transport } from "@connectrpc/connect";
import {
  ApiaryService,
  HarvestService,
  HiveService,
  HiveStatus,
  HiveType,
  InspectionService,
  QueenService,
  Stores,
  TaskPriority,
  TaskService,
  Temperament,
  TreatmentService,
} from "@hivekeep/proto";

export interface SeedOptions {
  /** The "current" time of the season. */
  readonly now: Date;
  readonly seed?: number;
  /** Hives per apiary (4 apiaries). Default 8. */
  readonly hivesPerApiary?: number;
  /**
   * Weekly inspections from April 1 of the season's year until the end of
   * September or now, whichever is earlier; at most this many weeks.
   */
  readonly weeks?: number;
  /**
   * The photos of each visit, added with AddInspectionPhoto after it (`visit` counts the
   * season's visits from 0); none when absent. Never draws from the season's random sequence, so
   * the season is the same with or without photos.
   */
  readonly photos?: (visit: number) => readonly string[];
}

export interface SeedSummary {
  apiaries: number;
  hives: number;
  queens: number;
  inspections: number;
  /** Photos added to the visits (`SeedOptions.photos`). */
  photos: number;
  treatments: number;
  harvests: number;
  tasks: number;
}

const day = 86_400_000;

/** mulberry32: a tiny deterministic PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const apiarySites = [
  { name: "Home garden", address: "Lindenweg 12", lat: 48.137, lng: 11.575 },
  { name: "Orchard hill", address: "Old orchard, north gate", lat: 48.162, lng: 11.521 },
  { name: "Linden alley", address: "Schlossallee", lat: 48.104, lng: 11.602 },
  { name: "Heath meadow", address: "Heideweg, beside the barn", lat: 48.231, lng: 11.489 },
];
const hiveTypes = [HiveType.ZANDER, HiveType.DADANT, HiveType.LANGSTROTH, HiveType.DEUTSCH_NORMAL];
const origins = ["Own split", "Swarm caught", "Bought nucleus", "Artificial swarm"];
const weathers = ["sunny", "cloudy", "warm and calm", "windy", "light rain", "overcast"];

export async function seedSeason(transport: Transport, options: SeedOptions): Promise<SeedSummary> {
  const rand = prng(options.seed ?? 2026);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
  const at = (ms: number): Timestamp => timestampFromMs(Math.round(ms));
  const now = options.now.getTime();
  // The season: this year's if it has begun (April), else last year's.
  const nowDate = options.now;
  const seasonYear =
    nowDate.getUTCMonth() >= 3 ? nowDate.getUTCFullYear() : nowDate.getUTCFullYear() - 1;
  const seasonStart = Date.UTC(seasonYear, 3, 1, 9);
  const seasonEnd = Math.min(now, Date.UTC(seasonYear, 8, 30, 18));
  const weeks = Math.max(
    1,
    Math.min(options.weeks ?? 26, Math.floor((seasonEnd - seasonStart) / (7 * day))),
  );
  const perApiary = options.hivesPerApiary ?? 8;
  const year = seasonYear;

  const apiaries = createClient(ApiaryService, transport);
  const hives = createClient(HiveService, transport);
  const queens = createClient(QueenService, transport);
  const inspections = createClient(InspectionService, transport);
  const treatments = createClient(TreatmentService, transport);
  const harvests = createClient(HarvestService, transport);
  const tasks = createClient(TaskService, transport);
  const summary: SeedSummary = {
    apiaries: 0,
    hives: 0,
    queens: 0,
    inspections: 0,
    photos: 0,
    treatments: 0,
    harvests: 0,
    tasks: 0,
  };

  const apiaryIds: string[] = [];
  for (const site of apiarySites) {
    const { apiary } = await apiaries.createApiary(site);
    if (apiary) apiaryIds.push(apiary.id);
    summary.apiaries += 1;
  }

  let n = 0;
  for (const [ai, apiaryId] of apiaryIds.entries()) {
    // The heath gets its hives later in the season, by relocation.
    if (ai === 3) continue;
    for (let h = 0; h < perApiary; h++) {
      n += 1;
      const { hive } = await hives.createHive({
        apiaryId,
        name: `${String.fromCharCode(65 + ai)}${h + 1}`,
        type: pick(hiveTypes),
        boxes: 1 + Math.floor(rand() * 3),
        colonyOrigin: pick(origins),
        qrCode: `HK-${String(n).padStart(4, "0")}`,
        // Set up in March, before the season's first inspection: the history starts there.
        date: at(seasonStart - 21 * day),
      });
      if (!hive) continue;
      summary.hives += 1;
      const strength = 0.6 + rand() * 0.6;

      const queenYear = rand() < 0.6 ? year - 1 : year - 2;
      await queens.createQueen({
        hiveId: hive.id,
        year: queenYear,
        origin: pick(["Own breeding", "Buckfast breeder", "Carnica breeder"]),
        introducedAt: at(seasonStart - (100 + rand() * 200) * day),
      });
      summary.queens += 1;
      // Some colonies get a new queen mid-season.
      const requeenWeek = rand() < 0.25 ? Math.floor(weeks * (0.4 + rand() * 0.3)) : -1;

      let weight = 28 + rand() * 8;
      for (let w = 0; w < weeks; w++) {
        const date = seasonStart + w * 7 * day + rand() * day;
        if (w === requeenWeek) {
          await queens.createQueen({
            hiveId: hive.id,
            year,
            origin: "Own breeding",
            introducedAt: at(date - day),
          });
          summary.queens += 1;
        }
        const summer = Math.sin((Math.PI * w) / weeks);
        weight += (summer * 2.2 - 0.6) * strength + (rand() - 0.5);
        const { inspection } = await inspections.createInspection({
          hiveId: hive.id,
          date: at(date),
          note: rand() < 0.15 ? pick(["Strong flight", "Swarm cells removed", "Added frames"]) : "",
          weightKg: round(weight),
          tempHive: round(33 + rand() * 3),
          tempOutside: round(10 + summer * 15 + rand() * 5),
          humidityHive: round(55 + rand() * 15),
          humidityOutside: round(50 + rand() * 35),
          weather: pick(weathers),
          queenSeen: rand() < 0.5,
          eggsSeen: rand() < 0.85,
          coveredLarva: rand() < 0.9,
          frames: 10 * (1 + Math.floor(summer * 2)),
          broodFrames: Math.max(1, Math.round(summer * 8 * strength)),
          stores: summer > 0.5 ? Stores.GOOD : pick([Stores.MEDIUM, Stores.LOW]),
          temperament: pick([Temperament.GENTLE, Temperament.VERY_GENTLE, Temperament.NORMAL]),
          calmness: 2 + Math.floor(rand() * 3),
          queenCells: summer > 0.7 && rand() < 0.2 ? 1 + Math.floor(rand() * 4) : 0,
          varroa: `${Math.floor(rand() * 6 * (w / weeks) * 2)} mites/day`,
          superAdded: w % 6 === 3,
        });
        for (const photo of options.photos?.(summary.inspections) ?? []) {
          await inspections.addInspectionPhoto({ inspectionId: inspection?.id ?? "", photo });
          summary.photos += 1;
        }
        summary.inspections += 1;
      }

      // Spring and summer honey.
      for (const [fraction, variety] of [
        [0.45, "Blossom"],
        [0.75, "Linden"],
      ] as const) {
        const amount = round(8 + rand() * 14 * strength);
        await harvests.createHarvest({
          hiveId: hive.id,
          amountKg: amount,
          date: at(seasonStart + fraction * weeks * 7 * day),
          variety,
          waterContent: round(16.5 + rand() * 2),
          batchNumber: `${year}-${variety.slice(0, 2).toUpperCase()}-${ai + 1}`,
        });
        summary.harvests += 1;
      }
      if (rand() < 0.8) {
        await treatments.createTreatment({
          hiveId: hive.id,
          product: pick(["Formic acid 60%", "Oxalic acid", "Thymol"]),
          activeIngredient: "organic acid",
          dose: "2 ml/frame",
          method: pick(["evaporator", "trickling", "sublimation"]),
          supplier: "Imkerbedarf Nord", // not picked: the seed's random sequence stays as it was
          date: at(seasonStart + 0.85 * weeks * 7 * day),
          withdrawalUntil: at(seasonStart + 0.85 * weeks * 7 * day + 14 * day),
        });
        summary.treatments += 1;
      }
      // A few colonies move to the heath for the late flow, recorded now: their
      // inspections above already froze the apiary they stood at.
      if (h < 2 && ai < 3) {
        const heath = apiaryIds[3];
        if (heath) await hives.relocateHive({ id: hive.id, targetApiaryId: heath });
      }
      if (h === perApiary - 1 && ai === 2) {
        await hives.updateHive({ hive: { ...hive, status: HiveStatus.QUEENLESS } });
      }
    }
  }

  const todo = [
    { title: "Order jars for the linden honey", due: 5, priority: TaskPriority.NORMAL },
    { title: "Check varroa boards", due: 2, priority: TaskPriority.HIGH, apiary: 0 },
    { title: "Feed winter syrup", due: 14, priority: TaskPriority.HIGH, apiary: 1 },
    { title: "Mow around the stands", due: -3, priority: TaskPriority.LOW, apiary: 2 },
    { title: "Register hives with the vet office", due: 30, priority: TaskPriority.NORMAL },
    { title: "Repair the heath fence", due: 9, priority: TaskPriority.NORMAL, apiary: 3 },
    { title: "Render old combs into wax", due: 21, priority: TaskPriority.LOW },
  ];
  for (const [i, t] of todo.entries()) {
    const { task } = await tasks.createTask({
      title: t.title,
      apiaryId: t.apiary === undefined ? "" : (apiaryIds[t.apiary] ?? ""),
      dueAt: at(now + t.due * day),
      priority: t.priority,
    });
    summary.tasks += 1;
    if (task && i === 3) await tasks.setTaskDone({ id: task.id, done: true });
  }
  return summary;
}

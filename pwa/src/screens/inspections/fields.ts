/**
 * The rules of the inspection screens that need no browser: what the form prefills from the
 * hive's last inspection, how its state becomes a CreateInspection request (0 for "not set",
 * as the contract has it), the weather presets, and which parts of a stored inspection were
 * recorded.
 */
import { type ColumnSpec, columnSpec, numberRuleBreak } from "@hivekeep/client-core/core";
import { type Inspection, Stores, Temperament } from "@hivekeep/proto";
import { toDate } from "../../format.ts";

/** The registry column of an inspection field (its value rules: range, whole numbers). */
const column = (name: string): ColumnSpec => columnSpec("inspection", name);

/**
 * Calmness on the comb ("Wabensitz") is scored 1–4 as on the German stock card and in the
 * breeding evaluation (4 = calmest): the registry's range of `inspection.calmness` is 0 … 4, 0 =
 * not set. A value above 4 stored before that rule (issue 24) is shown as it is.
 */
export const calmnessRange = { min: 1, max: column("calmness").max ?? 4 };

/** The slow-changing colony state a new inspection starts from. */
export interface ColonyState {
  readonly frames: number | undefined;
  readonly broodFrames: number | undefined;
  readonly stores: Stores;
  readonly temperament: Temperament;
  readonly calmness: number | undefined;
}

export const emptyColonyState: ColonyState = {
  frames: undefined,
  broodFrames: undefined,
  stores: Stores.UNSPECIFIED,
  temperament: Temperament.UNSPECIFIED,
  calmness: undefined,
};

const set = (n: number): number | undefined => (n > 0 ? n : undefined);

type ColonyFields = Pick<
  Inspection,
  "frames" | "broodFrames" | "stores" | "temperament" | "calmness"
>;

/** The colony state an inspection recorded (0 read as not set). */
export function colonyStateOf(i: ColonyFields): ColonyState {
  return {
    frames: set(i.frames),
    broodFrames: set(i.broodFrames),
    stores: i.stores,
    temperament: i.temperament,
    calmness: set(i.calmness),
  };
}

/** Whether an inspection recorded any colony state (a scale's measurement record does not). */
export function hasColonyState(i: ColonyFields): boolean {
  return (
    i.frames > 0 ||
    i.broodFrames > 0 ||
    i.calmness > 0 ||
    i.stores !== Stores.UNSPECIFIED ||
    i.temperament !== Temperament.UNSPECIFIED
  );
}

/**
 * The colony state of the hive's newest inspection that recorded one, read page by page,
 * newest first (hive scales add measurement-only records between a beekeeper's visits, and
 * those are skipped). Empty when there is none.
 */
export async function lastColonyState(
  fetchPage: (page: {
    pageSize: number;
    pageToken: string;
  }) => Promise<{ inspections: readonly Inspection[]; page?: { nextPageToken: string } }>,
  pageSize = 50,
): Promise<{ state: ColonyState; from?: Inspection }> {
  let pageToken = "";
  for (;;) {
    const res = await fetchPage({ pageSize, pageToken });
    const found = res.inspections.find(hasColonyState);
    if (found) return { state: colonyStateOf(found), from: found };
    pageToken = res.page?.nextPageToken ?? "";
    if (pageToken === "") return { state: emptyColonyState };
  }
}

/** What the form holds; undefined (or an unspecified enum) is "not set". */
export interface InspectionDraft extends ColonyState {
  readonly date: Date | undefined;
  readonly queenSeen: boolean;
  readonly eggsSeen: boolean;
  readonly coveredLarva: boolean;
  readonly superAdded: boolean;
  readonly queenCells: number | undefined;
  readonly weightKg: number | undefined;
  readonly tempHive: number | undefined;
  readonly tempOutside: number | undefined;
  readonly humidityHive: number | undefined;
  readonly humidityOutside: number | undefined;
  readonly weather: string;
  readonly varroa: string;
  readonly note: string;
}

/** A new inspection's draft: the colony state it starts from, everything else not set. */
export function newDraft(colony: ColonyState, date: Date | undefined): InspectionDraft {
  return {
    ...colony,
    date,
    queenSeen: false,
    eggsSeen: false,
    coveredLarva: false,
    superAdded: false,
    queenCells: undefined,
    weightKg: undefined,
    tempHive: undefined,
    tempOutside: undefined,
    humidityHive: undefined,
    humidityOutside: undefined,
    weather: "",
    varroa: "",
    note: "",
  };
}

/**
 * The draft of a stored inspection, for its edit: what it recorded, 0 / "" read as not set
 * (as the form writes them), so saving it unchanged writes back the same values.
 */
export function draftOf(i: Inspection): InspectionDraft {
  const measured = (v: number) => (v !== 0 ? v : undefined);
  return {
    ...colonyStateOf(i),
    date: toDate(i.date),
    queenSeen: i.queenSeen,
    eggsSeen: i.eggsSeen,
    coveredLarva: i.coveredLarva,
    superAdded: i.superAdded,
    queenCells: set(i.queenCells),
    weightKg: measured(i.weightKg),
    tempHive: measured(i.tempHive),
    tempOutside: measured(i.tempOutside),
    humidityHive: measured(i.humidityHive),
    humidityOutside: measured(i.humidityOutside),
    weather: i.weather,
    varroa: i.varroa,
    note: i.note,
  };
}

export type MeasurementKey =
  | "weightKg"
  | "tempHive"
  | "tempOutside"
  | "humidityHive"
  | "humidityOutside";

/**
 * The registry column of each measurement, whose plausible range (a value outside is a typo: a
 * missing decimal point, a swapped field) CreateInspection and Push apply too.
 */
export const measurementColumns: Record<MeasurementKey, ColumnSpec> = {
  weightKg: column("weight_kg"),
  tempHive: column("temp_hive"),
  tempOutside: column("temp_outside"),
  humidityHive: column("humidity_hive"),
  humidityOutside: column("humidity_outside"),
};

/** The stock-card counts and their registry columns. */
export const countColumns = {
  frames: column("frames"),
  broodFrames: column("brood_frames"),
  queenCells: column("queen_cells"),
  calmness: column("calmness"),
} as const;

/** The measurements that break their column's rules. */
export function invalidMeasurements(d: InspectionDraft): MeasurementKey[] {
  return (Object.keys(measurementColumns) as MeasurementKey[]).filter((k) => {
    const v = d[k];
    return v !== undefined && numberRuleBreak(measurementColumns[k], v) !== undefined;
  });
}

/** The CreateInspection fields of a draft: not set is 0, "" or false. */
export function toCreateFields(d: InspectionDraft) {
  const n = (v: number | undefined) => v ?? 0;
  const int = (v: number | undefined) => Math.max(0, Math.round(v ?? 0));
  return {
    note: d.note.trim(),
    weightKg: n(d.weightKg),
    tempHive: n(d.tempHive),
    tempOutside: n(d.tempOutside),
    humidityHive: n(d.humidityHive),
    humidityOutside: n(d.humidityOutside),
    weather: d.weather.trim(),
    queenSeen: d.queenSeen,
    eggsSeen: d.eggsSeen,
    coveredLarva: d.coveredLarva,
    frames: int(d.frames),
    broodFrames: int(d.broodFrames),
    stores: d.stores,
    temperament: d.temperament,
    calmness: int(d.calmness),
    queenCells: int(d.queenCells),
    varroa: d.varroa.trim(),
    superAdded: d.superAdded,
  };
}

// ---- Weather presets ----

const presetSeparator = ", ";

function parts(text: string): string[] {
  return text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/** Whether the weather text names the preset word (case-insensitive, as one of its parts). */
export function hasPreset(text: string, word: string): boolean {
  const w = word.toLocaleLowerCase();
  return parts(text).some((p) => p.toLocaleLowerCase() === w);
}

/**
 * One tap on a preset: adds the word to the weather text ("Sunny" → "Sunny, Windy"), or takes
 * it out when it is there already. Words typed by hand stay.
 */
export function togglePreset(text: string, word: string): string {
  const current = parts(text);
  if (hasPreset(text, word)) {
    const w = word.toLocaleLowerCase();
    return current.filter((p) => p.toLocaleLowerCase() !== w).join(presetSeparator);
  }
  return [...current, word].join(presetSeparator);
}

// ---- A stored inspection ----
// Whether an inspection looked into the colony. Whether it is a reading or a visit at all is
// client-core's one rule (core/inspection-kind.ts: isReading).

type Observations = ColonyFields &
  Pick<
    Inspection,
    "queenSeen" | "eggsSeen" | "coveredLarva" | "superAdded" | "queenCells" | "varroa"
  >;

/**
 * Whether an inspection is a beekeeper's look into the colony (anything of the stock card
 * recorded), as opposed to a scale's or climate tracker's measurement record. Only then do
 * the yes/no observations mean something ("queen not seen"), so only then are they shown.
 */
export function isColonyCheck(i: Observations): boolean {
  return (
    hasColonyState(i) ||
    i.queenSeen ||
    i.eggsSeen ||
    i.coveredLarva ||
    i.superAdded ||
    i.queenCells > 0 ||
    i.varroa.trim() !== ""
  );
}

/** Whether any measurement was recorded. */
export function hasMeasurements(i: Inspection): boolean {
  return (
    i.weightKg !== 0 ||
    i.tempHive !== 0 ||
    i.tempOutside !== 0 ||
    i.humidityHive !== 0 ||
    i.humidityOutside !== 0 ||
    i.weather !== ""
  );
}

/**
 * The words of the spreadsheet export (issue 26), in English and German: sheet names, column
 * headers and the words for enum values and booleans. A spreadsheet is read by a beekeeper, so
 * the headers are the app's own labels (pwa `messages.ts` files: "Durchsicht", "Volk", "Stand",
 * "Wabensitz"…) with their unit where a number has one ("Gewicht (kg)"). The app keeps its
 * labels in its lazily loaded screen chunks; these live in the core because the export is made
 * from the core. `pwa/src/screens/records-io/sheet-words.test.ts` holds the enum words equal to
 * the app's.
 */
import type { EntityName } from "../entities.ts";
import type { SheetLanguage } from "./csv.ts";

export type Words = Readonly<Record<SheetLanguage, string>>;

const w = (en: string, de: string): Words => ({ en, de });

/** The sheet (and CSV file) of each record kind. `file` is the ZIP entry's name, in English. */
export const sheetNames: Readonly<Record<EntityName, Words & { readonly file: string }>> = {
  apiary: { ...w("Apiaries", "Stände"), file: "apiaries.csv" },
  hive: { ...w("Hives", "Völker"), file: "hives.csv" },
  placement: { ...w("Placements", "Standorte"), file: "placements.csv" },
  inspection: { ...w("Inspections", "Durchsichten"), file: "inspections.csv" },
  queen: { ...w("Queens", "Königinnen"), file: "queens.csv" },
  task: { ...w("Tasks", "Aufgaben"), file: "tasks.csv" },
  treatment: { ...w("Treatments", "Behandlungen"), file: "treatments.csv" },
  harvest: { ...w("Harvests", "Ernten"), file: "harvests.csv" },
  event: { ...w("Events", "Ereignisse"), file: "events.csv" },
};

/** The two headers of a reference: its id and, beside it, what a person knows it by. */
export const refHeaders: Readonly<
  Partial<Record<EntityName, { readonly id: Words; readonly name: Words }>>
> = {
  apiary: { id: w("Apiary ID", "Stand-ID"), name: w("Apiary", "Stand") },
  hive: { id: w("Hive ID", "Volk-ID"), name: w("Hive", "Volk") },
  queen: { id: w("Queen ID", "Königin-ID"), name: w("Queen (year)", "Königin (Jahrgang)") },
};

/** Written after the name of a deleted hive or apiary that a live record refers to. */
export const deletedMark = w("deleted", "gelöscht");

/** How many photos a record holds (the photos themselves are in the backup, not in a sheet). */
export const photoCountHeader = w("Photos", "Fotos");
/** A harvest taken inside a running withdrawal period: when that period ends (derived). */
export const harvestWithdrawalHeader = w(
  "Taken inside a withdrawal period ending",
  "In der Wartezeit geerntet, Wartezeit bis",
);

const common = {
  id: w("ID", "ID"),
  name: w("Name", "Name"),
  note: w("Note", "Notiz"),
  date: w("Date", "Datum"),
  created_at: w("Entered", "Eingetragen"),
  updated_at: w("Changed", "Geändert"),
  batch_number: w("Batch number", "Chargennummer"),
  amount_kg: w("Amount (kg)", "Menge (kg)"),
  title: w("Title", "Titel"),
};

/** Column headers per record kind (a reference column's headers are `refHeaders`). */
export const columnHeaders: Readonly<Record<EntityName, Readonly<Record<string, Words>>>> = {
  apiary: {
    ...common,
    address: w("Address", "Adresse"),
    lat: w("Latitude", "Breitengrad"),
    lng: w("Longitude", "Längengrad"),
    created_at: w("Created", "Angelegt"),
  },
  hive: {
    ...common,
    type: w("Hive type", "Beutentyp"),
    status: w("Status", "Status"),
    boxes: w("Boxes", "Zargen"),
    colony_origin: w("Colony origin", "Herkunft des Volkes"),
    qr_code: w("QR code", "QR-Code"),
    created_at: w("Created", "Angelegt"),
  },
  placement: {
    ...common,
    started_at: w("From", "Von"),
    ended_at: w("Until", "Bis"),
  },
  inspection: {
    ...common,
    queen_seen: w("Queen seen", "Königin gesehen"),
    eggs_seen: w("Eggs seen", "Stifte gesehen"),
    covered_larva: w("Capped brood", "Verdeckelte Brut"),
    frames: w("Frames", "Waben"),
    brood_frames: w("Brood frames", "Brutwaben"),
    stores: w("Stores", "Futter"),
    temperament: w("Temperament", "Sanftmut"),
    calmness: w("Calmness (1-4)", "Wabensitz (1-4)"),
    queen_cells: w("Queen cells", "Weiselzellen"),
    varroa: w("Varroa", "Varroa"),
    super_added: w("Super added", "Honigraum aufgesetzt"),
    weight_kg: w("Weight (kg)", "Gewicht (kg)"),
    temp_hive: w("Hive temperature (°C)", "Stocktemperatur (°C)"),
    temp_outside: w("Outside temperature (°C)", "Außentemperatur (°C)"),
    humidity_hive: w("Hive humidity (%)", "Luftfeuchte im Stock (%)"),
    humidity_outside: w("Outside humidity (%)", "Luftfeuchte außen (%)"),
    weather: w("Weather", "Wetter"),
  },
  queen: {
    ...common,
    year: w("Year", "Jahrgang"),
    marking: w("Marking", "Zeichnung"),
    origin: w("Origin", "Herkunft"),
    breeder_number: w("Breeder number", "Zuchtnummer"),
    introduced_at: w("Introduced", "Eingeweiselt"),
    replaced_at: w("Replaced", "Ersetzt"),
    active: w("Reigning", "Aktuelle Königin"),
    created_at: w("Created", "Angelegt"),
  },
  task: {
    ...common,
    due_at: w("Due date", "Fällig am"),
    priority: w("Priority", "Priorität"),
    done: w("Done", "Erledigt"),
    created_at: w("Created", "Angelegt"),
  },
  treatment: {
    ...common,
    product: w("Product", "Mittel"),
    active_ingredient: w("Active ingredient", "Wirkstoff"),
    dose: w("Dose", "Dosis"),
    method: w("Method", "Anwendung"),
    withdrawal_until: w("Withdrawal period until", "Wartezeit bis"),
    reason: w("Reason", "Grund"),
    supplier: w("Supplier", "Bezugsquelle"),
    deleted_by: w("Deleted by (user ID)", "Gelöscht von (Benutzer-ID)"),
    deleted_at: w("Deleted at", "Gelöscht am"),
  },
  harvest: {
    ...common,
    variety: w("Variety", "Sorte"),
    water_content: w("Water content (%)", "Wassergehalt (%)"),
    best_before: w("Best before", "Mindestens haltbar bis"),
  },
  event: {
    ...common,
    type: w("Event", "Ereignis"),
    ref_entity: w("Record kind", "Art des Eintrags"),
    ref_id: w("Record ID", "Eintrag-ID"),
    detail_json: w("Details (JSON)", "Details (JSON)"),
    author_id: w("Recorded by (user ID)", "Erfasst von (Benutzer-ID)"),
  },
};

/** The words of each enum's numbers (0 = not set: an empty cell). Same as the app's. */
export const enumWords: Readonly<Record<string, Readonly<Record<number, Words>>>> = {
  hiveType: {
    1: w("Zander", "Zander"),
    2: w("Dadant", "Dadant"),
    3: w("Deutsch Normal", "Deutsch Normal"),
    4: w("Langstroth", "Langstroth"),
    5: w("Warré", "Warré"),
    6: w("Top bar", "Top-Bar"),
    99: w("Other", "Andere"),
  },
  hiveStatus: {
    1: w("Active", "Aktiv"),
    2: w("Nucleus", "Ableger"),
    3: w("Queenless", "Weisellos"),
    4: w("Lost", "Verloren"),
    5: w("Dissolved", "Aufgelöst"),
  },
  priority: { 1: w("Low", "Niedrig"), 2: w("Normal", "Normal"), 3: w("High", "Hoch") },
  marking: {
    1: w("White", "Weiß"),
    2: w("Yellow", "Gelb"),
    3: w("Red", "Rot"),
    4: w("Green", "Grün"),
    5: w("Blue", "Blau"),
  },
  stores: {
    1: w("Good", "Gut"),
    2: w("Medium", "Mittel"),
    3: w("Low", "Knapp"),
    4: w("None", "Keine"),
  },
  temperament: {
    1: w("Very gentle", "Sehr sanft"),
    2: w("Gentle", "Sanft"),
    3: w("Normal", "Normal"),
    4: w("Nervous", "Nervös"),
    5: w("Aggressive", "Stechlustig"),
  },
  event: {
    1: w("Hive set up", "Volk aufgestellt"),
    2: w("Queen introduced", "Königin eingeweiselt"),
    3: w("Queen replaced", "Königin ersetzt"),
    4: w("Moved", "Umgesetzt"),
    5: w("Inspection", "Durchsicht"),
    6: w("Treatment", "Behandlung"),
    7: w("Harvest", "Ernte"),
    8: w("Status changed", "Status geändert"),
    9: w("Dissolved", "Aufgelöst"),
  },
};

/** A record kind in the singular: the word for an event's `ref_entity` ("Durchsicht"). */
export const entityWords: Readonly<Record<EntityName, Words>> = {
  apiary: w("Apiary", "Stand"),
  hive: w("Hive", "Volk"),
  placement: w("Placement", "Standort"),
  inspection: w("Inspection", "Durchsicht"),
  queen: w("Queen", "Königin"),
  task: w("Task", "Aufgabe"),
  treatment: w("Treatment", "Behandlung"),
  harvest: w("Harvest", "Ernte"),
  event: w("Event", "Ereignis"),
};

/** Which enum words an enum column takes. */
export const enumOfColumn: Readonly<Partial<Record<EntityName, Readonly<Record<string, string>>>>> =
  {
    hive: { type: "hiveType", status: "hiveStatus" },
    inspection: { stores: "stores", temperament: "temperament" },
    queen: { marking: "marking" },
    task: { priority: "priority" },
    event: { type: "event" },
  };

/** The order of a kind's columns in its sheet; registry columns not named here follow. */
export const columnOrder: Readonly<Record<EntityName, readonly string[]>> = {
  apiary: ["name", "address", "lat", "lng", "created_at", "updated_at"],
  hive: [
    "name",
    "apiary_id",
    "type",
    "status",
    "boxes",
    "colony_origin",
    "qr_code",
    "note",
    "photo",
    "created_at",
    "updated_at",
  ],
  placement: ["hive_id", "apiary_id", "started_at", "ended_at"],
  inspection: [
    "date",
    "hive_id",
    "apiary_id",
    "queen_id",
    "queen_seen",
    "eggs_seen",
    "covered_larva",
    "frames",
    "brood_frames",
    "stores",
    "temperament",
    "calmness",
    "queen_cells",
    "varroa",
    "super_added",
    "weight_kg",
    "temp_hive",
    "temp_outside",
    "humidity_hive",
    "humidity_outside",
    "weather",
    "note",
    "photo_keys",
    "created_at",
  ],
  queen: [
    "hive_id",
    "year",
    "marking",
    "origin",
    "breeder_number",
    "introduced_at",
    "replaced_at",
    "active",
    "note",
    "created_at",
    "updated_at",
  ],
  task: ["title", "hive_id", "apiary_id", "due_at", "priority", "done", "created_at"],
  treatment: [
    "date",
    "hive_id",
    "apiary_id",
    "queen_id",
    "product",
    "active_ingredient",
    "batch_number",
    "dose",
    "method",
    "withdrawal_until",
    "reason",
    "supplier",
    "created_at",
  ],
  harvest: [
    "date",
    "hive_id",
    "apiary_id",
    "queen_id",
    "variety",
    "amount_kg",
    "water_content",
    "batch_number",
    "best_before",
    "note",
    "created_at",
  ],
  event: [
    "date",
    "type",
    "title",
    "hive_id",
    "apiary_id",
    "queen_id",
    "amount_kg",
    "ref_entity",
    "ref_id",
    "author_id",
    "detail_json",
    "created_at",
  ],
};

/**
 * The columns of a spreadsheet of inspections, by their header in English or German (issue 26):
 * every inspection column of the registry, the apiary and hive by name, and an optional time of
 * day. Headers are compared as `normalizedName` (case, spaces, punctuation, Umlauts, units in
 * brackets left out), so "Königin gesehen?", "koenigin_gesehen" and "KÖNIGIN GESEHEN" are one.
 * The spreadsheet export's own headers (the app's field names, en and de) are among them, so an
 * exported file reads back.
 */
import { Stores, Temperament } from "@hivekeep/proto";
import { normalizedName } from "./sheet-values.ts";

/** What a column of the file holds: a place, the time of day, or an inspection column. */
export type SheetField =
  | "apiary"
  | "hive"
  | "time"
  | "date"
  | "note"
  | "weight_kg"
  | "temp_hive"
  | "temp_outside"
  | "humidity_hive"
  | "humidity_outside"
  | "weather"
  | "queen_seen"
  | "eggs_seen"
  | "covered_larva"
  | "frames"
  | "brood_frames"
  | "stores"
  | "temperament"
  | "calmness"
  | "queen_cells"
  | "varroa"
  | "super_added";

/** Headers per field, English first, then German (docs/decisions.md lists them). */
export const headerAliases: Readonly<Record<SheetField, readonly string[]>> = {
  date: [
    "date",
    "day",
    "inspection date",
    "visit date",
    "datum",
    "tag",
    "durchsicht",
    "kontrolle",
    "durchsichtsdatum",
  ],
  time: ["time", "time of day", "uhrzeit", "zeit"],
  apiary: [
    "apiary",
    "apiary name",
    "yard",
    "bee yard",
    "site",
    "location",
    "stand",
    "bienenstand",
    "standort",
    "bienenstandort",
  ],
  hive: [
    "hive",
    "hive name",
    "colony",
    "volk",
    "bienenvolk",
    "beute",
    "stock",
    "volk nr",
    "volksname",
  ],
  weight_kg: [
    "weight",
    "hive weight",
    "weight kg",
    "gewicht",
    "stockgewicht",
    "beutengewicht",
    "volksgewicht",
  ],
  temp_hive: [
    "hive temperature",
    "temperature hive",
    "temp hive",
    "hive temp",
    "temperature inside",
    "brood temperature",
    "stocktemperatur",
    "temperatur stock",
    "temperatur innen",
    "innentemperatur",
    "beutentemperatur",
  ],
  temp_outside: [
    "outside temperature",
    "temperature outside",
    "temperature",
    "temp",
    "outside temp",
    "air temperature",
    "ambient temperature",
    "aussentemperatur",
    "temperatur aussen",
    "temperatur",
    "lufttemperatur",
  ],
  humidity_hive: [
    "hive humidity",
    "humidity hive",
    "humidity inside",
    "luftfeuchte im stock",
    "luftfeuchte stock",
    "luftfeuchtigkeit stock",
    "luftfeuchte innen",
    "luftfeuchtigkeit innen",
    "stockfeuchte",
  ],
  humidity_outside: [
    "outside humidity",
    "humidity outside",
    "humidity",
    "luftfeuchte aussen",
    "luftfeuchtigkeit aussen",
    "luftfeuchte",
    "luftfeuchtigkeit",
  ],
  weather: ["weather", "wetter", "witterung"],
  queen_seen: [
    "queen seen",
    "queen spotted",
    "saw queen",
    "koenigin gesehen",
    "weisel gesehen",
    "kö gesehen",
  ],
  eggs_seen: [
    "eggs seen",
    "eggs",
    "stifte",
    "stifte gesehen",
    "stifte (eier) gesehen",
    "eier",
    "eier gesehen",
  ],
  covered_larva: [
    "capped brood",
    "covered brood",
    "sealed brood",
    "covered larva",
    "verdeckelte brut",
    "gedeckelte brut",
  ],
  frames: [
    "frames",
    "occupied frames",
    "frames occupied",
    "combs",
    "waben",
    "besetzte waben",
    "wabengassen",
    "gassen",
  ],
  brood_frames: ["brood frames", "brood", "brutwaben", "brut"],
  stores: ["stores", "food", "food stores", "honey stores", "futter", "futtervorrat", "vorrat"],
  temperament: ["temperament", "gentleness", "sanftmut"],
  calmness: ["calmness", "calm on comb", "comb calmness", "wabensitz", "wabenstetigkeit"],
  queen_cells: ["queen cells", "swarm cells", "weiselzellen", "schwarmzellen"],
  varroa: ["varroa", "mites", "mite count", "varroa count", "milben", "milbenfall", "varroabefall"],
  super_added: [
    "super added",
    "super",
    "honey super",
    "honey super added",
    "honigraum",
    "honigraum aufgesetzt",
    "aufgesetzt",
  ],
  note: [
    "note",
    "notes",
    "comment",
    "comments",
    "remarks",
    "notiz",
    "notizen",
    "bemerkung",
    "bemerkungen",
    "kommentar",
    "anmerkung",
  ],
};

const byName = new Map<string, SheetField>(
  Object.entries(headerAliases).flatMap(([field, names]) =>
    names.flatMap((n) => {
      // "Königin" is also written "Konigin": both spellings name the field.
      const plain = n.replaceAll("ä", "a").replaceAll("ö", "o").replaceAll("ü", "u");
      return [
        [normalizedName(n), field as SheetField] as const,
        [normalizedName(plain).replace("koenig", "konig"), field as SheetField] as const,
      ];
    }),
  ),
);

/** Units written after a header without brackets ("Gewicht kg", "Temp °C", "Humidity %"). */
const unitSuffix = /(kg|inkg|grad|gradc|c|inc|prozent|percent|pct)$/;

/** The field a header names, or undefined when none. */
export function sheetField(header: string): SheetField | undefined {
  const name = normalizedName(header);
  const konig = name.replace("koenig", "konig");
  return byName.get(name) ?? byName.get(konig) ?? byName.get(name.replace(unitSuffix, ""));
}

/** The names of the choices of `stores` and `temperament`, in both languages. */
export const choiceNames: Readonly<
  Record<"stores" | "temperament", Readonly<Record<number, readonly string[]>>>
> = {
  stores: {
    [Stores.GOOD]: ["good", "gut", "reichlich", "viel"],
    [Stores.MEDIUM]: ["medium", "mittel"],
    [Stores.LOW]: ["low", "knapp", "wenig"],
    [Stores.NONE]: ["none", "keine", "kein", "leer"],
  },
  temperament: {
    [Temperament.VERY_GENTLE]: ["very gentle", "sehr sanft", "sehr sanftmuetig"],
    [Temperament.GENTLE]: ["gentle", "sanft", "sanftmuetig"],
    [Temperament.NORMAL]: ["normal"],
    [Temperament.NERVOUS]: ["nervous", "nervös", "unruhig"],
    [Temperament.AGGRESSIVE]: ["aggressive", "stechlustig", "aggressiv"],
  },
};

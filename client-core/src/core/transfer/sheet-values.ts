/**
 * Cells of a spreadsheet a person wrote, in English or German (issue 26): headers, days, numbers,
 * yes/no and named choices, read as the registry's values. The inverse of what the spreadsheet
 * writer (`csv.ts`) writes, and lenient where people differ (`38,5` or `38.5 kg`, `26.11.2026`,
 * `26.11.26`, `2026-11-26`, `11/26/2026`, `26. Nov. 2026`; `ja`, `x`, `1`).
 *
 * Every parser returns `{value}` or `{error}`: the error is a phrase that follows the cell's
 * quoted text (`"38,5,1" is not a number`).
 */
import { dayAndTime, isoTimestamp, type Parsed } from "./foreign-time.ts";

/**
 * A header or a named choice as compared: lower case, ß → ss, Umlauts → ae/oe/ue (so "Königin"
 * and "Koenigin" match), other accents dropped, then only letters and digits ("Queen seen?" →
 * "queenseen"); units in brackets ("Gewicht (kg)", "Weight [kg]") are left out.
 */
export function normalizedName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\(.*?\)|\[.*?\]/g, "")
    .replaceAll("ß", "ss")
    .replaceAll("ä", "ae")
    .replaceAll("ö", "oe")
    .replaceAll("ü", "ue")
    .normalize("NFD")
    .replace(/[^a-z0-9]/g, "");
}

/** A cell as a problem quotes it: trimmed, at most 40 characters ("…" for the rest). */
export function quotedCell(cell: string): string {
  const text = cell.trim();
  return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
}

/** The order of a day written with slashes: 26/11/2026 (day first) or 11/26/2026 (month first). */
export type SlashOrder = "dmy" | "mdy";

const months: Readonly<Record<string, number>> = Object.fromEntries(
  [
    ["jan", "januar", "january", "jaenner", "janner"],
    ["feb", "februar", "february"],
    ["mar", "maerz", "march", "mrz", "marz"],
    ["apr", "april"],
    ["may", "mai"],
    ["jun", "juni", "june"],
    ["jul", "juli", "july"],
    ["aug", "august"],
    ["sep", "sept", "september"],
    ["oct", "okt", "oktober", "october"],
    ["nov", "november"],
    ["dec", "dez", "dezember", "december"],
  ].flatMap((names, i) => names.map((n) => [n, i + 1] as const)),
);

const timePart = String.raw`(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?`;
const dotted = new RegExp(String.raw`^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})${timePart}$`);
const slashed = new RegExp(String.raw`^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})${timePart}$`);
const dayMonthName = new RegExp(String.raw`^(\d{1,2})\.?\s*([a-zäöü]+)\.?\s*(\d{4})${timePart}$`);
const monthNameDay = new RegExp(String.raw`^([a-z]+)\.?\s*(\d{1,2}),?\s*(\d{4})${timePart}$`);

/** "26" → 2026: a two-digit year is of this century. */
const fullYear = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));

const clock = (h?: string, m?: string, s?: string) =>
  h === undefined ? undefined : { hour: Number(h), minute: Number(m), second: Number(s ?? 0) };

/** The two numbers of a slashed day, when they say which comes first (a number above 12). */
export function slashOrderOf(text: string): SlashOrder | undefined {
  const m = slashed.exec(text.trim());
  if (m === null) return undefined;
  if (Number(m[1]) > 12) return "dmy";
  if (Number(m[2]) > 12) return "mdy";
  return undefined;
}

/**
 * A day, with an optional time of day (wall-clock time in `timeZone`, as the spreadsheet writer
 * writes times), as RFC 3339 UTC. A day alone is the start of that day there (foreign-time.ts).
 */
export function sheetTimestamp(
  cell: string,
  slashOrder: SlashOrder = "dmy",
  timeZone = "UTC",
): Parsed<string> {
  const text = cell.trim();
  const read = /^\d{4}-/.test(text)
    ? isoTimestamp(text, timeZone)
    : writtenDay(text, slashOrder, timeZone);
  if (read === undefined) {
    return { error: `${quotedCell(cell)} is not a date (write e.g. 26.11.2026 or 2026-11-26)` };
  }
  return "error" in read
    ? { error: `${quotedCell(cell)} is not a date: there is no such day or time` }
    : read;
}

type DayParts = readonly [year: number, month: number | undefined, day: number];

/** The forms of a day besides ISO: each pattern and the year, month and day it captures. */
const dayForms = (
  slashOrder: SlashOrder,
): readonly [RegExp, (m: RegExpExecArray) => DayParts][] => [
  [dotted, (m) => [fullYear(m[3] ?? ""), Number(m[2]), Number(m[1])]],
  [
    slashed,
    (m) =>
      slashOrder === "dmy"
        ? [fullYear(m[3] ?? ""), Number(m[2]), Number(m[1])]
        : [fullYear(m[3] ?? ""), Number(m[1]), Number(m[2])],
  ],
  [dayMonthName, (m) => [Number(m[3]), months[normalizedName(m[2] ?? "")], Number(m[1])]],
  [monthNameDay, (m) => [Number(m[3]), months[m[1] ?? ""], Number(m[2])]],
];

/** A day written as people do (not ISO); undefined when it is none of those forms. */
function writtenDay(
  text: string,
  slashOrder: SlashOrder,
  timeZone: string,
): Parsed<string> | undefined {
  const lower = text.toLowerCase();
  for (const [pattern, parts] of dayForms(slashOrder)) {
    const m = pattern.exec(lower);
    if (m === null) continue;
    const [year, month, day] = parts(m);
    if (month === undefined) return undefined;
    return dayAndTime(year, month, day, clock(m[4], m[5], m[6]), timeZone);
  }
  return undefined;
}

/**
 * A number with a decimal comma or point (`38,5`, `38.5`), a sign, thousands separators where
 * both marks appear (`1.234,5`, `1,234.5`) and an optional unit after it (`kg`, `°C`, `%`).
 */
export function sheetNumber(cell: string): Parsed<number> {
  let text = cell.trim().replace(/\s*(kg|°\s*c|°|c|%)$/i, "");
  text = text.replace(/\s/g, "").replace("−", "-");
  const comma = text.lastIndexOf(",");
  const point = text.lastIndexOf(".");
  if (comma >= 0 && point >= 0) {
    text = comma > point ? text.replaceAll(".", "").replace(",", ".") : text.replaceAll(",", "");
  } else if (comma >= 0) {
    text = text.replace(",", ".");
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text))
    return { error: `${quotedCell(cell)} is not a number` };
  return { value: Number(text) };
}

const yes = new Set(["yes", "y", "ja", "j", "x", "1", "true", "wahr", "✓", "✔", "☑", "+"]);
const no = new Set(["no", "n", "nein", "0", "false", "falsch", "-", "–", "✗", "☐"]);

/** yes/no, ja/nein, x (a ticked box), 1/0, true/false, wahr/falsch. */
export function sheetBool(cell: string): Parsed<boolean> {
  const text = cell.trim().toLowerCase();
  if (yes.has(text)) return { value: true };
  if (no.has(text)) return { value: false };
  return { error: `${quotedCell(cell)} is not yes or no (ja/nein, x, 1/0)` };
}

/**
 * One of a choice's numbers, by its number or any of its names (compared as `normalizedName`).
 * @param names number → its names in every language.
 */
export function sheetChoice(
  cell: string,
  names: Readonly<Record<number, readonly string[]>>,
): Parsed<number> {
  const text = cell.trim();
  if (/^\d+$/.test(text) && Number(text) in names) return { value: Number(text) };
  const wanted = normalizedName(text);
  for (const [n, words] of Object.entries(names)) {
    if (words.some((w) => normalizedName(w) === wanted)) return { value: Number(n) };
  }
  const listed = Object.entries(names)
    .map(([n, words]) => `${n} ${words[0]}`)
    .join(", ");
  return { error: `${quotedCell(cell)} is not one of ${listed}` };
}

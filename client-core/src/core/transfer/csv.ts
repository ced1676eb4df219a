/**
 * Spreadsheet files a person opens in their own language (issue 26): one writer for every CSV
 * Hivekeep makes (the spreadsheet export, the treatment register).
 *
 * A spreadsheet program reads a CSV with its locale's conventions: a German one splits columns at
 * `;` (the comma is its decimal mark), reads `38,5` as a number and `26.11.2026` as a date; an
 * English one splits at `,`, reads `38.5` and the ISO date `2026-11-26`. Files start with a UTF-8
 * byte order mark, without which Excel reads UTF-8 as the local code page (Umlauts break), and
 * end lines with CRLF (RFC 4180).
 */

export type SheetLanguage = "en" | "de";

/**
 * A cell: text, a number, a day or a time of day (wall-clock, in the reader's zone: `wallClock`;
 * written as the language reads them), or empty.
 */
export type Cell =
  | string
  | number
  | boolean
  | { readonly day: string }
  | { readonly instant: string }
  | null
  | undefined;

/** The column separator a spreadsheet in `lang` splits at. */
export const csvDelimiter = (lang: SheetLanguage): string => (lang === "de" ? ";" : ",");

const pad = (n: number): string => String(n).padStart(2, "0");

const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock parts of an instant in an IANA time zone (throws RangeError for a bad zone). */
function wallParts(ms: number, timeZone: string): number[] {
  let format = wallFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    wallFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
  return ["year", "month", "day", "hour", "minute", "second"].map((t) => Number(parts[t]));
}

/** Whether `timeZone` is an IANA time zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    wallParts(0, timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * An instant (RFC 3339) as the wall clock in `timeZone` shows it: `2026-11-26T00:30:00`, no zone.
 * Records store instants; a person's day is the day of their own zone (a visit picked for the
 * 26th in Berlin is stored as 23:00 UTC on the 25th), so every file a person reads is written in
 * their zone.
 */
export function wallClock(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = wallParts(ms, timeZone);
  return `${String(y).padStart(4, "0")}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}`;
}

/**
 * The instant (RFC 3339 UTC, milliseconds) a wall-clock time `YYYY-MM-DDTHH:mm:ss` in `timeZone`
 * names: the inverse of `wallClock`. A time that a clock change skips is taken an hour later; one
 * it repeats, the first time.
 */
export function zonedInstant(wall: string, timeZone: string): string {
  const asUtc = Date.parse(`${wall}Z`);
  const day = 86_400_000;
  const offsetAt = (ms: number): number => {
    const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = wallParts(ms, timeZone);
    return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(ms / 1000) * 1000;
  };
  // The zone's offset a day before and a day after: one of them holds at the wall time.
  const before = asUtc - offsetAt(asUtc - day);
  const after = asUtc - offsetAt(asUtc + day);
  const shows = (ms: number): boolean => wallClock(new Date(ms).toISOString(), timeZone) === wall;
  const fits = [before, after].filter(shows);
  return new Date(fits.length > 0 ? Math.min(...fits) : before).toISOString();
}

/**
 * A day as the language writes it: `26.11.2026` (de) or `2026-11-26` (en). `iso` is a wall-clock
 * day or time (`wallClock`) whose first ten characters are the day.
 */
export function sheetDay(iso: string, lang: SheetLanguage): string {
  const day = iso.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return iso;
  if (lang === "en") return day;
  const [y, m, d] = day.split("-");
  return `${d}.${m}.${y}`;
}

/** A wall-clock time (`wallClock`) as the spreadsheet reads it: `26.11.2026 14:05`. */
export function sheetInstant(wall: string, lang: SheetLanguage): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(wall);
  if (m === null) return wall;
  return `${sheetDay(m[1] ?? "", lang)} ${m[2]}`;
}

/** A number with the language's decimal mark and no grouping: `38,5` (de), `38.5` (en). */
export function sheetNumber(n: number, lang: SheetLanguage): string {
  const s = String(n);
  return lang === "de" ? s.replace(".", ",") : s;
}

const yesNo = { en: ["yes", "no"], de: ["ja", "nein"] } as const;

/** One cell as text, before quoting. */
export function sheetCell(cell: Cell, lang: SheetLanguage): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "string") return cell;
  if (typeof cell === "number") return Number.isFinite(cell) ? sheetNumber(cell, lang) : "";
  if (typeof cell === "boolean") return yesNo[lang][cell ? 0 : 1];
  if ("day" in cell) return cell.day === "" ? "" : sheetDay(cell.day, lang);
  return cell.instant === "" ? "" : sheetInstant(cell.instant, lang);
}

/**
 * A text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR at its start) is
 * prefixed with `'` (OWASP "CSV injection"); numbers are written as numbers, so only text from a
 * person is guarded.
 */
const guarded = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const quoted = (text: string, delimiter: string): string =>
  text.includes('"') || text.includes(delimiter) || /[\r\n]/.test(text) || /^\s|\s$/.test(text)
    ? `"${text.replaceAll('"', '""')}"`
    : text;

/** The whole CSV file: a byte order mark, the header line and one line per row, CRLF. */
export function csvFile(
  header: readonly string[],
  rows: Iterable<readonly Cell[]>,
  lang: SheetLanguage,
): string {
  const delimiter = csvDelimiter(lang);
  const line = (cells: readonly string[]): string =>
    cells.map((c) => quoted(c, delimiter)).join(delimiter);
  const lines = [line(header)];
  for (const row of rows) {
    lines.push(line(row.map((c) => (typeof c === "string" ? guarded(c) : sheetCell(c, lang)))));
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

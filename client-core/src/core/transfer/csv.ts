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

/** A cell: text, a number, a day or an instant (written as the language reads it), or empty. */
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

/**
 * A day as the language writes it: `26.11.2026` (de) or `2026-11-26` (en). `iso` is an RFC 3339
 * instant or a `YYYY-MM-DD` day; an instant is taken as its UTC day (dates of records are days
 * stored at an instant of that day in UTC).
 */
export function sheetDay(iso: string, lang: SheetLanguage): string {
  const day = iso.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return iso;
  if (lang === "en") return day;
  const [y, m, d] = day.split("-");
  return `${d}.${m}.${y}`;
}

/** An instant as a local-free UTC date and time the spreadsheet reads: `26.11.2026 14:05`. */
export function sheetInstant(iso: string, lang: SheetLanguage): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const time = `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
  return `${sheetDay(t.toISOString(), lang)} ${time}`;
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

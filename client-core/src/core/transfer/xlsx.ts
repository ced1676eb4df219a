/**
 * The spreadsheet export as one XLSX workbook (issue 26): the tables of `spreadsheets.ts`, one
 * sheet per record kind, written by `write-excel-file` (a small, maintained writer on top of
 * fflate, which the ZIP export already uses). The app loads this module only when a person asks
 * for an XLSX file (a dynamic `import()`), so the writer is in no other chunk.
 *
 * Unlike a CSV, a workbook carries types: numbers are numbers and days are dates with a format
 * of the language (`26.11.2026`, `2026-11-26`), so a spreadsheet program in any locale reads
 * them; booleans and enums are words as in the CSV files, the header row is bold and stays in
 * view while scrolling.
 */
import writeXlsxFile, { type Sheet, type Cell as XlsxCell } from "write-excel-file/universal";
import { type Cell, type SheetLanguage, sheetCell } from "./csv.ts";
import type { RecordSet } from "./record-set.ts";
import { spreadsheetTables } from "./spreadsheets.ts";

const dayFormat: Readonly<Record<SheetLanguage, string>> = { en: "yyyy-mm-dd", de: "dd.mm.yyyy" };
const instantFormat: Readonly<Record<SheetLanguage, string>> = {
  en: "yyyy-mm-dd hh:mm",
  de: "dd.mm.yyyy hh:mm",
};

/**
 * One of our cells as a typed workbook cell; a day or time (wall clock, `wallClock`) as a date
 * that shows that wall clock (a workbook's dates have no zone).
 */
export function xlsxCell(cell: Cell, lang: SheetLanguage): XlsxCell {
  if (cell === null || cell === undefined || cell === "") return null;
  if (typeof cell === "number") return Number.isFinite(cell) ? { value: cell, type: Number } : null;
  if (typeof cell === "string") return { value: cell, type: String };
  if (typeof cell === "boolean") return { value: sheetCell(cell, lang), type: String };
  if ("day" in cell) {
    const day = new Date(`${cell.day.slice(0, 10)}T00:00:00Z`);
    return Number.isNaN(day.getTime())
      ? { value: cell.day, type: String }
      : { value: day, type: Date, format: dayFormat[lang] };
  }
  const t = new Date(`${cell.instant.slice(0, 19)}Z`);
  return Number.isNaN(t.getTime())
    ? { value: cell.instant, type: String }
    : { value: t, type: Date, format: instantFormat[lang] };
}

/** A column wide enough for its header and its longest value, within reason (in characters). */
const width = (
  header: string,
  rows: readonly (readonly Cell[])[],
  i: number,
  lang: SheetLanguage,
) =>
  Math.min(
    60,
    Math.max(
      8,
      header.length + 2,
      ...rows.slice(0, 200).map((r) => sheetCell(r[i], lang).length + 2),
    ),
  );

/** The workbook's bytes: one sheet per record kind, headers in `lang`. */
export async function spreadsheetXlsx(
  records: RecordSet,
  lang: SheetLanguage,
  timeZone = "UTC",
): Promise<Uint8Array> {
  const sheets: Sheet<never>[] = spreadsheetTables(records, lang, timeZone).map((t) => ({
    sheet: t.name,
    data: [
      t.header.map((h): XlsxCell => ({ value: h, type: String, fontWeight: "bold" })),
      ...t.rows.map((row) => row.map((c) => xlsxCell(c, lang))),
    ],
    columns: t.header.map((h, i) => ({ width: width(h, t.rows, i, lang) })),
    stickyRowsCount: 1,
  }));
  const blob = await writeXlsxFile(sheets).toBlob();
  return new Uint8Array(await blob.arrayBuffer());
}

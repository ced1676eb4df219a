/**
 * Spreadsheets from records (issue 26): one table per record kind, in the reader's language,
 * written as CSV files in one ZIP (`spreadsheetZip`) or as the sheets of one XLSX workbook
 * (`xlsx.ts`, loaded only when used).
 *
 * - Live records only: a deleted record a backup carries (the hive of a legal record) is the
 *   backup's trail; its name still appears beside its id in the live records that refer to it,
 *   marked as deleted.
 * - Every reference to a hive, an apiary or a queen is two columns: the id (to match rows across
 *   files) and, beside it, the name a person knows (the queen's year).
 * - Enums and booleans are words of the language, dates are days (entry times `created_at` and
 *   `updated_at` are day and time), both as the wall clock of the reader's time zone shows them
 *   (`wallClock`: a visit picked for the 26th in Berlin is the 26th in the sheet, not the 25th at
 *   23:00 UTC); numbers carry the language's decimal mark (`csvFile`).
 *   A number 0 is "not set" in our records (contract §2.1.5) and is an empty cell, so averages
 *   and sums in the spreadsheet count only what was measured.
 * - Photos are not in a sheet: a column counts them.
 *
 * Columns follow the registry (`entities.ts`): a column the registry gains appears at the end of
 * its sheet, under its label from `sheet-labels.ts` or its own name until it has one.
 */
import { strToU8, type Zippable, zipSync } from "fflate";
import { type EntityName, entities, entityNames, isEntityName } from "../entities.ts";
import { harvestWithdrawal } from "../withdrawal.ts";
import { type Cell, csvFile, type SheetLanguage, wallClock } from "./csv.ts";
import type { RecordRow, RecordSet } from "./record-set.ts";
import {
  columnHeaders,
  columnOrder,
  deletedMark,
  entityWords,
  enumOfColumn,
  enumWords,
  harvestWithdrawalHeader,
  photoCountHeader,
  refHeaders,
  sheetNames,
} from "./sheet-labels.ts";

export type { Cell, SheetLanguage } from "./csv.ts";
export type { ImportProblem, RecordRow, RecordSet } from "./record-set.ts";
/** The enum words of the sheets (the app holds its own equal: pwa sheet-words.test.ts). */
export { enumWords } from "./sheet-labels.ts";

/** One record kind as a table: what a CSV file or an XLSX sheet holds. */
export interface SheetTable {
  readonly entity: EntityName;
  /** The sheet's name in the language ("Durchsichten"). */
  readonly name: string;
  /** The CSV file's name in the ZIP ("inspections.csv"). */
  readonly file: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
}

interface Column {
  readonly header: string;
  readonly cell: (row: RecordRow) => Cell;
}

/** What a referenced record is called, by entity and id: deleted ones too, marked. */
type Names = ReadonlyMap<string, Cell>;
const nameKey = (entity: EntityName, id: string) => `${entity}\u0000${id}`;

function namesOf(records: RecordSet, lang: SheetLanguage): Names {
  const names = new Map<string, Cell>();
  const mark = (row: RecordRow, name: Cell): Cell =>
    row.deleted === true ? `${name ?? ""} (${deletedMark[lang]})` : name;
  for (const row of records.apiary ?? [])
    names.set(nameKey("apiary", row.id), mark(row, text(row.name)));
  for (const row of records.hive ?? [])
    names.set(nameKey("hive", row.id), mark(row, text(row.name)));
  for (const row of records.queen ?? []) {
    const year = typeof row.year === "number" && row.year > 0 ? row.year : null;
    names.set(nameKey("queen", row.id), mark(row, year));
  }
  return names;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** 0 and anything not a finite number are "not set": an empty cell. */
const number = (v: unknown): Cell =>
  typeof v === "number" && Number.isFinite(v) && v !== 0 ? v : null;

const instantColumns = new Set(["created_at", "updated_at"]);

function columnsOf(
  entity: EntityName,
  lang: SheetLanguage,
  names: Names,
  timeZone: string,
): Column[] {
  const spec = entities[entity];
  const headers = columnHeaders[entity];
  const order = [
    ...columnOrder[entity].filter((c) => c in spec.columns),
    ...Object.keys(spec.columns).filter((c) => !columnOrder[entity].includes(c)),
  ];
  const header = (column: string): string => headers[column]?.[lang] ?? column;
  const columns: Column[] = [{ header: header("id"), cell: (row) => row.id }];
  for (const column of order) {
    const c = spec.columns[column];
    if (c === undefined) continue;
    if (c.elementPrefix !== undefined) {
      // Photos: how many, never the data URLs.
      columns.push({
        header: photoCountHeader[lang],
        cell: (row) => {
          const v = row[column];
          return Array.isArray(v) ? v.length : typeof v === "string" && v !== "" ? 1 : 0;
        },
      });
      continue;
    }
    switch (c.type) {
      case "id": {
        const ref = c.ref;
        const refHeader = ref === undefined ? undefined : refHeaders[ref];
        if (ref === undefined || refHeader === undefined) {
          columns.push({ header: header(column), cell: (row) => text(row[column]) });
          break;
        }
        columns.push({ header: refHeader.id[lang], cell: (row) => text(row[column]) });
        columns.push({
          header: refHeader.name[lang],
          cell: (row) => names.get(nameKey(ref, text(row[column]))) ?? null,
        });
        break;
      }
      case "enum": {
        const words = enumWords[enumOfColumn[entity]?.[column] ?? ""];
        columns.push({
          header: header(column),
          cell: (row) => {
            const v = row[column];
            if (typeof v !== "number" || v === 0) return null;
            return words?.[v]?.[lang] ?? v;
          },
        });
        break;
      }
      case "bool":
        columns.push({
          header: header(column),
          cell: (row) => (typeof row[column] === "boolean" ? (row[column] as boolean) : null),
        });
        break;
      case "int":
      case "float":
        columns.push({ header: header(column), cell: (row) => number(row[column]) });
        break;
      case "timestamp": {
        const asInstant = instantColumns.has(column);
        columns.push({
          header: header(column),
          cell: (row) => {
            const v = text(row[column]);
            if (v === "") return null;
            const wall = wallClock(v, timeZone);
            return asInstant ? { instant: wall } : { day: wall.slice(0, 10) };
          },
        });
        break;
      }
      default:
        if (entity === "event" && column === "ref_entity") {
          // The kind of record an event is about, as a word ("Durchsicht").
          columns.push({
            header: header(column),
            cell: (row) => {
              const kind = text(row[column]);
              return isEntityName(kind) ? entityWords[kind][lang] : kind;
            },
          });
          break;
        }
        columns.push({ header: header(column), cell: (row) => text(row[column]) });
    }
  }
  return columns;
}

/** The first of these a kind has orders its rows (then the id); apiaries and hives by name. */
const orderColumns = ["date", "started_at", "introduced_at", "due_at", "created_at"];

function sortedRows(entity: EntityName, rows: readonly RecordRow[]): RecordRow[] {
  const by =
    entity === "apiary" || entity === "hive"
      ? "name"
      : orderColumns.find((c) => c in entities[entity].columns);
  const key = (row: RecordRow) => (by === undefined ? "" : text(row[by]));
  return [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return ka < kb ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

/**
 * The harvests' last column: a harvest dated inside a withdrawal period of its hive is marked
 * with the day that period ends (the one rule, `harvestWithdrawal`; derived, as everywhere).
 */
function withdrawalColumn(records: RecordSet, lang: SheetLanguage, timeZone: string): Column {
  const treatments = (records.treatment ?? [])
    .filter((t) => t.deleted !== true)
    .map((t) => ({
      hiveId: text(t.hive_id),
      date: text(t.date) || null,
      withdrawalUntil: text(t.withdrawal_until) || null,
    }));
  return {
    header: harvestWithdrawalHeader[lang],
    cell: (row) => {
      const covering = harvestWithdrawal(
        { hiveId: text(row.hive_id), date: text(row.date) || null },
        treatments,
      );
      const until = covering?.withdrawalUntil;
      return typeof until === "string" ? { day: wallClock(until, timeZone).slice(0, 10) } : null;
    },
  };
}

/** Every record kind as a table in `lang`, in the registry's order; a kind without records has its header only. */
export function spreadsheetTables(
  records: RecordSet,
  lang: SheetLanguage,
  timeZone = "UTC",
): SheetTable[] {
  const names = namesOf(records, lang);
  return entityNames.map((entity) => {
    const columns = columnsOf(entity, lang, names, timeZone);
    if (entity === "harvest") columns.push(withdrawalColumn(records, lang, timeZone));
    const live = (records[entity] ?? []).filter((row) => row.deleted !== true);
    return {
      entity,
      name: sheetNames[entity][lang],
      file: sheetNames[entity].file,
      header: columns.map((c) => c.header),
      rows: sortedRows(entity, live).map((row) => columns.map((c) => c.cell(row))),
    };
  });
}

/** The CSV files of the export: file name → text. */
export function spreadsheetCsvFiles(
  records: RecordSet,
  lang: SheetLanguage,
  timeZone = "UTC",
): { readonly file: string; readonly text: string }[] {
  return spreadsheetTables(records, lang, timeZone).map((t) => ({
    file: t.file,
    text: csvFile(t.header, t.rows, lang),
  }));
}

/**
 * A ZIP of one CSV file per record kind. `exportedAt` (RFC 3339) is every entry's time, so the
 * same records exported at the same time give the same bytes.
 */
export function spreadsheetZip(
  records: RecordSet,
  lang: SheetLanguage,
  exportedAt: string,
  timeZone = "UTC",
): Uint8Array {
  const mtime = new Date(exportedAt);
  const files: Zippable = {};
  for (const f of spreadsheetCsvFiles(records, lang, timeZone))
    files[f.file] = [strToU8(f.text), { mtime }];
  return zipSync(files, { level: 6 });
}

/**
 * The name of an exported file: `hivekeep-backup-2026-11-27.json`,
 * `hivekeep-spreadsheets-2026-11-27.zip`, `hivekeep-spreadsheets-2026-11-27.xlsx`; the day is
 * the export's UTC day.
 */
export function exportFileName(kind: "backup" | "zip" | "xlsx", exportedAt: string): string {
  const day = exportedAt.slice(0, 10);
  switch (kind) {
    case "backup":
      return `hivekeep-backup-${day}.json`;
    case "zip":
      return `hivekeep-spreadsheets-${day}.zip`;
    case "xlsx":
      return `hivekeep-spreadsheets-${day}.xlsx`;
  }
}

/**
 * Reads a spreadsheet of inspections saved as CSV (issue 26): one line per visit, columns found
 * by their header in English or German (inspection-headers.ts), cells as a person writes them
 * (sheet-values.ts). Separator `,` or `;` (or tab), detected from the header line (an Excel
 * `sep=;` first line is honoured); UTF-8 with or without a byte order mark; quoted cells as
 * RFC 4180 (papaparse).
 *
 * Apiaries and hives are found by name among the organization's live ones (`known`; trimmed,
 * spaces collapsed, case-insensitive; a hive within the line's apiary when the file has an
 * apiary column) or made: one new apiary per distinct name, one new hive per distinct name and
 * apiary, with the records `createHive` makes (the hive, its placement from its first
 * inspection's date, the CREATED event). Each inspection comes with its INSPECTION event, as
 * `createInspection` records one; its id is a UUID v5 of its hive and its values, and its
 * event's id one of its own id, so reading the same file again (its hives now found by name)
 * gives the same ids, which the import plan finds stored and leaves alone.
 *
 * Every bad cell is a problem with its line (1 = the header line; a line is where its row
 * starts), its column's header as written and why; a line without a hive or a date is one too.
 * A header nothing matches is not a problem: its filled cells are counted in `notCarried` under
 * the header as written, for the preview. The same line twice (same hive and values) is one
 * inspection, counted under "(same line twice)".
 */
import { EventType } from "@hivekeep/proto";
import { v5 as uuidv5 } from "uuid";
import { parseColumnValue } from "../column-value.ts";
import { columnSpec, entities } from "../entities.ts";
import { futureDateBreak } from "../happened.ts";
import { choiceNames, type SheetField, sheetField } from "./inspection-headers.ts";
import { listedProblems } from "./listed-problems.ts";
import type { ImportProblem, ReadFile, RecordRow } from "./record-set.ts";
import { type Line, parsedLines } from "./sheet-lines.ts";
import { eventOf, type KnownPlaces, placesOf, type SheetReadContext } from "./sheet-places.ts";
import {
  quotedCell,
  type SlashOrder,
  sheetBool,
  sheetChoice,
  sheetNumber,
  sheetTimestamp,
  slashOrderOf,
} from "./sheet-values.ts";

export type { KnownPlaces, SheetReadContext } from "./sheet-places.ts";

/** The namespace of the ids of imported inspections (UUID v5). */
export const inspectionIdNamespace = "6f1c2a0e-5b7d-4c3e-9a8f-2d4e6b8c0a1f";

/** One cell read as its inspection column: the value, or why not. */
function cellValue(
  field: Exclude<SheetField, "apiary" | "hive" | "time" | "date">,
  cell: string,
): { value: unknown } | { error: string } {
  const spec = entities.inspection.columns[field];
  if (spec === undefined) return { error: `${field} is not an inspection column` };
  let read: { value: unknown } | { error: string };
  switch (spec.type) {
    case "float":
    case "int":
      read = sheetNumber(cell);
      break;
    case "bool":
      read = sheetBool(cell);
      break;
    case "enum":
      read = sheetChoice(cell, choiceNames[field as "stores" | "temperament"]);
      break;
    default:
      read = { value: cell.trim() };
  }
  if ("error" in read) return read;
  const checked = parseColumnValue(spec, read.value, false);
  return "error" in checked ? { error: `${quotedCell(cell)} ${checked.error}` } : checked;
}

/** Why a name cannot be an apiary's or a hive's (too long, unstorable), or undefined. */
function nameBreak(name: string): string | undefined {
  const read = parseColumnValue(columnSpec(entities.hive, "name"), name.trim(), true);
  return "error" in read ? read.error : undefined;
}

/** Reads the text of a CSV file of inspections. */
export function readInspectionsCsv(
  text: string,
  known: KnownPlaces,
  ctx: SheetReadContext,
): ReadFile {
  const problems: ImportProblem[] = [];
  const notCarried: Record<string, number> = {};
  const done = (records: ReadFile["records"] = {}): ReadFile => ({
    format: "inspections-csv",
    records,
    problems: listedProblems(problems),
    notCarried,
  });
  const lines = parsedLines(text, problems);
  const header = lines[0];
  if (header === undefined) {
    problems.push({ line: 1, message: "the file is empty" });
    return done();
  }

  // The columns: each header's field; a field named twice is a problem.
  const columns = new Map<number, SheetField>();
  const headerOf = new Map<SheetField, string>();
  header.cells.forEach((written, i) => {
    const field = sheetField(written);
    if (field === undefined) return;
    const other = headerOf.get(field);
    if (other !== undefined) {
      problems.push({
        line: 1,
        column: written,
        message: `"${written}" and "${other}" are the same column; keep one`,
      });
      return;
    }
    columns.set(i, field);
    headerOf.set(field, written);
  });
  for (const field of ["hive", "date"] as const) {
    if (!headerOf.has(field)) {
      const names = field === "hive" ? "Hive, Volk or Beute" : "Date or Datum";
      problems.push({ line: 1, message: `no ${field} column (a header such as ${names})` });
    }
  }
  if (problems.length > 0) return done();

  const rows = lines.slice(1);
  for (const [i, written] of header.cells.entries()) {
    if (columns.has(i)) continue;
    const filled = rows.filter((r) => (r.cells[i] ?? "").trim() !== "").length;
    if (filled > 0) {
      const key = written.trim() === "" ? `(column ${i + 1} without a header)` : written.trim();
      notCarried[key] = (notCarried[key] ?? 0) + filled;
    }
  }
  const cellOf = (row: Line, field: SheetField): string => {
    for (const [i, f] of columns) if (f === field) return row.cells[i] ?? "";
    return "";
  };
  const slashOrders = new Set(rows.map((r) => slashOrderOf(cellOf(r, "date"))));
  const slashOrder: SlashOrder = slashOrders.has("mdy") && !slashOrders.has("dmy") ? "mdy" : "dmy";

  const places = placesOf(known, ctx, headerOf.has("apiary"));
  const inspections: RecordRow[] = [];
  const events: RecordRow[] = [];
  const seen = new Set<string>();
  const firstDate = new Map<string, string>();
  for (const row of rows) {
    const problem = (field: SheetField | undefined, message: string) =>
      problems.push({
        line: row.line,
        ...(field ? { column: headerOf.get(field) ?? field } : {}),
        message,
      });
    const before = problems.length;
    if (row.cells.slice(header.cells.length).some((c) => c.trim() !== "")) {
      problem(
        undefined,
        `the line has ${row.cells.length} cells, the header ${header.cells.length}`,
      );
    }
    const values: Record<string, unknown> = {};
    for (const [i, field] of columns) {
      const cell = row.cells[i] ?? "";
      if (cell.trim() === "" || ["apiary", "hive", "time", "date"].includes(field)) continue;
      const read = cellValue(field as Parameters<typeof cellValue>[0], cell);
      if ("error" in read) problem(field, read.error);
      else values[field] = read.value;
    }
    const dateCell = cellOf(row, "date").trim();
    const timeCell = cellOf(row, "time").trim();
    let date: string | undefined;
    if (dateCell === "") {
      problem("date", "no date: every line needs the day of its inspection");
    } else {
      const read = sheetTimestamp(
        timeCell === "" ? dateCell : `${dateCell} ${timeCell}`,
        slashOrder,
        ctx.timeZone,
      );
      if ("error" in read) problem("date", read.error);
      else if (futureDateBreak("date", read.value, ctx.now) !== undefined) {
        problem("date", `${quotedCell(dateCell)} is in the future`);
      } else date = read.value;
    }
    const hiveName = cellOf(row, "hive").trim();
    if (hiveName === "") {
      problem("hive", "no hive: every line needs the hive it is about");
      continue;
    }
    const apiaryName = cellOf(row, "apiary");
    const badName = (
      [
        ["apiary", apiaryName],
        ["hive", hiveName],
      ] as const
    ).find(([, name]) => name.trim() !== "" && nameBreak(name) !== undefined);
    if (badName) {
      problem(badName[0], `${quotedCell(badName[1])} ${nameBreak(badName[1])}`);
      continue;
    }
    const place = places.hive(apiaryName, hiveName);
    if ("error" in place) {
      problem(place.field, place.error);
      continue;
    }
    if (problems.length > before || date === undefined) continue;
    const earliest = firstDate.get(place.id);
    if (earliest === undefined || date < earliest) firstDate.set(place.id, date);
    const content = JSON.stringify([place.id, date, Object.entries(values).sort()]);
    const id = uuidv5(content, inspectionIdNamespace);
    if (seen.has(id)) {
      notCarried["(same line twice)"] = (notCarried["(same line twice)"] ?? 0) + 1;
      continue;
    }
    seen.add(id);
    const createdAt = ctx.now.toISOString();
    const frozen = places.asOf(place, date);
    inspections.push({
      id,
      hive_id: frozen.id,
      apiary_id: frozen.apiaryId,
      queen_id: frozen.queenId ?? "",
      date,
      ...values,
      created_at: createdAt,
    });
    const eventId = uuidv5(`event:${id}`, inspectionIdNamespace);
    events.push(
      eventOf(ctx, eventId, EventType.INSPECTION, date, frozen, "inspection", id, "Inspection"),
    );
  }
  const made = places.made(firstDate);
  return done({
    ...(made.apiaries.length > 0 ? { apiary: made.apiaries } : {}),
    ...(made.hives.length > 0 ? { hive: made.hives, placement: made.placements } : {}),
    inspection: inspections,
    event: [...made.events, ...events],
  });
}

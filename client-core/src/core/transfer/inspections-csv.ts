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
import { EventType, HiveStatus } from "@hivekeep/proto";
import Papa from "papaparse";
import { v5 as uuidv5 } from "uuid";
import { parseColumnValue } from "../column-value.ts";
import { eventTitle } from "../commands/event.ts";
import { columnSpec, entities } from "../entities.ts";
import { futureDateBreak } from "../happened.ts";
import { choiceNames, type SheetField, sheetField } from "./inspection-headers.ts";
import { listedProblems } from "./listed-problems.ts";
import type { ImportProblem, ReadFile, RecordRow } from "./record-set.ts";
import {
  quotedCell,
  type SlashOrder,
  sheetBool,
  sheetChoice,
  sheetNumber,
  sheetTimestamp,
  slashOrderOf,
} from "./sheet-values.ts";

/** The organization's live apiaries and hives, which lines name. */
export interface KnownPlaces {
  readonly apiaries: readonly { readonly id: string; readonly name: string }[];
  readonly hives: readonly {
    readonly id: string;
    readonly name: string;
    readonly apiary_id: string;
  }[];
}

export interface SheetReadContext {
  /** When the import happens: created_at of new records; a later date is refused. */
  readonly now: Date;
  /** A fresh id (UUID v7) for a new apiary, hive, placement or event. */
  newId(): string;
  /** The author of the events the file makes (a plan may set it); "" when left out. */
  readonly authorId?: string;
  /** The new apiary's name when the file names none and the organization has none. */
  readonly newApiaryName?: string;
}

/** The namespace of the ids of imported inspections (UUID v5). */
export const inspectionIdNamespace = "6f1c2a0e-5b7d-4c3e-9a8f-2d4e6b8c0a1f";

type Cells = readonly string[];
interface Line {
  readonly cells: Cells;
  readonly line: number;
}

/** The file's rows with the line each starts on, and the problems of reading them. */
function parsedLines(text: string, problems: ImportProblem[]): Line[] {
  let body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  // Excel's "sep=;" line names the separator; the header is line 1 after it, as Excel shows it.
  const sep = /^sep=(.)\r?\n/i.exec(body);
  let delimiter: string | undefined = sep?.[1];
  if (sep) body = body.slice(sep[0].length);
  delimiter ??= detectedDelimiter(body);
  const lines: Line[] = [];
  let cursor = 0;
  let line = 1;
  Papa.parse<string[]>(body, {
    delimiter,
    step: (result) => {
      const start = cursor;
      cursor = result.meta.cursor;
      const at = line;
      const linebreak = result.meta.linebreak || "\n";
      line += body.slice(start, cursor).split(linebreak).length - 1;
      for (const e of result.errors) {
        problems.push({ line: at, message: `the line cannot be read: ${e.message}` });
      }
      const cells = result.data;
      if (cells.some((c) => c.trim() !== "")) lines.push({ cells, line: at });
    },
  });
  return lines;
}

/** The separator that splits the header line most often, outside quotes: `;`, tab, else `,`. */
function detectedDelimiter(body: string): string {
  const counts = new Map<string, number>([
    [",", 0],
    [";", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  for (const ch of body) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ",";
  for (const [d, n] of counts) if (n > (counts.get(best) ?? 0)) best = d;
  return best;
}

/** "  Volk  3 " and "volk 3" are one name. */
const nameKey = (name: string): string => name.trim().replace(/\s+/g, " ").toLocaleLowerCase();

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

interface Place {
  readonly id: string;
  readonly apiaryId: string;
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
    inspections.push({
      id,
      hive_id: place.id,
      apiary_id: place.apiaryId,
      date,
      ...values,
      created_at: createdAt,
    });
    const eventId = uuidv5(`event:${id}`, inspectionIdNamespace);
    events.push(
      eventOf(ctx, eventId, EventType.INSPECTION, date, place, "inspection", id, "Inspection"),
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

function eventOf(
  ctx: SheetReadContext,
  id: string,
  type: number,
  date: string,
  place: Place,
  refEntity: string,
  refId: string,
  title: string,
): RecordRow {
  return {
    id,
    type,
    date,
    apiary_id: place.apiaryId,
    hive_id: place.id,
    queen_id: "",
    ref_entity: refEntity,
    ref_id: refId,
    amount_kg: 0,
    detail_json: "",
    author_id: ctx.authorId ?? "",
    title: eventTitle(title),
    created_at: ctx.now.toISOString(),
  };
}

/**
 * Finds apiaries and hives by name, and makes the ones the file names that do not exist.
 * @param byApiary the file has an apiary column: a hive is looked up within its line's apiary.
 */
function placesOf(known: KnownPlaces, ctx: SheetReadContext, byApiary: boolean) {
  const newApiaries = new Map<string, RecordRow>();
  const newHives = new Map<string, { row: RecordRow; apiaryId: string }>();
  const apiaryName = new Map(known.apiaries.map((a) => [a.id, a.name]));
  const now = ctx.now.toISOString();

  const apiary = (name: string): { id: string } | { error: string } => {
    const key = nameKey(name);
    const found = known.apiaries.filter((a) => nameKey(a.name) === key);
    if (found.length > 1)
      return { error: `${found.length} apiaries are named ${quotedCell(name)}` };
    if (found[0]) return found[0];
    let made = newApiaries.get(key);
    if (made === undefined) {
      made = {
        id: ctx.newId(),
        name: name.trim(),
        address: "",
        lat: 0,
        lng: 0,
        created_at: now,
        updated_at: now,
      };
      newApiaries.set(key, made);
    }
    return made;
  };

  /** The apiary a new hive of a file without apiaries goes to. */
  const defaultApiary = (): { id: string } | undefined => {
    if (known.apiaries.length === 1) return known.apiaries[0];
    if (known.apiaries.length === 0) {
      const made = apiary(ctx.newApiaryName ?? "Imported");
      return "id" in made ? made : undefined;
    }
    return undefined;
  };

  const newHive = (apiaryId: string, name: string): Place => {
    const key = `${apiaryId}/${nameKey(name)}`;
    let made = newHives.get(key);
    if (made === undefined) {
      const row = {
        id: ctx.newId(),
        apiary_id: apiaryId,
        name: name.trim(),
        type: 0,
        status: HiveStatus.ACTIVE,
        boxes: 0,
        colony_origin: "",
        note: "",
        qr_code: "",
        photo: "",
        created_at: now,
        updated_at: now,
      };
      made = { row, apiaryId };
      newHives.set(key, made);
    }
    return { id: made.row.id, apiaryId };
  };

  const hive = (apiaryCell: string, name: string): Place | { field: SheetField; error: string } => {
    const key = nameKey(name);
    if (byApiary && apiaryCell.trim() !== "") {
      const at = apiary(apiaryCell);
      if ("error" in at) return { field: "apiary", error: at.error };
      const found = known.hives.filter((h) => h.apiary_id === at.id && nameKey(h.name) === key);
      if (found.length > 1) {
        return {
          field: "hive",
          error: `${found.length} hives at ${quotedCell(apiaryCell)} are named ${quotedCell(name)}`,
        };
      }
      return found[0] ? { id: found[0].id, apiaryId: at.id } : newHive(at.id, name);
    }
    const found = known.hives.filter((h) => nameKey(h.name) === key);
    if (found.length > 1) {
      const names = found.map((h) => `"${apiaryName.get(h.apiary_id) ?? h.apiary_id}"`).join(", ");
      return {
        field: "hive",
        error: `hives named ${quotedCell(name)} stand at ${names}: name the apiary (an apiary or Stand column)`,
      };
    }
    if (found[0]) return { id: found[0].id, apiaryId: found[0].apiary_id };
    const at = defaultApiary();
    if (at === undefined) {
      return {
        field: "hive",
        error: `there is no hive ${quotedCell(name)}: to make it, name its apiary (an apiary or Stand column)`,
      };
    }
    return newHive(at.id, name);
  };

  /** The records of the new apiaries and hives; a hive stands from its first inspection on. */
  const made = (firstDate: ReadonlyMap<string, string>) => {
    const hives = [...newHives.values()];
    const placements: RecordRow[] = [];
    const events: RecordRow[] = [];
    for (const { row, apiaryId } of hives) {
      const since = firstDate.get(row.id) ?? now;
      const place = { id: row.id, apiaryId };
      placements.push({
        id: ctx.newId(),
        hive_id: row.id,
        apiary_id: apiaryId,
        started_at: since,
        ended_at: null,
      });
      events.push(
        eventOf(
          ctx,
          ctx.newId(),
          EventType.CREATED,
          since,
          place,
          "hive",
          row.id,
          `Hive ${row.name} created`,
        ),
      );
    }
    return {
      apiaries: [...newApiaries.values()],
      hives: hives.map((h) => h.row),
      placements,
      events,
    };
  };

  return { hive, made };
}

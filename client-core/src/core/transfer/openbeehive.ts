/**
 * Reads an OpenBeehive backup (issue 26): the JSON its "Export → JSON" writes,
 * `{"openbeehive_export": true, "schema_version": "0.1.0", "exported_at": …, "data": {<table>: [row, …]}}`,
 * one table per entity with the entity's own name (apiary, hive, queen, placement, inspection,
 * harvest, treatment, task, event), snake_case columns, booleans 0/1, enum numbers equal to ours
 * (docs/decisions.md, "Reading other programs' files").
 *
 * The rows become the registry's rows (record-set.ts), ids kept, every value checked with the
 * registry's column rules (the plan checks references and the organization). What has no column
 * of ours: the inspection's honey_kg, fed_kg, frames_added, frames_removed, drone_frame_cut and
 * youngest_larva become labelled lines of its note (a beekeeper needs them on the stock card);
 * the rest (apiary/treatment/task note, task recurrence and assigned_to, unknown columns and
 * tables) is counted in `notCarried`. `organization_id`, `scope_id` and the internal
 * `field_hlc`, `deleted`, `photo_keys` are ignored. OpenBeehive inspections name no apiary or
 * queen: they get the apiary the hive stood at and the queen reigning on their date, from the
 * backup's placements and queens, as an inspection entered here would.
 *
 * Pure: no clock, no ids made; a problem never throws, it is listed with its record and path.
 */
import { parseColumnValue } from "../column-value.ts";
import { type ColumnSpec, type EntityName, entities, entityNames } from "../entities.ts";
import { placementAt } from "../placement-at.ts";
import { queenAt } from "../queen-at.ts";
import { isoTimestamp } from "./foreign-time.ts";
import { listedProblems } from "./listed-problems.ts";
import type { ImportProblem, ReadFile, RecordRow } from "./record-set.ts";

/** The schema versions (major) this reader knows. */
export const openBeehiveMajors = [0] as const;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a parsed JSON document claims to be an OpenBeehive backup (format detection). */
export function isOpenBeehive(json: unknown): boolean {
  return isObject(json) && json.openbeehive_export === true;
}

/** Their column name where it differs from ours. */
const renamed: Partial<Record<EntityName, Readonly<Record<string, string>>>> = {
  placement: { start_at: "started_at", end_at: "ended_at" },
  event: { detail: "detail_json" },
};

/** Their columns no reader needs: the tenant, the sync machinery. */
const ignored = new Set([
  "id",
  "organization_id",
  "scope_id",
  "field_hlc",
  "deleted",
  "photo_keys",
]);

/** Inspection columns of theirs kept as lines of the note, in this order, with their label. */
const noteLines: readonly { column: string; label: string; unit?: string; bool?: true }[] = [
  { column: "honey_kg", label: "Honey taken", unit: "kg" },
  { column: "fed_kg", label: "Fed", unit: "kg" },
  { column: "frames_added", label: "Frames added" },
  { column: "frames_removed", label: "Frames removed" },
  { column: "drone_frame_cut", label: "Drone frame cut", bool: true },
  { column: "youngest_larva", label: "Youngest larva", unit: "days old" },
];
const noteColumns = new Set(noteLines.map((l) => l.column));

interface Reading {
  readonly problems: ImportProblem[];
  readonly notCarried: Record<string, number>;
  /** Where their days and zone-less times are read (foreign-time.ts). */
  readonly timeZone: string;
}

const problem = (r: Reading, p: ImportProblem): void => {
  r.problems.push(p);
};

/** A value that says "nothing": SQLite's NULL, an absent key. */
const isUnset = (v: unknown): boolean => v === null || v === undefined;

/**
 * Their value of one of our columns as the registry's type, before the registry's rules; an
 * error when the type is wrong. `undefined` = the row does not carry the column.
 */
function converted(
  spec: ColumnSpec,
  v: unknown,
  timeZone: string,
): { value: unknown } | { error: string } {
  switch (spec.type) {
    case "bool":
      if (isUnset(v)) return { value: undefined };
      if (v === 0 || v === 1) return { value: v === 1 };
      if (typeof v === "boolean") return { value: v };
      return { error: "must be 0 or 1" };
    case "timestamp": {
      if (isUnset(v) || v === "") return { value: null };
      if (typeof v !== "string") return { error: "must be a date string" };
      return isoTimestamp(v, timeZone);
    }
    case "id":
      return { value: isUnset(v) ? "" : v };
    case "text":
      if (isUnset(v)) return { value: undefined };
      // SQLite keeps what it was given: a count typed into a text column is a number.
      if (typeof v === "number" && Number.isFinite(v)) return { value: String(v) };
      // OpenBeehive keeps event details as JSON text; an object is the same detail.
      if (isObject(v)) return { value: JSON.stringify(v) };
      return { value: v };
    default:
      return { value: isUnset(v) ? undefined : v };
  }
}

const count = (r: Reading, key: string, by = 1): void => {
  r.notCarried[key] = (r.notCarried[key] ?? 0) + by;
};

/** Whether a value not carried is worth mentioning (not NULL, "", 0 or false). */
const hasValue = (v: unknown): boolean => !isUnset(v) && v !== "" && v !== 0 && v !== false;

function noteOf(row: Json, note: unknown): string | undefined {
  const lines: string[] = [];
  for (const l of noteLines) {
    const v = row[l.column];
    if (!hasValue(v)) continue;
    if (l.bool) lines.push(`${l.label}: ${v === 1 || v === true ? "yes" : String(v)}`);
    else lines.push(`${l.label}: ${String(v)}${l.unit ? ` ${l.unit}` : ""}`);
  }
  if (lines.length === 0) return undefined;
  const before = typeof note === "string" && note.trim() !== "" ? `${note}\n\n` : "";
  return `${before}${lines.join("\n")}`;
}

/** One row of their table as our record; undefined (with problems) when it cannot be one. */
function readRow(
  r: Reading,
  entity: EntityName,
  raw: unknown,
  path: string,
): RecordRow | undefined {
  if (!isObject(raw)) {
    problem(r, { entity, path, message: `${entity} row must be an object` });
    return undefined;
  }
  const id = raw.id;
  if (typeof id !== "string" || id === "") {
    problem(r, { entity, path: `${path}.id`, message: `${entity} row has no id` });
    return undefined;
  }
  const spec = entities[entity];
  const names = renamed[entity] ?? {};
  /** Our columns whose value was refused: a missing required one is named once, by that. */
  const refused = new Set<string>();
  const row: Record<string, unknown> = { id };
  const idCheck = parseColumnValue({ type: "id" }, id, true);
  if ("error" in idCheck) {
    problem(r, { entity, id, path: `${path}.id`, message: `id ${idCheck.error}` });
  }
  for (const [theirs, v] of Object.entries(raw)) {
    if (ignored.has(theirs)) continue;
    const ours = names[theirs] ?? theirs;
    const column = spec.columns[ours];
    if (entity === "inspection" && noteColumns.has(theirs)) continue;
    if (column === undefined || column.type === "orset") {
      if (hasValue(v)) count(r, `${entity}.${theirs}`);
      continue;
    }
    const here = `${path}.${theirs}`;
    const typed = converted(column, v, r.timeZone);
    if ("error" in typed) {
      // A date's error quotes the value ("…" is not a date); the others are phrases.
      const joint = column.type === "timestamp" ? ": " : " ";
      problem(r, { entity, id, path: here, message: `${theirs}${joint}${typed.error}` });
      refused.add(ours);
      continue;
    }
    if (typed.value === undefined) continue;
    const checked = parseColumnValue(column, typed.value, spec.required.includes(ours));
    if ("error" in checked) {
      problem(r, { entity, id, path: here, message: `${theirs} ${checked.error}` });
      refused.add(ours);
      continue;
    }
    row[ours] = checked.value;
  }
  if (entity === "inspection") {
    const note = noteOf(raw, row.note);
    if (note !== undefined) row.note = note;
  }
  for (const required of spec.required) {
    if (row[required] === undefined && !refused.has(required)) {
      problem(r, { entity, id, path, message: `${entity} ${id} has no ${required}` });
    }
  }
  return row as RecordRow;
}

/** Inspections name no apiary or queen: those of the hive as of their date, from the backup. */
function frozen(
  inspections: readonly RecordRow[],
  hives: readonly RecordRow[],
  placements: readonly RecordRow[],
  queens: readonly RecordRow[],
): RecordRow[] {
  const byHive = <T extends RecordRow>(rows: readonly T[]) => {
    const map = new Map<string, { id: string; values: T }[]>();
    for (const row of rows) {
      const hive = String(row.hive_id ?? "");
      const list = map.get(hive);
      if (list) list.push({ id: row.id, values: row });
      else map.set(hive, [{ id: row.id, values: row }]);
    }
    return map;
  };
  const hiveApiary = new Map(hives.map((h) => [h.id, String(h.apiary_id ?? "")]));
  const placementsOf = byHive(placements);
  const queensOf = byHive(queens);
  return inspections.map((i) => {
    const hive = String(i.hive_id ?? "");
    const date = typeof i.date === "string" ? i.date : "";
    const placement = placementAt(placementsOf.get(hive) ?? [], date);
    const queen = queenAt(queensOf.get(hive) ?? [], date);
    return {
      apiary_id: String(placement?.values.apiary_id ?? "") || (hiveApiary.get(hive) ?? ""),
      queen_id: queen?.id ?? "",
      ...i,
    };
  });
}

const empty = (problems: ImportProblem[]): ReadFile => ({
  format: "openbeehive",
  records: {},
  problems,
  notCarried: {},
});

/** Reads the text of an OpenBeehive JSON backup. */
export function readOpenBeehive(text: string, timeZone = "UTC"): ReadFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return empty([{ path: "$", message: `not JSON: ${(e as Error).message}` }]);
  }
  if (!isOpenBeehive(doc)) {
    return empty([
      { path: "$", message: 'not an OpenBeehive backup (no "openbeehive_export": true)' },
    ]);
  }
  const envelope = doc as Json;
  const version = envelope.schema_version;
  const major = typeof version === "string" ? /^(\d+)\.\d+(\.\d+)?$/.exec(version)?.[1] : undefined;
  if (major === undefined) {
    return empty([
      { path: "$.schema_version", message: "schema_version must be a version like 0.1.0" },
    ]);
  }
  if (!(openBeehiveMajors as readonly number[]).includes(Number(major))) {
    return empty([
      {
        path: "$.schema_version",
        message: `schema_version ${version} is not supported (this reader knows ${openBeehiveMajors.map((m) => `${m}.x`).join(", ")})`,
      },
    ]);
  }
  const data = envelope.data;
  if (!isObject(data)) return empty([{ path: "$.data", message: "data must be an object" }]);

  const r: Reading = { problems: [], notCarried: {}, timeZone };
  const records: Partial<Record<EntityName, RecordRow[]>> = {};
  for (const [table, rows] of Object.entries(data)) {
    const entity = entityNames.find((e) => e === table);
    if (entity === undefined) {
      if (Array.isArray(rows) && rows.length > 0) count(r, table, rows.length);
      continue;
    }
    const path = `$.data.${table}`;
    if (!Array.isArray(rows)) {
      problem(r, { entity, path, message: `${table} must be an array of rows` });
      continue;
    }
    const seen = new Set<string>();
    const read: RecordRow[] = [];
    rows.forEach((raw, i) => {
      const row = readRow(r, entity, raw, `${path}[${i}]`);
      if (row === undefined) return;
      if (seen.has(row.id)) {
        problem(r, {
          entity,
          id: row.id,
          path: `${path}[${i}]`,
          message: `${entity} ${row.id} appears twice`,
        });
        return;
      }
      seen.add(row.id);
      read.push(row);
    });
    records[entity] = read;
  }
  if (records.inspection) {
    records.inspection = frozen(
      records.inspection,
      records.hive ?? [],
      records.placement ?? [],
      records.queen ?? [],
    );
  }
  return {
    format: "openbeehive",
    records,
    problems: listedProblems(r.problems),
    notCarried: r.notCarried,
  };
}

/**
 * Records on their way in or out of an organization (issue 26): what every reader of a file
 * (the Hivekeep backup, an OpenBeehive backup, a spreadsheet of inspections) produces and what
 * the one import plan (`plan.ts`) and every writer (backup JSON, spreadsheets, the treatment
 * register) consume.
 *
 * A row is the record's columns as the entity registry names them (snake_case, `entities.ts`),
 * with the registry's value types: text, finite numbers, booleans (true/false, never 0/1),
 * enum numbers, ids ("" = none) and timestamps as RFC 3339 strings in UTC ("" or absent = unset).
 * A column the row does not carry is absent. `photo_keys` is a plain array of data URLs.
 */
import type { EntityName } from "../entities.ts";

export interface RecordRow {
  readonly id: string;
  /**
   * The record was deleted. A backup carries a deleted record only where a live one refers to
   * it (the inspections of a deleted hive are legal records); an import writes it and
   * tombstones it at once.
   */
  readonly deleted?: boolean;
  readonly [column: string]: unknown;
}

/** Records per entity, in any order; `entityNames` is the order an import writes them in. */
export type RecordSet = { readonly [E in EntityName]?: readonly RecordRow[] };

/**
 * Where a problem of a file lies, as its reader can say it: a spreadsheet line (1 = the header
 * line) and column header, or a record of a JSON file (entity and id, or a JSON path).
 */
export interface ProblemPlace {
  readonly line?: number;
  readonly column?: string;
  readonly entity?: EntityName;
  readonly id?: string;
  readonly path?: string;
}

/** One thing wrong with a file; a file with any problem writes nothing. */
export interface ImportProblem extends ProblemPlace {
  /** What is wrong, in English, for a person ("date 2026-13-01 is not a date"). */
  readonly message: string;
}

/** What a reader made of a file: the records, and what it could not carry over. */
export interface ReadFile {
  readonly format: "hivekeep" | "openbeehive" | "inspections-csv";
  readonly records: RecordSet;
  readonly problems: readonly ImportProblem[];
  /**
   * Values of the file no column of ours holds (e.g. an OpenBeehive task's `recurrence`), per
   * "<table>.<column>", with how many rows had one; shown in the preview, never silently lost.
   */
  readonly notCarried: Readonly<Record<string, number>>;
}

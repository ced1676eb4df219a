/**
 * The Hivekeep backup (issue 26): one JSON file with a versioned envelope holding every live
 * record of an organization, ids and times kept, plus the deleted records live ones refer to
 * (transitively) and the treatment register's trail (deleted treatments and their tombstoned
 * TREATMENT events), each with `"deleted": true`:
 *
 * ```json
 * {"format":"hivekeep-backup","version":1,"exportedAt":"2026-…Z",
 *  "organization":{"id":"…","name":"…"},
 *  "records":{"apiary":[{"id":"…","name":"Home",…}],"hive":[…],…,"event":[…]}}
 * ```
 *
 * Records are `RecordRow`s (record-set.ts): the registry's snake_case columns, `photo_keys` as a
 * plain array of data URLs, an unset timestamp left out. Columns come from the registry, so a
 * column added there travels by itself. The writer yields the file as text chunks from an async
 * source of pages, so a large organization is never one string in memory; `readBackup` is the
 * strict reader every import of a backup starts with.
 */
import { rowKey } from "../change.ts";
import { isEntityId } from "../column-value.ts";
import { DomainError } from "../domain-error.ts";
import { type EntityName, entities, entityNames, isEntityName, refColumns } from "../entities.ts";
import type { Values } from "../merge.ts";
import { type OrSetState, orSetValues } from "../or-set.ts";
import { recordPayload } from "./plan.ts";
import type { ImportProblem, ReadFile, RecordRow, RecordSet } from "./record-set.ts";

export const backupFormat = "hivekeep-backup";
export const backupVersion = 1;

/** A stored row as the replicas keep it (`StoredRow` of ops/replica-store.ts). */
export interface StoredRecord {
  readonly id: string;
  readonly values: Values;
  readonly deleted: boolean;
}

/**
 * A stored row as a record of a file: every registry column it holds, in the registry's order;
 * an OR-set as its values, a null timestamp left out; `deleted: true` for a tombstone.
 */
export function recordOf(entity: EntityName, row: StoredRecord): RecordRow {
  const out: Record<string, unknown> = { id: row.id };
  for (const [column, spec] of Object.entries(entities[entity].columns)) {
    const value = row.values[column];
    if (value === undefined || value === null) continue;
    out[column] = spec.type === "orset" ? orSetValues(value as OrSetState) : value;
  }
  if (row.deleted) out.deleted = true;
  return out as RecordRow;
}

/** Where the writer reads an organization's records from. */
export interface BackupSource {
  readonly organization: { readonly id: string; readonly name: string };
  /** RFC 3339. */
  readonly exportedAt: string;
  /**
   * The records of an entity to carry, in pages of any size: every live one (of personal tasks
   * only the exporter's own) and the register's trail. Read twice: once for the references,
   * once to write.
   */
  pages(entity: EntityName): AsyncIterable<readonly RecordRow[]>;
  /** The records of these ids, deleted ones included; an id the organization lacks is left out. */
  byIds(entity: EntityName, ids: readonly string[]): Promise<readonly RecordRow[]>;
}

/**
 * The backup file as text chunks (one per record, plus the envelope's): concatenated, the file.
 * First pass: which records are carried and which ids they refer to; the referred ones that are
 * not carried (deleted records) are read by id, and whatever those refer to, until nothing is
 * missing. Second pass: the file, entity by entity, each entity's referred records after its own.
 * The two passes are no snapshot: the second writes only what the first found, and a record
 * that came to refer to one the file lacks in between fails the export (before its last chunk),
 * so a file that is complete always restores.
 */
export async function* writeBackup(source: BackupSource): AsyncGenerator<string> {
  const carried = new Map<EntityName, Set<string>>(entityNames.map((e) => [e, new Set()]));
  const wanted = new Map<EntityName, Set<string>>(entityNames.map((e) => [e, new Set()]));
  const noteRefs = (entity: EntityName, row: RecordRow) => {
    for (const [column, target] of refColumns(entities[entity])) {
      const value = row[column];
      if (typeof value === "string" && value !== "") wanted.get(target)?.add(value);
    }
  };
  for (const entity of entityNames) {
    for await (const page of source.pages(entity)) {
      for (const row of page) {
        carried.get(entity)?.add(row.id);
        noteRefs(entity, row);
      }
    }
  }
  const referred = new Map<EntityName, RecordRow[]>(entityNames.map((e) => [e, []]));
  const asked = new Map<EntityName, Set<string>>(entityNames.map((e) => [e, new Set()]));
  for (;;) {
    let found = 0;
    for (const entity of entityNames) {
      const have = carried.get(entity) ?? new Set();
      const done = asked.get(entity) ?? new Set();
      const missing = [...(wanted.get(entity) ?? [])].filter(
        (id) => !have.has(id) && !done.has(id),
      );
      // An id found nowhere is not asked for again.
      for (const id of missing) done.add(id);
      if (missing.length === 0) continue;
      for (const row of await source.byIds(entity, missing)) {
        referred.get(entity)?.push(row);
        have.add(row.id);
        noteRefs(entity, row);
        found++;
      }
    }
    if (found === 0) break;
  }

  const envelope = {
    format: backupFormat,
    version: backupVersion,
    exportedAt: source.exportedAt,
    organization: { id: source.organization.id, name: source.organization.name },
  };
  yield `${JSON.stringify(envelope).slice(0, -1)},"records":{`;
  // The second pass writes exactly the records the first one found (whose references it
  // resolved): a record created meanwhile waits for the next export, and one the pages skipped
  // (a page boundary moved by a write meanwhile) is read by id.
  const written = new Map<EntityName, Set<string>>(entityNames.map((e) => [e, new Set()]));
  const dangling: string[] = [];
  for (const [i, entity] of entityNames.entries()) {
    yield `${i === 0 ? "" : ","}${JSON.stringify(entity)}:[`;
    const have = carried.get(entity) ?? new Set();
    const done = written.get(entity) ?? new Set();
    let first = true;
    const write = (row: RecordRow): string | undefined => {
      if (done.has(row.id) || !have.has(row.id)) return undefined;
      done.add(row.id);
      for (const [column, target] of refColumns(entities[entity])) {
        const value = row[column];
        if (typeof value !== "string" || value === "" || carried.get(target)?.has(value)) continue;
        // One the first pass looked for and found nowhere stays as it is (the import names it).
        if (!asked.get(target)?.has(value)) {
          dangling.push(`${entity} ${row.id} refers to ${target} ${value}`);
        }
      }
      const text = `${first ? "" : ","}\n${JSON.stringify(row)}`;
      first = false;
      return text;
    };
    for await (const page of source.pages(entity)) {
      for (const row of page) {
        const text = write(row);
        if (text !== undefined) yield text;
      }
    }
    const rest = [...(referred.get(entity) ?? [])];
    const inRest = new Set(rest.map((r) => r.id));
    const skipped = [...have].filter((id) => !done.has(id) && !inRest.has(id));
    if (skipped.length > 0) rest.push(...(await source.byIds(entity, skipped)));
    for (const row of rest) {
      const text = write(row);
      if (text !== undefined) yield text;
    }
    yield "]";
  }
  if (dangling.length > 0) {
    // A record changed meanwhile to refer to one the file lacks: the file would not restore.
    throw new DomainError(
      "precondition",
      `the organization changed while it was exported (${dangling[0]}, which is not in the file): export again`,
    );
  }
  yield "}}\n";
}

/** The most problems a reader lists; the rest are counted in one last problem. */
export const maxProblems = 1000;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const envelopeKeys = new Set(["format", "version", "exportedAt", "organization", "records"]);

/**
 * Reads a backup file strictly: a wrong format or version, a truncated file, an unknown entity or
 * column, a value of the wrong type or outside its column's rules, a duplicate id: each a problem
 * naming the entity, the id and the JSON path. Records come back only when there is no problem.
 */
export function readBackup(text: string): ReadFile {
  const problems: ImportProblem[] = [];
  let dropped = 0;
  const add = (p: ImportProblem) => {
    if (problems.length < maxProblems) problems.push(p);
    else dropped++;
  };
  const result = (records: RecordSet = {}): ReadFile => {
    if (dropped > 0) problems.push({ message: `and ${dropped} more problems` });
    return {
      format: "hivekeep",
      records: problems.length > 0 ? {} : records,
      problems,
      notCarried: {},
    };
  };

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    add({
      path: "",
      message:
        "the file is not complete JSON (truncated or not a Hivekeep backup): " +
        (err instanceof Error ? err.message : String(err)),
    });
    return result();
  }
  if (!isPlainObject(parsed)) {
    add({ path: "", message: "the file is not a Hivekeep backup (not a JSON object)" });
    return result();
  }
  if (parsed.format !== backupFormat) {
    add({
      path: "format",
      message: `the file is not a Hivekeep backup (format must be "${backupFormat}")`,
    });
    return result();
  }
  if (parsed.version !== backupVersion) {
    add({
      path: "version",
      message: `backup version ${JSON.stringify(parsed.version)} is not one this Hivekeep reads (${backupVersion})`,
    });
    return result();
  }
  for (const key of Object.keys(parsed)) {
    if (!envelopeKeys.has(key)) add({ path: key, message: `unknown key ${JSON.stringify(key)}` });
  }
  if (typeof parsed.exportedAt !== "string") {
    add({ path: "exportedAt", message: "exportedAt must be an RFC 3339 string" });
  }
  const org = parsed.organization;
  if (!isPlainObject(org) || typeof org.id !== "string" || typeof org.name !== "string") {
    add({ path: "organization", message: "organization must be {id, name} of strings" });
  }
  if (!isPlainObject(parsed.records)) {
    add({ path: "records", message: "records must be an object of entity → array of records" });
    return result();
  }

  const records: Record<string, RecordRow[]> = {};
  const seen = new Set<string>();
  for (const [name, rows] of Object.entries(parsed.records)) {
    const path = `records.${name}`;
    if (!isEntityName(name)) {
      add({ path, message: `unknown entity ${JSON.stringify(name)}` });
      continue;
    }
    if (!Array.isArray(rows)) {
      add({ entity: name, path, message: `${path} must be an array` });
      continue;
    }
    const kept: RecordRow[] = [];
    for (const [i, row] of rows.entries()) {
      const at = `${path}[${i}]`;
      if (!isPlainObject(row)) {
        add({ entity: name, path: at, message: `${at} must be an object` });
        continue;
      }
      const id = row.id;
      if (typeof id !== "string" || !isEntityId(id)) {
        add({ entity: name, path: `${at}.id`, message: `${at}.id must be an id` });
        continue;
      }
      if (seen.has(rowKey(name, id))) {
        add({ entity: name, id, path: at, message: `${name} ${id} is in the file twice` });
        continue;
      }
      seen.add(rowKey(name, id));
      if (row.deleted !== undefined && typeof row.deleted !== "boolean") {
        add({ entity: name, id, path: `${at}.deleted`, message: "deleted must be a boolean" });
      }
      for (const p of recordPayload(name, row as RecordRow).problems) {
        add({ ...p, path: `${at}.${p.column ?? ""}` });
      }
      kept.push(row as RecordRow);
    }
    records[name] = kept;
  }
  return result(records as RecordSet);
}

/**
 * The one import plan (issue 26), for the server, the device and the operators' CLI alike: what a
 * file read into a `ReadFile` (record-set.ts) writes into an organization, as the `Change[]` of
 * the one write path, with a summary per entity and every problem found. Pure: what the
 * organization already has comes in as `OrganizationFacts`, the clock and the author as the
 * `CommandContext`.
 *
 * Rules (docs/decisions.md, "Import: the one plan (issue 26)"):
 * - Every value is checked with the registry's column rules (`parseColumnValue`, the rules Push
 *   and the commands apply); a record lacking a required column is refused.
 * - Every reference resolves to a record of the file or of the organization (live or deleted);
 *   else a problem. An id of another tenant reads as unknown, so such a file is refused.
 * - A record whose id the organization has (live or deleted) is left as it is: importing a file
 *   twice creates and changes nothing (events are append-only anyway).
 * - A new record is one upsert carrying all its columns (an OR-set's further elements follow in
 *   a change each, so they keep their order), stamped with the context's clock; its
 *   scope follows the registry's rule (an apiary's own id; `apiary_id`; a queen's hive's apiary;
 *   a personal task → `user:<importer>`). A deleted record is written and tombstoned.
 * - Any problem → nothing is written. Writes go in `entityNames` order (references first).
 */
import type { Change } from "../change.ts";
import { rowKey } from "../change.ts";
import { isEntityId, maxIdLength, parseColumnValue } from "../column-value.ts";
import type { CommandContext } from "../commands/context.ts";
import {
  type EntityName,
  type EntitySpec,
  entities,
  entityNames,
  refColumns,
  userScope,
} from "../entities.ts";
import type { Values } from "../merge.ts";
import type { OrSetPatch } from "../or-set.ts";
import { quote } from "../quote.ts";
import type { ImportProblem, ReadFile, RecordRow, RecordSet } from "./record-set.ts";

/** What the organization holds of the ids a file names: per `rowKey`, its scope. */
export interface OrganizationFacts {
  /** Records of the organization (live or deleted) by `rowKey(entity, id)`. */
  readonly rows: ReadonlyMap<string, { readonly scopeId: string }>;
}

export interface EntityCount {
  /** Records the import writes. */
  created: number;
  /** Records of the file the organization already has (left as they are). */
  existing: number;
}

export interface ImportPlan {
  /** Empty when there is any problem: nothing is written. */
  readonly changes: readonly Change[];
  readonly counts: Readonly<Record<EntityName, EntityCount>>;
  readonly problems: readonly ImportProblem[];
}

/** The keys of a record that are not columns. */
const recordKeys = new Set(["id", "deleted"]);

/**
 * The payload of a record (every column it carries, checked with the column's rules: a plain
 * array of photos becomes an OR-set add, "" in a timestamp null) or the problems of its values.
 */
export function recordPayload(
  entity: EntityName,
  row: RecordRow,
): { payload: Values; problems: ImportProblem[] } {
  const spec = entities[entity];
  const payload: Values = {};
  const problems: ImportProblem[] = [];
  const problem = (column: string, message: string) =>
    problems.push({ entity, id: row.id, column, message: `${entity} ${row.id}: ${message}` });
  for (const [column, raw] of Object.entries(row)) {
    if (recordKeys.has(column)) continue;
    const columnSpec = Object.hasOwn(spec.columns, column) ? spec.columns[column] : undefined;
    if (columnSpec === undefined) {
      problem(column, `${entity} has no column ${JSON.stringify(column)}`);
      continue;
    }
    let value: unknown = raw;
    if (columnSpec.type === "orset") {
      if (!Array.isArray(raw)) {
        problem(column, `${column} must be an array`);
        continue;
      }
      value = { add: raw };
    } else if (columnSpec.type === "timestamp" && raw === "") {
      value = null;
    }
    const parsed = parseColumnValue(columnSpec, value, spec.required.includes(column));
    if ("error" in parsed) {
      problem(column, `${column} ${parsed.error}`);
      continue;
    }
    payload[column] = parsed.value;
  }
  for (const column of spec.required) {
    if (!Object.hasOwn(row, column)) problem(column, `${column} is required and missing`);
  }
  return { payload, problems };
}

/**
 * Every id a plan needs to know about in the organization, per entity: the file's records and
 * the records they refer to (the caller reads these, deleted ones included).
 */
export function idsToLookUp(records: RecordSet): Map<EntityName, Set<string>> {
  const ids = new Map<EntityName, Set<string>>(entityNames.map((e) => [e, new Set<string>()]));
  for (const entity of entityNames) {
    const spec = entities[entity];
    for (const row of records[entity] ?? []) {
      ids.get(entity)?.add(row.id);
      for (const [column, target] of refColumns(spec)) {
        const value = row[column];
        if (typeof value === "string" && value !== "") ids.get(target)?.add(value);
      }
    }
  }
  return ids;
}

const noCounts = (): Record<EntityName, EntityCount> =>
  Object.fromEntries(entityNames.map((e) => [e, { created: 0, existing: 0 }])) as Record<
    EntityName,
    EntityCount
  >;

/** The plan of importing `file` into an organization with `facts`, for `ctx.authorId`. */
export function planImport(
  file: Pick<ReadFile, "records">,
  facts: OrganizationFacts,
  ctx: CommandContext,
): ImportPlan {
  const counts = noCounts();
  const problems: ImportProblem[] = [];
  const inFile = new Map<string, RecordRow>();
  for (const entity of entityNames) {
    for (const row of file.records[entity] ?? []) {
      if (typeof row.id !== "string" || !isEntityId(row.id)) {
        problems.push({
          entity,
          message: `${entity} id ${quote(String(row.id))} must be 1-${maxIdLength} characters of [A-Za-z0-9_-]`,
        });
        continue;
      }
      const key = rowKey(entity, row.id);
      if (inFile.has(key)) {
        problems.push({ entity, id: row.id, message: `${entity} ${row.id} is in the file twice` });
      }
      inFile.set(key, row);
    }
  }
  const known = (entity: EntityName, id: string) =>
    inFile.has(rowKey(entity, id)) || facts.rows.has(rowKey(entity, id));

  /** The apiary a hive stands at: its record in the file, else its scope in the organization. */
  const apiaryOfHive = (hiveId: unknown): string | undefined => {
    if (typeof hiveId !== "string" || hiveId === "") return undefined;
    const stored = facts.rows.get(rowKey("hive", hiveId));
    if (stored !== undefined) return stored.scopeId;
    const apiary = inFile.get(rowKey("hive", hiveId))?.apiary_id;
    return typeof apiary === "string" && apiary !== "" ? apiary : undefined;
  };

  const changes: Change[] = [];
  for (const entity of entityNames) {
    const spec = entities[entity];
    for (const row of file.records[entity] ?? []) {
      if (typeof row.id !== "string" || !isEntityId(row.id)) continue;
      const { payload, problems: valueProblems } = recordPayload(entity, row);
      const before = problems.length;
      problems.push(...valueProblems);
      for (const [column, target] of refColumns(spec)) {
        const value = row[column];
        if (typeof value !== "string" || value === "" || known(target, value)) continue;
        problems.push({
          entity,
          id: row.id,
          column,
          message:
            `${entity} ${row.id} refers to ${target} ${value}, which is neither in the file ` +
            "nor in this organization",
        });
      }
      if (facts.rows.has(rowKey(entity, row.id))) {
        counts[entity].existing++;
        continue;
      }
      counts[entity].created++;
      if (problems.length > before) continue;
      const scopeId = scopeOf(spec, row.id, payload, apiaryOfHive, ctx.authorId);
      if (scopeId === undefined) {
        problems.push({
          entity,
          id: row.id,
          message: `${entity} ${row.id}: cannot tell which apiary it belongs to`,
        });
        continue;
      }
      const base = { entity, entityId: row.id, scopeId, authorId: ctx.authorId };
      // An OR-set lists its elements by the stamps they were added with: the first element
      // goes with the record, each further one in a change of its own, so they keep their order.
      const later: Values[] = [];
      const first: Values = { ...payload };
      for (const [column, value] of Object.entries(payload)) {
        const add = spec.columns[column]?.type === "orset" ? (value as OrSetPatch).add : undefined;
        if (add === undefined || add.length <= 1) continue;
        first[column] = { add: add.slice(0, 1) };
        for (const element of add.slice(1)) later.push({ [column]: { add: [element] } });
      }
      changes.push({ ...base, op: "upsert", payload: first, hlc: ctx.stamp() });
      for (const p of later) changes.push({ ...base, op: "upsert", payload: p, hlc: ctx.stamp() });
      if (row.deleted === true)
        changes.push({ ...base, op: "delete", payload: {}, hlc: ctx.stamp() });
    }
  }
  return { changes: problems.length > 0 ? [] : changes, counts, problems };
}

/** The scope of a new record by the registry's scope rule (entities.ts `ScopeRule`). */
function scopeOf(
  spec: EntitySpec,
  id: string,
  payload: Values,
  apiaryOfHive: (hiveId: unknown) => string | undefined,
  importer: string,
): string | undefined {
  const apiary = typeof payload.apiary_id === "string" ? payload.apiary_id : "";
  switch (spec.scope) {
    case "self":
      return id;
    case "apiary":
      return apiary !== "" ? apiary : apiaryOfHive(payload.hive_id);
    case "hive":
      return apiaryOfHive(payload.hive_id);
    case "apiaryOrUser":
      return apiary !== "" ? apiary : userScope(importer);
  }
}

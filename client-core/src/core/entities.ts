/**
 * The entity registry: the one description of every replicated record type.
 *
 * The server store (tables, columns, reads), the Push validator, the device
 * replica schema and the proto mapping all read this. Column names are the
 * snake_case database / payload names; the proto field is their lowerCamelCase.
 *
 * Every replicated row also carries `organization_id`, `clock` (column → HLC of
 * the last accepted write), `deleted` and `scope_id`; those are never columns
 * here and never appear in a change payload.
 */
import {
  EventType,
  HiveStatus,
  HiveType,
  MarkingColor,
  Stores,
  TaskPriority,
  Temperament,
} from "@hivekeep/proto";

export type ColumnType =
  /** UTF-8 string. */
  | "text"
  /** Finite double. */
  | "float"
  /** 32-bit signed integer. */
  | "int"
  | "bool"
  /** A proto enum number (0 = unspecified is always allowed). */
  | "enum"
  /** RFC 3339 timestamp string in UTC, or null for "unset". */
  | "timestamp"
  /** An entity id (text), or "" for "none". */
  | "id"
  /** Add-wins observed-remove set of strings (see merge.ts). */
  | "orset";

export interface ColumnSpec {
  readonly type: ColumnType;
  /** For "id": the entity the id points at. */
  readonly ref?: EntityName;
  /** For "enum": the allowed numbers besides 0. */
  readonly enumValues?: readonly number[];
  /** Must not be changed once set (e.g. `queen.hive_id`). */
  readonly immutable?: true;
  /** Text that must not be empty (after trimming) when set. */
  readonly nonEmpty?: true;
  /** Number that must be above 0 when set. */
  readonly positive?: true;
  /**
   * For "int" and "float": the smallest and the largest value allowed (inclusive). Every
   * numeric column has an upper bound and a lower one (`min`, or `positive`); 0 lies within the
   * range of every column that may be left unset (0 = "not set", contract §2.1.5).
   */
  readonly min?: number;
  readonly max?: number;
  /** For "text" (without element rules): the most UTF-16 code units (column-value.ts). */
  readonly maxLength?: number;
  /** Data URLs ("orset" elements, or a "text" photo): required prefix and max size in bytes. */
  readonly elementPrefix?: string;
  readonly elementMaxBytes?: number;
  /**
   * For "orset": the most entries the set may hold, one per add (column-value.ts
   * `orSetPatchError`), and the most elements or tags one patch may add or remove.
   */
  readonly maxElements?: number;
}

/**
 * How the scope of a row is found. The scope decides who may read and write:
 * an apiary of the tenant, or `user:<userId>` for personal records.
 * - self: the row's own id (apiaries).
 * - apiary: the row's `apiary_id` column.
 * - hive: the apiary of the row's hive (`hive_id`), as of the write.
 * - apiaryOrUser: `apiary_id` when set, else the author's personal scope.
 */
export type ScopeRule = "self" | "apiary" | "hive" | "apiaryOrUser";

export interface EntitySpec {
  readonly name: EntityName;
  readonly table: string;
  readonly columns: Readonly<Record<string, ColumnSpec>>;
  /** Columns a row needs before it counts as created (visible in reads). */
  readonly required: readonly string[];
  /** Rows are created once and never edited (only tombstoned). */
  readonly appendOnly: boolean;
  readonly scope: ScopeRule;
}

export const entityNames = [
  "apiary",
  "hive",
  "placement",
  "inspection",
  "queen",
  "task",
  "treatment",
  "harvest",
  "event",
] as const;
export type EntityName = (typeof entityNames)[number];

/** Personal scopes are `user:<userId>`. */
export const userScopePrefix = "user:";
export const userScope = (userId: string): string => `${userScopePrefix}${userId}`;
export const isUserScope = (scopeId: string): boolean => scopeId.startsWith(userScopePrefix);

/**
 * Whether a user may read what lies in a scope: every scope of the tenant is
 * readable except other users' personal ones. Pull, Subscribe, tasks and
 * statistics all apply this rule; `readableScopeSql` is the same rule in SQL.
 */
export const isReadableScope = (scopeId: string, userId: string): boolean =>
  !isUserScope(scopeId) || scopeId === userScope(userId);

/**
 * `isReadableScope` as an SQL condition: the scope in `column` is readable by
 * the user whose personal scope (`userScope(id)`) is the parameter `param`.
 * (The prefix holds no LIKE wildcard.)
 */
export const readableScopeSql = (column: string, param: string): string =>
  `(${column} not like '${userScopePrefix}%' or ${column} = ${param})`;

/** Largest stored photo: 512 KiB including the `data:image/` prefix. */
export const maxPhotoBytes = 512 * 1024;
/**
 * Most photos of one inspection: 20, so an inspection holds at most 10 MiB of photos
 * (20 × `maxPhotoBytes`). See docs/decisions.md, "Reliability (issue 13)".
 */
export const maxInspectionPhotos = 20;
export const photoPrefix = "data:image/";

const numbersOf = (e: Record<string, string | number>): number[] =>
  Object.values(e).filter((v): v is number => typeof v === "number" && v !== 0);

/** The length of every text column: 10 000 UTF-16 code units. */
export const maxTextLength = 10_000;

const text: ColumnSpec = { type: "text", maxLength: maxTextLength };
/** Text that must not be blank (names, titles, products). */
const name: ColumnSpec = { type: "text", nonEmpty: true, maxLength: maxTextLength };
const float = (min: number, max: number): ColumnSpec => ({ type: "float", min, max });
const int = (min: number, max: number): ColumnSpec => ({ type: "int", min, max });
/** A percentage (relative humidity, water content of honey). */
const percent = float(0, 100);
/**
 * Kilograms of honey in a harvest (and its HARVEST event): no bound but the largest double. The
 * contract sets none, and the honey figures are proven to sum such amounts to Infinity without
 * an error (test/contract/stats.test.ts).
 */
const maxHarvestKg = Number.MAX_VALUE;
const bool: ColumnSpec = { type: "bool" };
const timestamp: ColumnSpec = { type: "timestamp" };
const ref = (entity: EntityName): ColumnSpec => ({ type: "id", ref: entity });
const enumOf = (e: Record<string, string | number>): ColumnSpec => ({
  type: "enum",
  enumValues: numbersOf(e),
});

const apiary: EntitySpec = {
  name: "apiary",
  table: "apiaries",
  columns: {
    name,
    address: text,
    lat: float(-90, 90),
    lng: float(-180, 180),
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: ["name"],
  appendOnly: false,
  scope: "self",
};

const hive: EntitySpec = {
  name: "hive",
  table: "hives",
  columns: {
    apiary_id: ref("apiary"),
    name,
    type: enumOf(HiveType),
    status: enumOf(HiveStatus),
    boxes: int(0, 20),
    colony_origin: text,
    note: text,
    qr_code: text,
    // A data:image/ URL ("" = none), like inspection photos.
    photo: { type: "text", elementPrefix: photoPrefix, elementMaxBytes: maxPhotoBytes },
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: ["apiary_id", "name"],
  appendOnly: false,
  scope: "apiary",
};

/** An interval during which a hive stands at an apiary (ended_at null = open). */
const placement: EntitySpec = {
  name: "placement",
  table: "placements",
  columns: {
    hive_id: { type: "id", ref: "hive", immutable: true },
    apiary_id: { type: "id", ref: "apiary", immutable: true },
    started_at: timestamp,
    ended_at: timestamp,
  },
  required: ["hive_id", "apiary_id", "started_at"],
  appendOnly: false,
  scope: "apiary",
};

const inspection: EntitySpec = {
  name: "inspection",
  table: "inspections",
  columns: {
    hive_id: ref("hive"),
    apiary_id: ref("apiary"),
    queen_id: ref("queen"),
    date: timestamp,
    note: text,
    created_at: timestamp,
    photo_keys: {
      type: "orset",
      elementPrefix: photoPrefix,
      elementMaxBytes: maxPhotoBytes,
      maxElements: maxInspectionPhotos,
    },
    // Plausible ranges: a value outside is a typo (a missing decimal point, a swapped field).
    weight_kg: float(0, 500),
    temp_hive: float(-40, 70),
    temp_outside: float(-50, 60),
    humidity_hive: percent,
    humidity_outside: percent,
    weather: text,
    queen_seen: bool,
    eggs_seen: bool,
    covered_larva: bool,
    frames: int(0, 60),
    brood_frames: int(0, 60),
    stores: enumOf(Stores),
    temperament: enumOf(Temperament),
    // Calmness on the comb ("Wabensitz"), scored 1-4 as on the German stock card (4 = calmest).
    calmness: int(0, 4),
    queen_cells: int(0, 99),
    varroa: text,
    super_added: bool,
  },
  required: ["hive_id", "date"],
  appendOnly: false,
  scope: "apiary",
};

const queen: EntitySpec = {
  name: "queen",
  table: "queens",
  columns: {
    hive_id: { type: "id", ref: "hive", immutable: true },
    year: { type: "int", positive: true, max: 9999 },
    marking: enumOf(MarkingColor),
    origin: text,
    breeder_number: text,
    introduced_at: timestamp,
    replaced_at: timestamp,
    active: bool,
    note: text,
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: ["hive_id", "year"],
  appendOnly: false,
  scope: "hive",
};

const task: EntitySpec = {
  name: "task",
  table: "tasks",
  columns: {
    title: name,
    hive_id: ref("hive"),
    apiary_id: ref("apiary"),
    due_at: timestamp,
    priority: enumOf(TaskPriority),
    done: bool,
    created_at: timestamp,
  },
  required: ["title"],
  appendOnly: false,
  scope: "apiaryOrUser",
};

const treatment: EntitySpec = {
  name: "treatment",
  table: "treatments",
  columns: {
    hive_id: ref("hive"),
    product: name,
    active_ingredient: text,
    dose: text,
    method: text,
    batch_number: text,
    withdrawal_until: timestamp,
    reason: text,
    date: timestamp,
    apiary_id: ref("apiary"),
    queen_id: ref("queen"),
    created_at: timestamp,
    /** Who sold or gave the medicine (the register names it, issue 26). */
    supplier: text,
    /** Who deleted it and when, set with its tombstone: the register shows it (issue 26). */
    deleted_by: text,
    deleted_at: timestamp,
  },
  required: ["hive_id", "product", "date"],
  appendOnly: false,
  scope: "apiary",
};

const harvest: EntitySpec = {
  name: "harvest",
  table: "harvests",
  columns: {
    hive_id: ref("hive"),
    apiary_id: ref("apiary"),
    queen_id: ref("queen"),
    date: timestamp,
    variety: text,
    amount_kg: { type: "float", positive: true, max: maxHarvestKg },
    water_content: percent,
    batch_number: text,
    best_before: timestamp,
    note: text,
    created_at: timestamp,
  },
  required: ["hive_id", "amount_kg", "date"],
  appendOnly: false,
  scope: "apiary",
};

const event: EntitySpec = {
  name: "event",
  table: "events",
  columns: {
    type: enumOf(EventType),
    apiary_id: ref("apiary"),
    hive_id: ref("hive"),
    queen_id: ref("queen"),
    ref_entity: text,
    ref_id: text,
    amount_kg: float(0, maxHarvestKg),
    /**
     * A TREATMENT event's detail holds the treatment's register fields (issue 26): up to
     * eight texts at their limit, each at most six characters per character once JSON-escaped.
     */
    detail_json: { type: "text", maxLength: 8 * 6 * maxTextLength + 1000 },
    author_id: text,
    title: text,
    date: timestamp,
    created_at: timestamp,
  },
  required: ["type", "date"],
  appendOnly: true,
  scope: "apiary",
};

export const entities: Readonly<Record<EntityName, EntitySpec>> = {
  apiary,
  hive,
  placement,
  inspection,
  queen,
  task,
  treatment,
  harvest,
  event,
};

export const isEntityName = (name: string): name is EntityName =>
  (entityNames as readonly string[]).includes(name);

/** The spec of an entity name, or undefined for an unknown name. */
export const entitySpec = (name: string): EntitySpec | undefined =>
  isEntityName(name) ? entities[name] : undefined;

/**
 * A column of an entity, with its value rules (the commands, Push and the app's fields apply
 * them); a name the entity lacks is a programming error and throws.
 */
export function columnSpec(entity: EntityName | EntitySpec, column: string): ColumnSpec {
  const spec = typeof entity === "string" ? entities[entity] : entity;
  const found = spec.columns[column];
  if (found === undefined) throw new Error(`${spec.name} has no column ${column}`);
  return found;
}

const refCache = new Map<EntitySpec, readonly (readonly [string, EntityName])[]>();

/** The columns of `spec` that reference another entity, with that entity. */
export function refColumns(spec: EntitySpec): readonly (readonly [string, EntityName])[] {
  let refs = refCache.get(spec);
  if (refs === undefined) {
    refs = Object.entries(spec.columns).flatMap(([column, c]) =>
      c.ref === undefined ? [] : [[column, c.ref] as const],
    );
    refCache.set(spec, refs);
  }
  return refs;
}

/** snake_case column → lowerCamelCase proto JSON name. */
export const camelCase = (column: string): string =>
  column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

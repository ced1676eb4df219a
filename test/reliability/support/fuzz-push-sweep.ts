/**
 * The Push sweep: for every entity of the registry, a change a device would push, then the
 * same change with each column given each kind of value the column rules refuse, alone and
 * after a valid change in one batch (the batch is atomic: nothing of it may be written), in
 * another tenant's or another user's scope, of an unknown entity, and with bad HLCs. Each of
 * these must be refused; the feed check of the suite sees anything half-written.
 */
import { randomUUID } from "node:crypto";
import {
  type ColumnSpec,
  type EntitySpec,
  entities,
  entityNames,
  formatHlc,
} from "@hivekeep/client-core/core";
import { type Pools, Raw } from "./fuzz-values.ts";

export interface PushSweepCase {
  readonly kind: string;
  readonly changes: Record<string, unknown>[];
  readonly mustRefuse?: string;
}

const node = "fuzz-sweep";
let counter = 0;
/** A fresh stamp of now, distinct from the last. */
const hlc = () => formatHlc({ ms: Date.now(), counter: counter++ % 99_999, node });

/** A plain valid value for a column. */
function validValue(p: Pools, column: string, spec: ColumnSpec, refs: Refs): unknown {
  switch (spec.type) {
    case "text":
      if (spec.elementPrefix) return p.ownPhotos[0] ?? "";
      return "fuzz sweep";
    case "float":
      return 12.5;
    case "int":
      return column === "year" ? 2025 : 3;
    case "bool":
      return true;
    case "enum":
      return spec.enumValues?.[0] ?? 0;
    case "timestamp":
      return new Date(Date.now() - 60_000).toISOString();
    case "id":
      if (spec.ref === "apiary") return refs.apiaryId;
      if (spec.ref === "hive") return refs.hiveId;
      return "";
    case "orset":
      return { add: [p.ownPhotos[0] ?? "data:image/png;base64,AA"] };
  }
}

/** Values the column rules refuse, by column type (client-core column-value.ts). */
const refused: Record<ColumnSpec["type"], (readonly [string, unknown])[]> = {
  text: [
    ["nul", "a\u0000b"],
    ["lone-surrogate", "\ud800"],
    ["long-10001", "x".repeat(10_001)],
    ["number", 5],
  ],
  float: [
    ["raw-1e400", new Raw("1e400")],
    ["string", "1.5"],
  ],
  int: [
    ["int32-overflow", 2_147_483_648],
    ["fraction", 1.5],
    ["string", "3"],
  ],
  bool: [
    ["string", "true"],
    ["number", 1],
  ],
  enum: [
    ["unknown-number", 99_999],
    ["name", "HIVE_TYPE_ZANDER"],
  ],
  timestamp: [
    ["feb-30", "2026-02-30T00:00:00Z"],
    ["hour-24", "2026-01-01T24:00:00Z"],
    ["no-zone", "2026-01-01T00:00:00"],
    ["number", 1_767_225_600],
  ],
  id: [
    ["nul", "a\u0000"],
    ["101-chars", "a".repeat(101)],
    ["bad-chars", "a b/c"],
  ],
  orset: [
    ["array", ["x"]],
    ["unknown-key", { put: ["x"] }],
    ["remove-not-hlc", { remove: ["x"] }],
    ["add-not-photo", { add: ["not a photo"] }],
    // The created row holds no add, so any tag is one it never received (issue 27).
    ["remove-unreceived-tag", { remove: [formatHlc({ ms: 1, counter: 0, node })] }],
    [
      "remove-21-tags",
      { remove: Array.from({ length: 21 }, (_, i) => formatHlc({ ms: i + 1, counter: 0, node })) },
    ],
  ],
};

interface Refs {
  readonly apiaryId: string;
  readonly hiveId: string;
}

/** A create of the entity as a device would push it, in the caller's own scope. */
function validCreate(p: Pools, spec: EntitySpec): Record<string, unknown> & { payload: object } {
  const hiveId = Object.keys(p.hiveApiary)[0] ?? "";
  const usesHive = "hive_id" in spec.columns && spec.name !== "task";
  const apiaryId = usesHive ? (p.hiveApiary[hiveId] ?? "") : (p.own.apiary?.[0] ?? "");
  const refs = { apiaryId, hiveId };
  const entityId = randomUUID();
  const payload: Record<string, unknown> = {};
  for (const column of spec.required) {
    payload[column] = validValue(p, column, spec.columns[column] as ColumnSpec, refs);
  }
  const scopeId =
    spec.scope === "self"
      ? entityId
      : spec.name === "task" && payload.apiary_id === undefined
        ? `user:${p.userId}`
        : apiaryId;
  return { entity: spec.name, entityId, scopeId, op: "CHANGE_OP_UPSERT", payload, hlc: hlc() };
}

const wire = (c: Record<string, unknown>) => {
  const { payload, ...rest } = c;
  return { ...rest, payloadJson: jsonOf(payload) };
};

/** JSON text that keeps Raw numbers (1e400) as written. */
function jsonOf(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return `[${v.map(jsonOf).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${jsonOf(x)}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/** Every case of the Push sweep. */
export function pushSweep(p: Pools): PushSweepCase[] {
  const out: PushSweepCase[] = [];
  // One of the other tenant's apiary ids is pushed as a scope (refused), the other reused as
  // an apiary id of the caller's own (allowed: ids are per tenant), so that after the reuse
  // the first still names no apiary of the caller.
  const otherApiary = p.other.apiary?.[0] ?? "x";
  const reusedApiary = p.other.apiary?.[1] ?? "y";
  for (const name of entityNames) {
    const spec = entities[name];
    out.push({ kind: `push ${name} valid`, changes: [wire(validCreate(p, spec))] });
    for (const [column, colSpec] of Object.entries(spec.columns)) {
      for (const [k, plain] of refused[colSpec.type]) {
        // One over the column's own limit (10 000, or more where the registry allows more).
        const value =
          k === "long-10001" && colSpec.maxLength !== undefined
            ? "x".repeat(colSpec.maxLength + 1)
            : plain;
        const bad = validCreate(p, spec);
        const payload = { ...(bad.payload as Record<string, unknown>), [column]: value };
        const why = `${name}.${column} = ${k} breaks its column rule`;
        out.push({
          kind: `push ${name}.${column}=${k}`,
          changes: [wire({ ...bad, payload })],
          mustRefuse: why,
        });
        if (k === refused[colSpec.type][0]?.[0]) {
          // The same after a valid change: the batch is refused whole.
          out.push({
            kind: `push [valid, ${name}.${column}=${k}]`,
            changes: [wire(validCreate(p, entities.apiary)), wire({ ...bad, payload })],
            mustRefuse: `${why} (and the batch is atomic)`,
          });
        }
      }
    }
    const base = validCreate(p, spec);
    if (spec.scope !== "self") {
      out.push({
        kind: `push ${name} scope=other-tenant-apiary`,
        changes: [wire({ ...base, scopeId: otherApiary })],
        mustRefuse: "another tenant's scope",
      });
    } else {
      out.push({
        kind: `push ${name} id=other-tenant-apiary`,
        changes: [wire({ ...base, entityId: reusedApiary, scopeId: reusedApiary, hlc: hlc() })],
      });
    }
    out.push({
      kind: `push ${name} scope=other-tenant-user`,
      changes: [wire({ ...base, scopeId: `user:${p.otherUserId}`, hlc: hlc() })],
      mustRefuse: "another tenant's user scope",
    });
    out.push({
      kind: `push ${name} scope=other-user`,
      changes: [wire({ ...base, scopeId: `user:${p.peerUserId}`, hlc: hlc() })],
      mustRefuse: "another user's personal scope",
    });
    for (const [k, stamp] of [
      ["hlc-far-ahead", formatHlc({ ms: Date.now() + 365 * 86_400_000, counter: 0, node })],
      ["hlc-malformed", "not-an-hlc"],
      ["hlc-nul", `${String(Date.now()).padStart(15, "0")}:00000:${node}\u0000`],
    ] as const) {
      out.push({
        kind: `push ${name} ${k}`,
        changes: [wire({ ...validCreate(p, spec), hlc: stamp })],
        mustRefuse: `a bad HLC (${k})`,
      });
    }
    out.push({
      kind: `push ${name} payload=forbidden-column`,
      changes: [
        wire({
          ...base,
          hlc: hlc(),
          payload: { ...(base.payload as object), organization_id: p.other.organization?.[0] },
        }),
      ],
      mustRefuse: "organization_id in a payload",
    });
  }
  out.push({
    kind: "push entity=unknown",
    changes: [wire({ ...validCreate(p, entities.apiary), entity: "widget" })],
    mustRefuse: "an unknown entity",
  });
  out.push({
    kind: "push entity=__proto__",
    changes: [wire({ ...validCreate(p, entities.apiary), entity: "__proto__" })],
    mustRefuse: "an unknown entity",
  });
  return out;
}

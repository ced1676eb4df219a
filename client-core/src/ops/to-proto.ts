/**
 * Stored rows → proto messages, generically from the entity registry: each snake_case column
 * fills the proto field of the same name; a null (never written) column is the field's default;
 * timestamps become google.protobuf.Timestamp; orset columns become their list of values.
 */
import {
  create,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityName } from "../core/entities.ts";
import { entities } from "../core/entities.ts";
import { type OrSetState, orSetValues } from "../core/or-set.ts";
import type { StoredRow } from "./replica-store.ts";

const localNamesCache = new WeakMap<DescMessage, Map<string, string>>();

function localNames(schema: DescMessage): Map<string, string> {
  let names = localNamesCache.get(schema);
  if (names === undefined) {
    names = new Map(schema.fields.map((f) => [f.name, f.localName]));
    localNamesCache.set(schema, names);
  }
  return names;
}

export function toProto<Desc extends DescMessage>(
  schema: Desc,
  entity: EntityName,
  row: StoredRow,
  organizationId: string,
  extra: Record<string, unknown> = {},
): MessageShape<Desc> {
  const init: Record<string, unknown> = {};
  const names = localNames(schema);
  const set = (column: string, value: unknown) => {
    const local = names.get(column);
    if (local !== undefined && value !== null && value !== undefined) init[local] = value;
  };
  set("id", row.id);
  set("organization_id", organizationId);
  for (const [column, spec] of Object.entries(entities[entity].columns)) {
    const v = row.values[column];
    if (v === null || v === undefined) continue;
    if (spec.type === "timestamp") set(column, timestampFromDate(new Date(String(v))));
    else if (spec.type === "orset") set(column, orSetValues(v as OrSetState));
    else set(column, v);
  }
  for (const [column, v] of Object.entries(extra)) set(column, v);
  return create(schema, init as MessageInitShape<Desc>);
}

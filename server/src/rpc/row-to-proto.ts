/**
 * Stored rows → proto messages, generically from the entity registry: each
 * snake_case column fills the proto field of the same name; NULL (never
 * written) is the field's default; timestamps become google.protobuf.Timestamp;
 * OR-set columns become their list of values.
 */
import {
  create,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type EntitySpec, type OrSetState, orSetValues } from "@hivekeep/client-core/core";
import type { Row } from "../db/db.ts";

export function rowToProto<Desc extends DescMessage>(
  schema: Desc,
  spec: EntitySpec,
  row: Row,
  extra: Record<string, unknown> = {},
): MessageShape<Desc> {
  const init: Record<string, unknown> = {};
  const localNames = new Map(schema.fields.map((f) => [f.name, f.localName]));
  const set = (column: string, value: unknown) => {
    const local = localNames.get(column);
    if (local !== undefined && value !== null && value !== undefined) init[local] = value;
  };
  set("id", row.id);
  set("organization_id", row.organization_id);
  for (const [column, colSpec] of Object.entries(spec.columns)) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    if (colSpec.type === "timestamp") {
      set(column, timestampFromDate(v instanceof Date ? v : new Date(String(v))));
    } else if (colSpec.type === "orset") {
      set(column, orSetValues(v as OrSetState));
    } else {
      set(column, v);
    }
  }
  for (const [column, v] of Object.entries(extra)) set(column, v);
  return create(schema, init as MessageInitShape<Desc>);
}

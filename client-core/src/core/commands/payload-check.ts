/**
 * The column rules of the registry applied to a payload a command is about to
 * write, so an RPC can store nothing a device's Push would be refused for
 * (unknown enum numbers, over-long text, timestamps outside 0001–9999, …).
 * A violation is an `invalid` error naming the request field.
 */
import { parseColumnValue } from "../column-value.ts";
import { invalid } from "../domain-error.ts";
import { camelCase, columnSpec, type EntitySpec } from "../entities.ts";
import type { Values } from "../merge.ts";

/**
 * The payload with normalised values; throws `invalid` at the first bad column.
 * `prefix` names the request message the fields sit in (e.g. "hive.").
 */
export function checkedPayload(spec: EntitySpec, payload: Values, prefix = ""): Values {
  const out: Values = {};
  // Keys, not entries: no [column, value] pair per column (a scale's batch checks 19,000).
  for (const column of Object.keys(payload)) {
    const parsed = parseColumnValue(
      columnSpec(spec, column),
      payload[column],
      spec.required.includes(column),
    );
    if ("error" in parsed) {
      const field = `${prefix}${camelCase(column)}`;
      throw invalid(field, `${field} ${parsed.error}`);
    }
    out[column] = parsed.value;
  }
  return out;
}

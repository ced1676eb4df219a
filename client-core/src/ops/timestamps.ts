/**
 * Request timestamps → the RFC 3339 strings commands and rows hold (ms, UTC). A JSON request's
 * timestamp that names no instant (2026-02-30, 24:00) never gets here: protobuf-es reads it with
 * `Date.parse`, which would roll it over, and our patch of it (client-core/patches/)
 * refuses it while parsing (invalid_argument), as Push's parseRfc3339 does. Binary requests
 * carry seconds, which always name an instant.
 */
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { invalid } from "../core/domain-error.ts";
import { isTimestampInRange } from "../core/rfc3339.ts";

/**
 * A request timestamp as an RFC 3339 string. Binary clients can send any seconds value; outside
 * years 0001–9999 it is invalid_argument naming the field, never an internal error.
 */
export function isoOf(ts: Timestamp, field: string): string {
  const ms = timestampDate(ts).getTime();
  if (!isTimestampInRange(ms)) {
    throw invalid(field, `${field} must be a date between the years 0001 and 9999`);
  }
  return new Date(ms).toISOString();
}

/** isoOf, or the fallback (e.g. now) when the timestamp is left out. */
export const isoOr = (ts: Timestamp | undefined, fallback: Date, field: string): string =>
  ts ? isoOf(ts, field) : fallback.toISOString();

/** isoOf, or null (unset) when the timestamp is left out. */
export const isoOrNull = (ts: Timestamp | undefined, field: string): string | null =>
  ts ? isoOf(ts, field) : null;

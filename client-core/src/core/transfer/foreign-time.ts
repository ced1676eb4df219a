/**
 * Times written by other programs (an OpenBeehive backup, a spreadsheet), read into the RFC 3339
 * UTC form every record stores (issue 26).
 *
 * - A day without a time (`2026-11-26`) is midnight UTC of that day: what ECMAScript makes of a
 *   date-only ISO string (`new Date("2026-11-26")`, so what OpenBeehive itself reads there), and
 *   the day the spreadsheet writer (`csv.ts`, "an instant is taken as its UTC day") writes back,
 *   so export → import → export keeps the day. The reader runs on the server too, where no
 *   device's time zone is known (see docs/decisions.md, "Reading other programs' files").
 * - A date and time without a zone (`2026-11-26 14:05`, SQLite's `datetime()` form) is UTC too,
 *   as the spreadsheet writer writes its times; one with a zone or offset is converted to UTC.
 */
import { parseRfc3339 } from "../rfc3339.ts";

export type Parsed<T> = { readonly value: T } | { readonly error: string };

const pad = (n: number | string, width = 2): string => String(n).padStart(width, "0");

/**
 * A calendar day and an optional time of day (UTC) as the stored RFC 3339 form; an error when the
 * day does not exist (30 February) or the time is not one.
 */
export function dayAndTime(
  year: number,
  month: number,
  day: number,
  time?: { readonly hour: number; readonly minute: number; readonly second?: number },
): Parsed<string> {
  const clock = time
    ? `${pad(time.hour)}:${pad(time.minute)}:${pad(time.second ?? 0)}`
    : "00:00:00";
  return parseRfc3339(`${pad(year, 4)}-${pad(month)}-${pad(day)}T${clock}Z`);
}

const isoPattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO 8601 day or date and time (with or without seconds, fraction and zone) as RFC 3339 UTC.
 */
export function isoTimestamp(text: string): Parsed<string> {
  const m = isoPattern.exec(text.trim());
  if (m === null) return { error: `"${text}" is not a date (expected e.g. 2026-11-26)` };
  const [, y, mo, d, hh, mm, ss, fraction, zone] = m;
  if (hh === undefined) {
    const read = dayAndTime(Number(y), Number(mo), Number(d));
    return "error" in read ? { error: `"${text}" is not a date: it ${read.error}` } : read;
  }
  let offset = "Z";
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || "00"}`;
  }
  const read = parseRfc3339(`${y}-${mo}-${d}T${hh}:${mm}:${ss ?? "00"}${fraction ?? ""}${offset}`);
  return "error" in read ? { error: `"${text}" is not a date and time: it ${read.error}` } : read;
}

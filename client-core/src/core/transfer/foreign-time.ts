/**
 * Times written by other programs (an OpenBeehive backup, a spreadsheet), read into the RFC 3339
 * UTC form every record stores (issue 26).
 *
 * - A day without a time (`2026-11-26`) is the start of that day in the importer's time zone
 *   (`timeZone`, an IANA name; "UTC" where none is known): the instant the app's date picker
 *   stores for a day, so a visit typed in the app and the same visit imported from a sheet are
 *   the same instant, and the spreadsheet writer (`csv.ts`, days and times in the reader's zone)
 *   writes the day back.
 * - A date and time without a zone (`2026-11-26 14:05`, SQLite's `datetime()` form) is wall-clock
 *   time in that zone too; one with a zone or offset is converted to UTC.
 */
import { parseRfc3339 } from "../rfc3339.ts";
import { zonedInstant } from "./csv.ts";

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
  timeZone = "UTC",
): Parsed<string> {
  const clock = time
    ? `${pad(time.hour)}:${pad(time.minute)}:${pad(time.second ?? 0)}`
    : "00:00:00";
  const read = parseRfc3339(`${pad(year, 4)}-${pad(month)}-${pad(day)}T${clock}Z`);
  if ("error" in read || timeZone === "UTC") return read;
  return { value: zonedInstant(read.value.slice(0, 19), timeZone) };
}

const isoPattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO 8601 day or date and time (with or without seconds, fraction and zone) as RFC 3339 UTC.
 */
export function isoTimestamp(text: string, timeZone = "UTC"): Parsed<string> {
  const m = isoPattern.exec(text.trim());
  if (m === null) return { error: `"${text}" is not a date (expected e.g. 2026-11-26)` };
  const [, y, mo, d, hh, mm, ss, fraction, zone] = m;
  if (hh === undefined) {
    const read = dayAndTime(Number(y), Number(mo), Number(d), undefined, timeZone);
    return "error" in read ? { error: `"${text}" is not a date: it ${read.error}` } : read;
  }
  if (zone === undefined && timeZone !== "UTC") {
    const wall = dayAndTime(
      Number(y),
      Number(mo),
      Number(d),
      { hour: Number(hh), minute: Number(mm), second: Number(ss ?? 0) },
      timeZone,
    );
    return "error" in wall ? { error: `"${text}" is not a date and time: it ${wall.error}` } : wall;
  }
  let offset = "Z";
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || "00"}`;
  }
  const read = parseRfc3339(`${y}-${mo}-${d}T${hh}:${mm}:${ss ?? "00"}${fraction ?? ""}${offset}`);
  return "error" in read ? { error: `"${text}" is not a date and time: it ${read.error}` } : read;
}

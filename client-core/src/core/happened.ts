/**
 * Dates that say something happened (an inspection's, treatment's or harvest's `date`, a hive's
 * set-up `date`, a RelocateHive `date`, a queen's `introducedAt` and `year`) cannot lie in the
 * future: "Last inspection: in 187 days" is a typo, not a record. Planned dates (a task's
 * `dueAt`, `withdrawalUntil`, `bestBefore`) stay free.
 *
 * One rule for the server's operations, the device's operations and the forms. It allows a day
 * of tolerance, for clocks that run ahead and for time zones: a phone east of the server that
 * records "today" at its local midnight is already tomorrow in UTC for a few hours. The device
 * passes its server-corrected clock as `now` (DeviceClock), so a phone whose clock runs ahead
 * does not make records the server would refuse.
 */
import { invalid } from "./domain-error.ts";

/** How far ahead of `now` a date of something that happened may lie. */
export const happenedToleranceMs = 24 * 60 * 60 * 1000;

/** The latest instant a date of something that happened may name, given now. */
export const latestHappenedMs = (now: Date): number => now.getTime() + happenedToleranceMs;

/** The latest year a queen may be of (her year of birth): the year of the latest instant. */
export const latestQueenYear = (now: Date): number =>
  new Date(latestHappenedMs(now)).getUTCFullYear();

/** The message when `field` names a future date; undefined when it does not. `iso`: RFC 3339. */
export function futureDateBreak(field: string, iso: string, now: Date): string | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || ms <= latestHappenedMs(now)) return undefined;
  return `${field} cannot be in the future`;
}

/** invalid_argument naming the field when `iso` (RFC 3339; null/undefined = unset) is in the future. */
export function checkHappened(field: string, iso: string | null | undefined, now: Date): void {
  if (iso == null || iso === "") return;
  const message = futureDateBreak(field, iso, now);
  if (message !== undefined) throw invalid(field, message);
}

/** invalid_argument naming the field when a queen's year is after the current one. */
export function checkQueenYear(field: string, year: number, now: Date): void {
  if (year > latestQueenYear(now)) throw invalid(field, `${field} cannot be in the future`);
}

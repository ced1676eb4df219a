/**
 * The size limits of the contract's calls, written once for the server and the devices
 * (contract §8; Pull's and Push's are ours, not shown there). A requested limit of 0 takes
 * the default, a larger one than the maximum is capped, a negative one is invalid_argument.
 */
import { invalid } from "./domain-error.ts";

/** List* pages (every list except ListEvents). */
export const defaultPageSize = 50;
export const maxPageSize = 500;

/** ListEvents, the one list without pages. */
export const defaultEventLimit = 100;
export const maxEventLimit = 1000;

/** Changes per Pull page; a device asks for the maximum. */
export const defaultPullLimit = 500;
export const maxPullLimit = 5000;

/** The most changes one Push may carry (a device splits larger outboxes). */
export const maxPushChanges = 5000;

/** The most readings one CreateReadings may carry (a scale splits a larger backlog). */
export const maxReadingsPerCall = 5000;

/**
 * The limit to apply for `requested` (0 = `fallback`, capped at `max`); `field` names the
 * request field in the error of a negative one.
 */
export function requestedLimit(
  requested: number,
  fallback: number,
  max: number,
  field: string,
): number {
  if (requested < 0) throw invalid(field, `${field} must not be negative`);
  return requested === 0 ? fallback : Math.min(requested, max);
}

/**
 * The readings window (issue 29): a device holds the readings of this many days (Pull's
 * `reading_days`); older days are drawn from GetReadingSeries' buckets.
 */
export const defaultReadingDays = 30;

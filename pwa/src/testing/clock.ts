/**
 * The fixed "now" of every component test. The screens read the time with `new Date()` (not
 * injectable), and the device client stamps and computes its statistics with `Date.now()`, so
 * `setup.ts` fakes `Date` alone (timers stay real) at this instant: "3 days ago", overdue tasks
 * and running withdrawal periods come out the same on any day the tests run.
 *
 * Local time at noon: dates a few days away never cross midnight in any time zone.
 */
import { type Timestamp, timestampFromDate } from "@bufbuild/protobuf/wkt";

/** Monday 15 June 2026, 12:00 local time. */
export const testNow = new Date(2026, 5, 15, 12, 0, 0);

/** `days` whole calendar days before the test's now (negative: after), at `hour` local time. */
export function daysAgo(days: number, hour = 10): Date {
  return new Date(testNow.getFullYear(), testNow.getMonth(), testNow.getDate() - days, hour, 0, 0);
}

/** A date as the services take it. */
export function at(date: Date): Timestamp {
  return timestampFromDate(date);
}

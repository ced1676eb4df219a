/**
 * RFC 3339 timestamps as they travel in change payloads.
 *
 * Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, `T` and `Z` in either case (RFC 3339
 * §5.6). A zone is mandatory: a local time without one names no instant. Leap seconds
 * (`:60`) are refused, as are calendar dates that do not exist (`2026-02-30`), which
 * `Date.parse` would silently roll over. The result is the canonical form every replica
 * stores: `Date.prototype.toISOString()` (UTC, milliseconds; finer fractions are truncated,
 * as `Date` does), limited to the years 0001–9999 so it keeps four year digits.
 */

const pattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
export const minTimestampMs = -62_135_596_800_000;
export const maxTimestampMs = 253_402_300_799_999;

/**
 * Whether an instant (ms since the epoch) is in the years 0001–9999 (UTC): the one bound of
 * every stored timestamp, pushed (parseRfc3339) or sent in a request (ops/timestamps.ts).
 */
export const isTimestampInRange = (ms: number): boolean =>
  ms >= minTimestampMs && ms <= maxTimestampMs;

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y: number, m: number): number =>
  m === 2 ? (isLeapYear(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;

/** Already the canonical form (years 0001–9999 as `toISOString` writes them). */
const canonical = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Digits at s[i], s[i + 1], … as a number (the caller has matched them). */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) v = v * 10 + (s.charCodeAt(k) - 48);
  return v;
}

/**
 * A string of the `canonical` shape that names a real instant: a calendar
 * date and a time of day. `Date` reads exactly those back to themselves
 * (years 0001–9999 keep four digits), so no other check is needed.
 */
function isCanonicalInstant(s: string): boolean {
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    digits(s, 11, 2) <= 23 &&
    digits(s, 14, 2) <= 59 &&
    digits(s, 17, 2) <= 59
  );
}

/** Parses an RFC 3339 timestamp into its canonical UTC form (`toISOString`). */
export function parseRfc3339(s: string): { value: string } | { error: string } {
  // Fast path for what replicas send (their stored form): a canonical string that
  // names a real instant is what the full parse would return. Anything else
  // (rolled-over dates, leap seconds, offsets) goes on.
  if (canonical.test(s) && isCanonicalInstant(s)) return { value: s };
  const m = pattern.exec(s);
  if (m === null) {
    return { error: "must be an RFC 3339 timestamp with a zone, e.g. 2026-01-01T00:00:00Z" };
  }
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = m[7] ?? "";
  const sign = m[9] === "-" ? -1 : 1;
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { error: "is not a calendar date" };
  }
  if (hour > 23 || minute > 59 || second > 59) {
    return { error: "is not a time of day (leap seconds are not supported)" };
  }
  if (offsetHours > 23 || offsetMinutes > 59) return { error: "has an invalid zone offset" };

  const date = new Date(0);
  // Not Date.UTC: it maps the years 0–99 to 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(fraction.slice(1, 4).padEnd(3, "0")));
  const ms = date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  if (!isTimestampInRange(ms)) {
    return { error: "is outside the years 0001-9999 (UTC)" };
  }
  return { value: new Date(ms).toISOString() };
}

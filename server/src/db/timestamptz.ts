/**
 * Postgres `timestamptz` text → Date, for every year from 0001 to 9999.
 *
 * Both drivers hand the text to `new Date(…)`, whose non-ISO parsing reads
 * years below 100 as 19xx/20xx ("0050-06-01 00:00:00+00" → 1950). An edit
 * re-reads and re-writes whole rows, so that would silently move old dates.
 */
const pattern =
  /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?( BC)?$/;

export function parseTimestamptz(text: string): Date {
  const m = pattern.exec(text);
  if (!m) return new Date(text); // infinity, -infinity: let Date say Invalid Date
  const [, y, mo, d, h, mi, s, frac, sign, oh, om, os, bc] = m;
  const year = bc ? 1 - Number(y) : Number(y);
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0–99 as they are.
  date.setUTCFullYear(year, Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), Math.floor(Number(`0.${frac ?? "0"}`) * 1000));
  if (sign) {
    const offset = (Number(oh) * 3600 + Number(om ?? 0) * 60 + Number(os ?? 0)) * 1000;
    date.setTime(date.getTime() - (sign === "+" ? offset : -offset));
  }
  return date;
}

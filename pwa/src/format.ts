/**
 * Dates and numbers in the chosen language (Intl). `useFormat()` re-renders with the language.
 * Timestamps come from the services as protobuf Timestamps; an unset one is shown as "—".
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { useLanguage } from "./i18n.ts";

const dash = "—";
const dayMs = 86_400_000;

export type When = Timestamp | Date | undefined;

export function toDate(when: When): Date | undefined {
  if (when === undefined) return undefined;
  return when instanceof Date ? when : timestampDate(when);
}

/** This device's IANA time zone: files a person reads or writes show days and times in it. */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function toTimestamp(date: Date): Timestamp {
  return timestampFromDate(date);
}

/** Whole local calendar days from `when` to `now` (0 = today). */
export function daysSince(when: When, now: Date = new Date()): number | undefined {
  const d = toDate(when);
  if (d === undefined) return undefined;
  const start = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  return Math.round((start(now) - start(d)) / dayMs);
}

/** A `<input type="datetime-local">` value for a date, in local time. */
export function toLocalInput(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}`;
}

/** A `<input type="date">` value for a date, in local time. */
export function toLocalDateInput(date: Date): string {
  return toLocalInput(date).slice(0, 10);
}

/** Parses a datetime-local or date input's value (local time); undefined when empty or bad. */
export function fromLocalInput(value: string): Date | undefined {
  if (value === "") return undefined;
  const [day, time = "00:00"] = value.split("T");
  const [y, m, d] = (day ?? "").split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  if (!y || !m || !d) return undefined;
  const date = new Date(y, m - 1, d, hh ?? 0, mm ?? 0);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Plain spaces made no-break spaces: the words stay on one line. */
export const unbreakable = (text: string): string => text.replaceAll(" ", "\u00a0");

export interface Format {
  readonly locale: string;
  date(when: When): string;
  dateTime(when: When): string;
  /** "Mar 2026" */
  month(when: When): string;
  number(n: number | undefined, digits?: number): string;
  /** "12.5 kg", never broken between the number and its unit */
  kg(n: number | undefined): string;
  celsius(n: number | undefined): string;
  percent(n: number | undefined): string;
  /** "today", "yesterday", "3 days ago", "in 2 days" */
  relativeDays(when: When, now?: Date): string;
  /** "5 minutes ago", "2 hours ago", "3 days ago": the largest whole unit since `when`. */
  relativeTime(when: When, now: Date): string;
}

export function makeFormat(locale: string): Format {
  const dateF = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
  const dateTimeF = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const monthF = new Intl.DateTimeFormat(locale, { month: "short", year: "numeric" });
  const relF = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  // Each number format made once, when first used (making one costs far more than using it: a
  // hive page formats hundreds of values).
  const numberFs = new Map<string, Intl.NumberFormat>();
  const numberF = (digits: number, unit?: string): Intl.NumberFormat => {
    const key = `${digits} ${unit ?? ""}`;
    let f = numberFs.get(key);
    if (f === undefined) {
      f = new Intl.NumberFormat(locale, {
        maximumFractionDigits: digits,
        ...(unit === undefined ? {} : { style: "unit", unit }),
      });
      numberFs.set(key, f);
    }
    return f;
  };
  const num = (n: number | undefined, digits = 1) =>
    n === undefined || Number.isNaN(n) ? dash : numberF(digits).format(n);
  // A number and its unit never part at the end of a line ("657,9" above "kg" in a narrow tile):
  // where the locale puts a plain space between them, a no-break space.
  const unit = (n: number | undefined, u: string, digits = 1) =>
    n === undefined || Number.isNaN(n) ? dash : unbreakable(numberF(digits, u).format(n));
  return {
    locale,
    date: (w) => {
      const d = toDate(w);
      return d ? dateF.format(d) : dash;
    },
    dateTime: (w) => {
      const d = toDate(w);
      return d ? dateTimeF.format(d) : dash;
    },
    month: (w) => {
      const d = toDate(w);
      return d ? monthF.format(d) : dash;
    },
    number: num,
    kg: (n) => unit(n, "kilogram"),
    celsius: (n) => unit(n, "celsius"),
    // A no-break space: "61 %" never breaks between the number and its sign.
    percent: (n) => (n === undefined ? dash : `${num(n, 0)}\u00a0%`),
    relativeDays: (w, now) => {
      const days = daysSince(w, now);
      return days === undefined ? dash : relF.format(-days, "day");
    },
    relativeTime: (w, now) => {
      const d = toDate(w);
      if (d === undefined) return dash;
      const minutes = Math.max(0, Math.floor((now.getTime() - d.getTime()) / 60_000));
      if (minutes < 60) return relF.format(-minutes, "minute");
      if (minutes < 48 * 60) return relF.format(-Math.floor(minutes / 60), "hour");
      return relF.format(-Math.floor(minutes / 1440), "day");
    },
  };
}

/** The locale of each language when the browser names none of its own. */
const usualLocale: Readonly<Record<string, string>> = {
  en: "en-GB",
  de: "de-DE",
  fr: "fr-FR",
  it: "it-IT",
  es: "es-ES",
  pl: "pl-PL",
};

/**
 * The locale for dates and numbers: the browser's own when it is in the chosen language (en-US
 * keeps month/day order), otherwise the language's usual one.
 */
export function localeOf(lng: string, preferred?: readonly string[]): string {
  const tags =
    preferred ??
    (typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]));
  const own = tags.find((tag) => tag.toLowerCase().split("-")[0] === lng && tag.includes("-"));
  return own ?? usualLocale[lng] ?? "en-GB";
}

const formats = new Map<string, Format>();

/**
 * The formatter of a locale, made once: every component of a screen shares it (each making its
 * own Intl formatters cost a hive page tens of milliseconds, issue 29).
 */
export function formatOf(locale: string): Format {
  let f = formats.get(locale);
  if (f === undefined) {
    f = makeFormat(locale);
    formats.set(locale, f);
  }
  return f;
}

/** The formatter of the current language. */
export function useFormat(): Format {
  const lng = useLanguage();
  return formatOf(localeOf(lng));
}

/**
 * Languages: English and German, chosen from the browser on the first visit and switchable in
 * settings (kept in localStorage). Every screen declares its own messages beside it with
 * `defineMessages`, so a screen's words travel in its own (lazily loaded) chunk, and German must
 * name every key English has (the type checks it).
 *
 *   const messages = defineMessages("hives", { en: { title: "Hives" }, de: { title: "Völker" } });
 *   const t = useMessages(messages);  t("title")
 *
 * `{{name}}` is replaced by `t(key, { name })`. Plurals: keys `days_one` / `days_other` (the
 * categories of Intl.PluralRules), called as `t("days", { count })`.
 *
 * Why not i18next: what the app needs is this lookup, interpolation and plural choice; i18next
 * (with react-i18next) added 15 KB gzipped to the first visit for features the app does not use,
 * and the first visit has a budget of 250 KB (docs/decisions.md).
 */
import { useSyncExternalStore } from "react";

export const languages = ["en", "de"] as const;
export type Language = (typeof languages)[number];

const storageKey = "hivekeep.language";

function storedLanguage(): Language | undefined {
  try {
    const v = window.localStorage.getItem(storageKey);
    return languages.find((l) => l === v);
  } catch {
    return undefined;
  }
}

/** The browser's first preferred language we speak; English otherwise. */
export function browserLanguage(preferred?: readonly string[]): Language {
  const tags =
    preferred ??
    (typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]));
  for (const tag of tags) {
    const base = tag.toLowerCase().split("-")[0];
    const found = languages.find((l) => l === base);
    if (found) return found;
  }
  return "en";
}

let language: Language =
  typeof window === "undefined" ? "en" : (storedLanguage() ?? browserLanguage());
const listeners = new Set<() => void>();

function setDocumentLanguage(): void {
  if (typeof document !== "undefined") document.documentElement.lang = language;
}
setDocumentLanguage();

export function currentLanguage(): Language {
  return language;
}

/** Switches the language now (every screen re-renders) and remembers it on this device. */
export function setLanguage(lng: Language): void {
  try {
    window.localStorage.setItem(storageKey, lng);
  } catch {
    // Not remembered (private mode): still switched for this visit.
  }
  if (lng === language) return;
  language = lng;
  setDocumentLanguage();
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current language; re-renders when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, currentLanguage, () => "en" as Language);
}

type PluralCategory = "zero" | "one" | "two" | "few" | "many" | "other";
type PluralBase<K> = K extends `${infer B}_${PluralCategory}` ? B : K;

export interface Messages<T extends Record<string, string>> {
  readonly bundles: { readonly en: T; readonly de: Readonly<Record<keyof T, string>> };
}

export function defineMessages<const T extends Record<string, string>>(
  _namespace: string,
  bundles: { en: T; de: { [K in keyof T]: string } },
): Messages<T> {
  return { bundles };
}

export type Translate<T extends Record<string, string>> = (
  key: PluralBase<keyof T & string>,
  values?: Readonly<Record<string, string | number>>,
) => string;

/** The translate function of a messages object: `Words<typeof hiveMessages>` (a pure helper's argument). */
export type Words<M extends Messages<Record<string, string>>> = Translate<M["bundles"]["en"]>;

const pluralRules = new Map<Language, Intl.PluralRules>();
function pluralOf(lng: Language, count: number): PluralCategory {
  let rules = pluralRules.get(lng);
  if (!rules) {
    rules = new Intl.PluralRules(lng);
    pluralRules.set(lng, rules);
  }
  return rules.select(count) as PluralCategory;
}

/** Looks a message up in a language (English when missing) and fills in its values. */
export function translate<T extends Record<string, string>>(
  messages: Messages<T>,
  lng: Language,
  key: string,
  values?: Readonly<Record<string, string | number>>,
): string {
  const bundle = messages.bundles[lng] as Readonly<Record<string, string>>;
  const en = messages.bundles.en as Readonly<Record<string, string>>;
  const count = values?.count;
  const plural =
    typeof count === "number" ? [`${key}_${pluralOf(lng, count)}`, `${key}_other`] : [];
  let text: string | undefined;
  for (const k of [...plural, key]) {
    text = bundle[k] ?? en[k];
    if (text !== undefined) break;
  }
  if (text === undefined) return key;
  if (values === undefined) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const v = values[name];
    return v === undefined ? whole : String(v);
  });
}

/** The messages of one screen in the current language; re-renders when the language changes. */
export function useMessages<T extends Record<string, string>>(messages: Messages<T>): Translate<T> {
  const lng = useLanguage();
  return (key, values) => translate(messages, lng, key, values);
}

/**
 * Languages: English, German, French, Italian, Spanish and Polish, chosen from the browser on the
 * first visit and switchable in settings (kept in localStorage). Every screen declares its English
 * messages beside it with `defineMessages`, so a screen's English travels in its own (lazily
 * loaded) chunk; English is the fallback and the source of the types.
 *
 * German, French, Italian, Spanish and Polish are one module each for the whole app
 * (pwa/src/locales/), loaded by dynamic import only when that language is chosen, so the first
 * visit carries none of them (its budget is 250 KB). Each is typed against every screen's
 * English (locales/catalog.ts): a missing key, or a missing plural form the language needs, is a
 * type error. The first render
 * waits for the chosen language's module (`languageReady`), so no screen flashes English first.
 *
 *   const messages = defineMessages("hives", { en: { title: "Hives" } });  // de: locales/de.ts
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

export const languages = ["en", "de", "fr", "it", "es", "pl"] as const;
export type Language = (typeof languages)[number];
/** The languages whose words load on demand, one module each (pwa/src/locales/). */
export type LoadedLanguage = Exclude<Language, "en">;

/** Every namespace's words in one loaded language: `{ [namespace]: { [key]: text } }`. */
export type Catalog = Readonly<Record<string, Readonly<Record<string, string>>>>;

// Literal import() calls, so the bundler makes one chunk per language.
const loaders: Record<LoadedLanguage, () => Promise<{ readonly default: Catalog }>> = {
  de: () => import("./locales/de.ts"),
  fr: () => import("./locales/fr.ts"),
  it: () => import("./locales/it.ts"),
  es: () => import("./locales/es.ts"),
  pl: () => import("./locales/pl.ts"),
};
const catalogs = new Map<Language, Catalog>();

const isLoaded = (lng: Language) => lng === "en" || catalogs.has(lng);

/** Loads a language's words if they are not here yet (English always is). */
export async function loadLanguage(lng: Language): Promise<void> {
  if (isLoaded(lng)) return;
  const catalog = (await loaders[lng as LoadedLanguage]()).default;
  catalogs.set(lng, catalog);
}

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
/** The language asked for last: a slower earlier load does not switch over a later choice. */
let wanted: Language = language;
const listeners = new Set<() => void>();

// Started at once, beside the first screen's chunk: the first render waits for it.
const firstLoad: Promise<void> = loadLanguage(language).catch(() => {
  // Not loadable (offline before it was ever cached): every message falls back to English.
});

/** Resolves once the starting language's words are here (or could not be loaded). */
export function languageReady(): Promise<void> {
  return firstLoad;
}

function setDocumentLanguage(): void {
  if (typeof document !== "undefined") document.documentElement.lang = language;
}
setDocumentLanguage();

export function currentLanguage(): Language {
  return language;
}

/**
 * Switches the language (every screen re-renders) and remembers it on this device: at once for
 * a language that is here, else once its words have loaded (the screen stays in the old language
 * meanwhile rather than showing a mix). Rejects when they cannot be loaded.
 */
export function setLanguage(lng: Language): Promise<void> {
  try {
    window.localStorage.setItem(storageKey, lng);
  } catch {
    // Not remembered (private mode): still switched for this visit.
  }
  wanted = lng;
  if (isLoaded(lng)) {
    switchTo(lng);
    return Promise.resolve();
  }
  return loadLanguage(lng).then(() => {
    if (wanted === lng) switchTo(lng);
  });
}

function switchTo(lng: Language): void {
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

export type PluralCategory = "zero" | "one" | "two" | "few" | "many" | "other";
type PluralBase<K> = K extends `${infer B}_${PluralCategory}` ? B : K;

export interface Messages<T extends Record<string, string>, N extends string = string> {
  /** The key of these messages in a loaded language's catalog (unique in the app). */
  readonly namespace: N;
  readonly bundles: { readonly en: T };
}

export function defineMessages<const N extends string, const T extends Record<string, string>>(
  namespace: N,
  bundles: { en: T },
): Messages<T, N> {
  return { namespace, bundles };
}

/** A messages object's words in one language: the loaded catalog's, or the bundled ones. */
function bundleOf(
  messages: Messages<Record<string, string>>,
  lng: Language,
): Readonly<Record<string, string>> | undefined {
  if (lng === "en") return messages.bundles.en;
  return catalogs.get(lng)?.[messages.namespace];
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
  const bundle = bundleOf(messages, lng) ?? {};
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

/**
 * The language of spreadsheets and CSV files made here: German in German, English otherwise.
 * Their column words live in client-core (en and de only, issue 26); a French, Italian, Spanish
 * or Polish reader gets the English file, which any spreadsheet program reads.
 */
export function useSheetLanguage(): "en" | "de" {
  return useLanguage() === "de" ? "de" : "en";
}

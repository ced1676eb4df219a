/**
 * Languages: English and German, chosen from the browser on the first visit and switchable in
 * settings (kept in localStorage). Every screen declares its own messages beside it with
 * `defineMessages`, so a screen's words travel in its own (lazily loaded) chunk, and German must
 * name every key English has (the type checks it).
 *
 *   const messages = defineMessages("hives", { en: { title: "Hives" }, de: { title: "Völker" } });
 *   const t = useMessages(messages);  t("title")
 *
 * Plurals follow i18next: keys `days_one` / `days_other`, called as t("days", { count }).
 */
import i18next, { type TOptions } from "i18next";
import { initReactI18next, useTranslation } from "react-i18next";

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
export function browserLanguage(): Language {
  const preferred =
    typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of preferred) {
    const base = tag.toLowerCase().split("-")[0];
    const found = languages.find((l) => l === base);
    if (found) return found;
  }
  return "en";
}

void i18next.use(initReactI18next).init({
  lng: storedLanguage() ?? browserLanguage(),
  fallbackLng: "en",
  supportedLngs: [...languages],
  resources: {},
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  initAsync: false,
});

const setDocumentLanguage = (lng: string) => {
  if (typeof document !== "undefined") document.documentElement.lang = lng;
};
setDocumentLanguage(i18next.language);
i18next.on("languageChanged", setDocumentLanguage);

export const i18n = i18next;

export function currentLanguage(): Language {
  return languages.find((l) => l === i18next.language) ?? "en";
}

/** Switches the language now and remembers it on this device. */
export function setLanguage(lng: Language): void {
  try {
    window.localStorage.setItem(storageKey, lng);
  } catch {
    // Not remembered (private mode): still switched for this visit.
  }
  void i18next.changeLanguage(lng);
}

type PluralBase<K> = K extends `${infer B}_${"zero" | "one" | "two" | "few" | "many" | "other"}`
  ? B
  : K;

export interface Messages<T extends Record<string, string>> {
  readonly ns: string;
  /** Only for the type. */
  readonly _keys?: T;
}

export function defineMessages<const T extends Record<string, string>>(
  ns: string,
  bundles: { en: T; de: { [K in keyof T]: string } },
): Messages<T> {
  i18next.addResourceBundle("en", ns, bundles.en, true, true);
  i18next.addResourceBundle("de", ns, bundles.de, true, true);
  return { ns };
}

export type Translate<T extends Record<string, string>> = (
  key: PluralBase<keyof T & string>,
  options?: TOptions,
) => string;

/** The messages of one screen in the current language; re-renders when the language changes. */
export function useMessages<T extends Record<string, string>>(messages: Messages<T>): Translate<T> {
  const { t } = useTranslation(messages.ns);
  return t as unknown as Translate<T>;
}

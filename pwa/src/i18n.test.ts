import { describe, expect, it } from "vitest";
import { localeOf } from "./format.ts";
import {
  browserLanguage,
  currentLanguage,
  defineMessages,
  loadLanguage,
  setLanguage,
  translate,
} from "./i18n.ts";
import { hiveMessages } from "./screens/hives/messages.ts";

const messages = defineMessages("test", {
  en: {
    title: "Hives",
    hives_one: "{{count}} hive",
    hives_other: "{{count}} hives",
    greet: "Hello {{name}}, {{ name }}!",
    onlyEnglish: "only here",
  },
});

describe("translate", () => {
  it("looks a key up in the language", async () => {
    expect(translate(messages, "en", "title")).toBe("Hives");
    await loadLanguage("de");
    expect(translate(hiveMessages, "de", "title")).toBe("Völker");
  });

  it("falls back to English for a namespace the language does not have", () => {
    expect(translate(messages, "de", "title")).toBe("Hives");
  });

  it("chooses the plural form by Intl.PluralRules", async () => {
    expect(translate(messages, "en", "hives", { count: 1 })).toBe("1 hive");
    expect(translate(messages, "en", "hives", { count: 0 })).toBe("0 hives");
    await loadLanguage("de");
    expect(translate(hiveMessages, "de", "count", { count: 1 })).toBe("1 Volk");
    expect(translate(hiveMessages, "de", "count", { count: 7 })).toBe("7 Völker");
  });

  it("fills in every named value, with or without spaces, and leaves unknown ones", () => {
    expect(translate(messages, "en", "greet", { name: "Ana" })).toBe("Hello Ana, Ana!");
    expect(translate(messages, "en", "greet", {})).toBe("Hello {{name}}, {{ name }}!");
  });

  it("answers the key itself for an unknown key", () => {
    expect(translate(messages, "en", "missing")).toBe("missing");
  });
});

describe("languages", () => {
  it("takes the browser's first language the app speaks, English otherwise", () => {
    expect(browserLanguage(["sv-SE", "de-AT", "en"])).toBe("de");
    expect(browserLanguage(["en-US", "de"])).toBe("en");
    expect(browserLanguage(["fr-CA", "de"])).toBe("fr");
    expect(browserLanguage(["pt-BR", "it-IT"])).toBe("it");
    expect(browserLanguage(["es-MX"])).toBe("es");
    expect(browserLanguage(["pl"])).toBe("pl");
    expect(browserLanguage(["sv"])).toBe("en");
    expect(browserLanguage([])).toBe("en");
  });

  it("formats in the browser's own locale of the chosen language, else the usual one", () => {
    expect(localeOf("en", ["en-US"])).toBe("en-US");
    expect(localeOf("de", ["de-AT", "en-US"])).toBe("de-AT");
    expect(localeOf("de", ["en-US"])).toBe("de-DE");
    expect(localeOf("en", ["de-DE"])).toBe("en-GB");
    expect(localeOf("fr", ["fr-CH"])).toBe("fr-CH");
    expect(localeOf("fr", ["en-US"])).toBe("fr-FR");
    expect(localeOf("it", [])).toBe("it-IT");
    expect(localeOf("es", [])).toBe("es-ES");
    expect(localeOf("pl", ["de-DE"])).toBe("pl-PL");
  });
});

describe("languages that load on demand", () => {
  it("choose Polish and French plural forms once loaded, English before", async () => {
    // Not loaded yet: English, never the key.
    expect(translate(hiveMessages, "es", "count", { count: 3 })).toBe("3 hives");
    await loadLanguage("pl");
    await loadLanguage("fr");
    const pl = (count: number) => translate(hiveMessages, "pl", "count", { count });
    expect([1, 2, 4, 5, 12, 22, 25, 1.5].map(pl)).toEqual([
      "1 ul",
      "2 ule",
      "4 ule",
      "5 uli",
      "12 uli",
      "22 ule",
      "25 uli",
      "1.5 ula",
    ]);
    expect(translate(hiveMessages, "fr", "count", { count: 0 })).toBe("0 ruche");
    expect(translate(hiveMessages, "fr", "count", { count: 1_000_000 })).toBe("1000000 ruches");
  });

  it("switches only when the words are here, and a later choice wins over a slower load", async () => {
    const storage = new Map<string, string>();
    const win = { localStorage: { setItem: (k: string, v: string) => storage.set(k, v) } };
    Object.defineProperty(globalThis, "window", { value: win, configurable: true });
    try {
      const italian = setLanguage("it");
      expect(currentLanguage()).toBe("en"); // still loading: no half-Italian screen
      void setLanguage("en"); // changed their mind before Italian arrived
      await italian;
      expect(currentLanguage()).toBe("en");
      await setLanguage("it");
      expect(currentLanguage()).toBe("it");
      expect(storage.get("hivekeep.language")).toBe("it");
      await setLanguage("en");
    } finally {
      Reflect.deleteProperty(globalThis, "window");
    }
  });
});

import { describe, expect, it } from "vitest";
import { localeOf } from "./format.ts";
import { browserLanguage, defineMessages, translate } from "./i18n.ts";

const messages = defineMessages("test", {
  en: {
    title: "Hives",
    hives_one: "{{count}} hive",
    hives_other: "{{count}} hives",
    greet: "Hello {{name}}, {{ name }}!",
    onlyEnglish: "only here",
  },
  de: {
    title: "Völker",
    hives_one: "{{count}} Volk",
    hives_other: "{{count}} Völker",
    greet: "Hallo {{name}}",
    onlyEnglish: "",
  },
});

describe("translate", () => {
  it("looks a key up in the language", () => {
    expect(translate(messages, "en", "title")).toBe("Hives");
    expect(translate(messages, "de", "title")).toBe("Völker");
  });

  it("chooses the plural form by Intl.PluralRules", () => {
    expect(translate(messages, "en", "hives", { count: 1 })).toBe("1 hive");
    expect(translate(messages, "en", "hives", { count: 0 })).toBe("0 hives");
    expect(translate(messages, "de", "hives", { count: 1 })).toBe("1 Volk");
    expect(translate(messages, "de", "hives", { count: 7 })).toBe("7 Völker");
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
    expect(browserLanguage(["fr-FR", "de-AT", "en"])).toBe("de");
    expect(browserLanguage(["en-US", "de"])).toBe("en");
    expect(browserLanguage(["fr"])).toBe("en");
    expect(browserLanguage([])).toBe("en");
  });

  it("formats in the browser's own locale of the chosen language, else the usual one", () => {
    expect(localeOf("en", ["en-US"])).toBe("en-US");
    expect(localeOf("de", ["de-AT", "en-US"])).toBe("de-AT");
    expect(localeOf("de", ["en-US"])).toBe("de-DE");
    expect(localeOf("en", ["de-DE"])).toBe("en-GB");
  });
});

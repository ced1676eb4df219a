/**
 * Every loaded language against English: the same keys, the same `{{placeholders}}`
 * in every message (a misspelt `{{name}}` fails here instead of rendering), and every plural form
 * the language's Intl.PluralRules chooses. The messages are found in the sources themselves, so a
 * new `defineMessages` anywhere is checked too.
 */
import { describe, expect, it } from "vitest";
import { type Catalog, type Language, languages, type Messages } from "../i18n.ts";

type AnyMessages = Messages<Record<string, string>>;

const sources = import.meta.glob<string>(["../**/*.{ts,tsx}", "!../**/*.test.{ts,tsx}"], {
  query: "?raw",
  import: "default",
  eager: true,
});
const modules = import.meta.glob<Record<string, unknown>>([
  "../**/*.{ts,tsx}",
  "!../**/*.test.{ts,tsx}",
]);
const catalogs = import.meta.glob<{ default: Catalog }>("./{de,fr,it,es,pl}.ts");

/** Every messages object of the app, by namespace. */
async function appMessages(): Promise<Map<string, AnyMessages>> {
  const found = new Map<string, AnyMessages>();
  for (const [path, text] of Object.entries(sources)) {
    if (!/defineMessages\(\s*"/.test(text) || path === "../i18n.ts") continue;
    const load = modules[path];
    if (!load) throw new Error(`no module for ${path}`);
    for (const value of Object.values(await load())) {
      if (value && typeof value === "object" && "bundles" in value && "namespace" in value) {
        const m = value as AnyMessages;
        expect(found.has(m.namespace), `namespace ${m.namespace} defined twice`).toBe(false);
        found.set(m.namespace, m);
      }
    }
  }
  return found;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const pluralSuffix = /_(zero|one|two|few|many|other)$/;

/** What is wrong with one language's words for one namespace (empty: nothing). */
function problemsOf(
  lng: Language,
  en: Readonly<Record<string, string>>,
  words: Readonly<Record<string, string>> | undefined,
): string[] {
  if (!words) return ["namespace missing"];
  const problems: string[] = [];
  const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
  const expected = new Map<string, string>();
  for (const [key, text] of Object.entries(en)) {
    expected.set(key, text);
    const plural = pluralSuffix.exec(key);
    if (!plural) continue;
    // The language's other forms carry what English's "other" carries.
    const base = key.slice(0, plural.index);
    for (const c of categories) {
      if (!expected.has(`${base}_${c}`)) expected.set(`${base}_${c}`, en[`${base}_other`] ?? text);
    }
  }
  for (const [key, english] of expected) {
    const text = words[key];
    const plural = pluralSuffix.exec(key);
    const needed = !plural || categories.includes(plural[1] as Intl.LDMLPluralRule);
    if (text === undefined) {
      if (needed) problems.push(`${key}: missing`);
      continue;
    }
    if (text.trim() === "") problems.push(`${key}: empty`);
    const want = placeholders(english).join(",");
    const got = placeholders(text).join(",");
    if (want !== got) problems.push(`${key}: {{${got}}} where English has {{${want}}}`);
  }
  for (const key of Object.keys(words)) {
    if (!expected.has(key)) problems.push(`${key}: not in English`);
  }
  return problems;
}

describe("translations", () => {
  it("finds the app's messages in the sources", async () => {
    const app = await appMessages();
    expect(app.size).toBeGreaterThan(15);
    expect(app.has("hives") && app.has("forms") && app.has("language")).toBe(true);
  });

  for (const lng of languages.filter((l) => l !== "en")) {
    it(`${lng} has every key, placeholder and plural form of English, and nothing else`, async () => {
      const app = await appMessages();
      const load = catalogs[`./${lng}.ts`];
      if (!load) throw new Error(`no module for ${lng}`);
      const catalog = (await load()).default;
      const problems = [...app.values()].flatMap((m) =>
        problemsOf(lng, m.bundles.en, catalog[m.namespace]).map(
          (p) => `${lng} ${m.namespace}.${p}`,
        ),
      );
      for (const ns of Object.keys(catalog)) {
        if (!app.has(ns)) problems.push(`${lng} ${ns}: no such namespace in the app`);
      }
      expect(problems).toEqual([]);
    });
  }

  it("names a wrong placeholder, a missing plural form and a stray key", () => {
    const en = {
      greet: "Hello {{name}}",
      hives_one: "{{count}} hive",
      hives_other: "{{count}} hives",
    };
    expect(
      problemsOf("pl", en, {
        greet: "Cześć {{imie}}",
        hives_one: "{{count}} ul",
        hives_few: "{{count}} ule",
        hives_other: "{{count}} ula",
        extra: "x",
      }),
    ).toEqual([
      "greet: {{imie}} where English has {{name}}",
      "hives_many: missing",
      "extra: not in English",
    ]);
    expect(
      problemsOf("fr", en, {
        greet: "Bonjour {{name}}",
        hives_one: "{{count}} ruche",
        hives_other: "ruches",
        hives_many: "{{count}} ruches",
      }),
    ).toEqual(["hives_other: {{}} where English has {{count}}"]);
  });
});

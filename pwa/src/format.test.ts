import { describe, expect, it } from "vitest";
import { makeFormat } from "./format.ts";

describe("makeFormat", () => {
  // The usual locale of each of the app's six languages, and a browser's own (en-US).
  const locales = ["en-GB", "en-US", "de-DE", "fr-FR", "it-IT", "es-ES", "pl-PL"];

  it.each(locales)("%s: a number and its unit never part at a line's end", (locale) => {
    const f = makeFormat(locale);
    for (const text of [f.kg(657.9), f.kg(1234.5), f.celsius(-3.5), f.percent(61)]) {
      // Only no-break spaces (U+00A0, U+202F) may stand between them, never a plain one.
      expect(text, text).not.toMatch(/ /);
      expect(text, text).toMatch(/\d/);
    }
  });

  it("keeps the language's own numbers", () => {
    expect(makeFormat("de-DE").kg(657.9)).toBe("657,9\u00a0kg");
    expect(makeFormat("en-GB").kg(657.9)).toBe("657.9\u00a0kg");
    expect(makeFormat("fr-FR").kg(1234.5)).toMatch(/^1\u202f234,5\s?kg$/);
  });
});

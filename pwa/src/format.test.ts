import { describe, expect, it } from "vitest";
import { formatOf, makeFormat } from "./format.ts";

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

describe("formatOf", () => {
  it("makes one formatter per locale, shared, whose formats keep their own digits and units", () => {
    const de = formatOf("de-DE");
    expect(formatOf("de-DE")).toBe(de);
    expect(formatOf("en-GB")).not.toBe(de);
    // Formats made once and reused: each keeps its own digits and unit, in any order of use.
    expect(de.number(1.26)).toBe("1,3");
    expect(de.percent(61.4)).toBe("61\u00a0%");
    expect(de.number(1.26, 2)).toBe("1,26");
    expect(de.kg(657.94)).toBe("657,9\u00a0kg");
    expect(de.celsius(-3.54)).toMatch(/^-3,5\s?°C$/);
    expect(de.kg(657.94)).toBe("657,9\u00a0kg");
    expect(de.number(1.26)).toBe("1,3");
  });
});

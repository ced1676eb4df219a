/**
 * The spreadsheet export writes enums in the words the app shows (core `sheet-labels.ts` holds
 * them for the export, `ui/messages.ts` for the screens): a beekeeper reads "Weisellos" in the
 * app and in the file alike.
 */
import { enumWords } from "@hivekeep/client-core/spreadsheets";
import { describe, expect, it } from "vitest";
import de from "../../locales/de.ts";
import { commonMessages } from "../../ui/messages.ts";

/** The app's message key prefix of each of the export's enums. */
const appPrefix: Record<string, string> = {
  hiveType: "hiveType",
  hiveStatus: "hiveStatus",
  priority: "priority",
  marking: "marking",
  stores: "stores",
  temperament: "temperament",
  event: "event",
};

describe("the export's enum words", () => {
  for (const lng of ["en", "de"] as const) {
    it(`are the app's words in ${lng}`, () => {
      const app: Readonly<Record<string, string>> =
        lng === "en" ? commonMessages.bundles.en : de.common;
      for (const [name, values] of Object.entries(enumWords)) {
        for (const [n, words] of Object.entries(values)) {
          expect(words[lng], `${name}.${n}`).toBe(app[`${appPrefix[name]}.${n}`]);
        }
      }
      // And the export knows every value the app names (but "not set", an empty cell).
      for (const key of Object.keys(app)) {
        const [prefix, n] = key.split(".");
        const name = Object.keys(appPrefix).find((k) => appPrefix[k] === prefix);
        if (name === undefined || n === undefined || n === "0") continue;
        expect(enumWords[name]?.[Number(n)], key).toBeDefined();
      }
    });
  }
});

/**
 * German, French, Italian, Spanish and Polish in the browser (each loads only when chosen): a
 * phone whose browser speaks the language
 * opens the app in it from the first paint (the language's words load before the first render,
 * no English flashes), a screen per language shows its words and its dates, and the settings
 * switch every language in place. French and Polish (the longest) visit the main screens at
 * 390 px: nothing is wider than the screen, no button's words overflow it, and a PNG of each is
 * written to e2e/screenshots/ to be looked at.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { type Season, seedSeason } from "./support/field.ts";

const screenshots = join(import.meta.dirname, "screenshots");

/** Each language: its browser locale and words the app must show in it. */
const spoken = {
  de: { locale: "de-DE", nav: "Völker", settings: "Einstellungen", inspect: "Durchsicht erfassen" },
  fr: { locale: "fr-FR", nav: "Ruches", settings: "Réglages", inspect: "Visiter" },
  it: { locale: "it-IT", nav: "Arnie", settings: "Impostazioni", inspect: "Ispeziona" },
  es: { locale: "es-ES", nav: "Colmenas", settings: "Ajustes", inspect: "Revisar" },
  pl: { locale: "pl-PL", nav: "Ule", settings: "Ustawienia", inspect: "Zrób przegląd" },
} as const;

const screens = [
  { name: "dashboard", path: () => "/" },
  { name: "hives", path: () => "/hives" },
  { name: "hive", path: (s: Season) => `/hives/${s.hiveId}` },
  { name: "inspection-form", path: (s: Season) => `/hives/${s.hiveId}/inspect` },
  { name: "treatment-form", path: (s: Season) => `/hives/${s.hiveId}/treatment` },
  { name: "tasks", path: () => "/tasks" },
  { name: "settings", path: () => "/settings" },
] as const;

/** Shows a screen by the app's own navigation and waits for its heading. */
async function show(page: Page, path: string): Promise<void> {
  await page.evaluate(async (to) => {
    window.history.pushState(null, "", to);
    await new Promise((done) => setTimeout(done, 0));
  }, path);
  await page.getByRole("heading", { level: 1 }).first().waitFor();
}

/** What sticks out at this width: the page, or a control whose words do not fit it. */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) out.push(`page ${root.scrollWidth}px`);
    for (const el of document.querySelectorAll<HTMLElement>("button, a, label, [role=tab]")) {
      if (el.offsetParent === null) continue;
      const r = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1 || r.right > root.clientWidth + 1) {
        out.push(`${el.tagName.toLowerCase()} “${el.textContent?.trim()}”`);
      }
    }
    return out;
  });

browserSuite("PWA: German, French, Italian, Spanish and Polish", () => {
  const app = useBrowserApp();
  let season: Season;
  beforeAll(async () => {
    season = await seedSeason(app.server);
    mkdirSync(screenshots, { recursive: true });
  });

  for (const [lng, words] of Object.entries(spoken)) {
    const long = lng === "fr" || lng === "pl";
    it(`${lng}: from the browser's language, no English first${long ? "; main screens fit 390 px" : ""}`, async () => {
      const { page, context, pageErrors } = await app.openPage({
        locale: words.locale,
        serviceWorkers: "block",
      });
      // Watches every change of the page from its first paint for the English navigation.
      await context.addInitScript(() => {
        const w = window as unknown as { sawEnglish?: boolean };
        new MutationObserver(() => {
          const nav = document.querySelector("nav")?.textContent ?? "";
          if (/Hives|Overview/.test(nav)) w.sawEnglish = true;
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      // The language's chunk is held back until the app has had its chance to render without it:
      // nothing may render meanwhile (the first render waits for the words), in any language.
      let requested: () => void = () => undefined;
      const chunkRequested = new Promise<void>((done) => {
        requested = done;
      });
      let release: () => void = () => undefined;
      const released = new Promise<void>((done) => {
        release = done;
      });
      await context.route(new RegExp(`/assets/${lng}-[^/]*\\.js$`), async (route) => {
        requested();
        await released;
        await route.continue();
      });
      await page.goto(app.server.url);
      await chunkRequested;
      // A grace period for a wrong first render to happen, not a measure of speed.
      await page.waitForTimeout(1500);
      expect(await page.locator("#root").textContent()).toBe("");
      release();
      await page.getByRole("navigation").first().getByText(words.nav).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lng);

      // Numbers in the language's own way: the season's honey with a decimal comma.
      await expect.poll(() => page.locator("main").textContent()).toMatch(/21,5\s?kg/);
      expect(await page.locator("main").textContent()).not.toMatch(/21\.5/);
      await show(page, `/hives/${season.hiveId}`);
      await page.getByRole("link", { name: words.inspect, exact: true }).first().waitFor();

      if (long) {
        for (const screen of screens) {
          await show(page, screen.path(season));
          await page.screenshot({
            path: join(screenshots, `${screen.name}-phone-${lng}.png`),
            fullPage: true,
          });
          expect(await overflowing(page), `${screen.name} in ${lng} at 390 px`).toEqual([]);
        }
      }

      // The settings switch to another language in place, each named in its own.
      await show(page, "/settings");
      await page.getByRole("heading", { level: 1, name: words.settings }).waitFor();
      const other = lng === "pl" ? "Français" : "Polski";
      // Checked once its words have loaded (the radio follows the language in use).
      await page.getByLabel(other, { exact: true }).click();
      await page
        .getByRole("heading", { level: 1, name: lng === "pl" ? "Réglages" : "Ustawienia" })
        .waitFor();
      expect(await page.evaluate(() => (window as { sawEnglish?: boolean }).sawEnglish)).toBe(
        undefined,
      );
      expect(pageErrors).toEqual([]);
    }, 60_000);
  }
});

/**
 * Every main screen on a phone (the signed-in app's, and a hosted server's sign-in, API keys and
 * members), in every language of support/screens.ts:
 *
 * - every visible control (button, link, input, select, textarea, role=button, summary, the
 *   label around a checkbox or radio) is at least 48×48 CSS px at 390 px width, the size a gloved
 *   finger hits (README). Links inside running text are aside: a sentence's line height is theirs.
 * - at 320 px width (the narrowest phone in use) nothing scrolls sideways: the document is no
 *   wider than the window, with every chart's "Values as a table" open (a table scrolls inside
 *   its card instead).
 *
 * - every form leaves checking to the app (noValidate): its own message for a required field.
 * - the header is one line at 390 px: no taller than its home link (the sync state fits beside
 *   "Hivekeep" in every language), unless something needs attention (its link takes a line).
 * - at desktop size (1280×800) nothing scrolls sideways either, and no text is cut off by a box
 *   too small for it (an element that hides its overflow while its content is wider or taller).
 *
 * The needs-attention screen is shown with one change the server refused (a Push rewritten in
 * flight, as e2e/attention.test.ts does), so its list, and the sync bar's link to it, are measured.
 *
 * Screenshots at 320 px are written to e2e/screenshots/<screen>-narrow-<lang>.png, to be looked at
 * (a11y.test.ts writes them at 390 and 1280 px).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test/support/server.ts";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { rewriteOnePushedChange, type Season, seedSeason } from "./support/field.ts";
import { ensurePwaBuilt } from "./support/pwa.ts";
import { allLocales, screens, screenshot, show, syncedOnce } from "./support/screens.ts";

const screenshots = join(import.meta.dirname, "screenshots");

/** The smallest target, in CSS px (README: "big targets for gloved fingers"). */
const minTarget = 48;
/** The narrowest phone width the app must fit without sideways scrolling. */
const narrow = 320;
/** A desktop window. */
const desktop = { width: 1280, height: 800 };

/** A control smaller than a finger: where it is, what it says, its size. */
interface SmallTarget {
  readonly control: string;
  readonly width: number;
  readonly height: number;
}

/**
 * The visible controls of the page smaller than `min` in either direction. A checkbox or radio
 * counts by the label around it (the label is what the finger hits); a link whose block holds
 * more text than the link is in running text and is left aside.
 */
function smallTargets(page: Page, min: number): Promise<SmallTarget[]> {
  return page.evaluate((min) => {
    const selector =
      "button, a[href], input:not([type=hidden]), select, textarea, [role=button], summary";
    const blocks = new Set(["block", "flex", "grid", "list-item", "table-cell"]);
    const inRunningText = (el: Element): boolean => {
      if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
      let block = el.parentElement;
      while (block !== null && !blocks.has(getComputedStyle(block).display)) {
        block = block.parentElement;
      }
      return (block?.textContent ?? "").trim() !== (el.textContent ?? "").trim();
    };
    const describe = (el: Element): string => {
      const name =
        el.getAttribute("aria-label") ??
        (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40) ??
        "";
      const cls = el.getAttribute("class") ?? "";
      const type = el.getAttribute("type");
      return `<${el.tagName.toLowerCase()}${type ? ` type=${type}` : ""}${cls ? ` class="${cls}"` : ""}> "${name}"`;
    };
    const found: { control: string; width: number; height: number }[] = [];
    const seen = new Set<Element>();
    for (const control of document.querySelectorAll(selector)) {
      // A checkbox, radio or file input is hit through its label (the input itself may be
      // hidden under it, as the photo buttons' are).
      const labelled =
        control instanceof HTMLInputElement && ["checkbox", "radio", "file"].includes(control.type);
      const box = labelled ? (control.closest("label") ?? control.labels?.[0] ?? control) : control;
      if (seen.has(box)) continue;
      seen.add(box);
      const style = getComputedStyle(box);
      const rect = box.getBoundingClientRect();
      // Not shown: nothing to hit (a hidden part, the skip link off screen until focused).
      if (style.visibility === "hidden" || rect.width === 0 || rect.height === 0) continue;
      if (rect.right <= 0 || rect.bottom <= 0 || box.closest("[hidden],[aria-hidden=true]")) {
        continue;
      }
      if (inRunningText(box)) continue;
      // Half a pixel of rounding is no smaller target.
      if (rect.width + 0.5 < min || rect.height + 0.5 < min) {
        found.push({
          control: describe(box),
          width: Math.round(rect.width),
          height: Math.round(rect.height),
        });
      }
    }
    return found;
  }, min);
}

/**
 * Opens every chart's table of values ("Values as a table") on the screen, by a click on each
 * button (in the page: a pointer would wait for the charts above, which draw as they come near).
 */
async function openChartTables(page: Page): Promise<void> {
  const opened = await page.evaluate(() => {
    const toggles = [...document.querySelectorAll(".chart__toggle[aria-expanded=false]")];
    for (const toggle of toggles) (toggle as HTMLButtonElement).click();
    return toggles.length;
  });
  if (opened > 0)
    await page
      .locator(".chart__values")
      .nth(opened - 1)
      .waitFor();
}

/**
 * How much wider than the window the document is (0: no sideways scrolling), and the outermost
 * elements that stick out past its right edge (what to fix).
 */
const overflow = (page: Page): Promise<{ extra: number; culprits: string[] }> =>
  page.evaluate(() => {
    const root = document.documentElement;
    const extra = root.scrollWidth - root.clientWidth;
    const culprits: string[] = [];
    if (extra > 0) {
      for (const el of document.body.querySelectorAll("*")) {
        const right = el.getBoundingClientRect().right;
        const parent = el.parentElement;
        if (right <= root.clientWidth + 0.5) continue;
        if (parent !== null && parent.getBoundingClientRect().right > root.clientWidth + 0.5) {
          continue;
        }
        culprits.push(`<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}">`);
      }
    }
    return { extra, culprits: culprits.slice(0, 5) };
  });

/**
 * How much taller than one line the header is at the current width: the header's height against
 * its home link's (48 px) and its padding. 0 for one line; undefined while something needs
 * attention (its link takes a line of its own, on purpose) or on a screen without the header.
 */
const headerExtra = (page: Page): Promise<number | undefined> =>
  page.evaluate(() => {
    const header = document.querySelector(".app-header");
    const home = document.querySelector(".app-header__home");
    if (header === null || home === null || header.querySelector(".syncbar__attention")) {
      return undefined;
    }
    const style = getComputedStyle(header);
    const oneLine =
      home.getBoundingClientRect().height +
      Number.parseFloat(style.paddingTop) +
      Number.parseFloat(style.paddingBottom);
    return Math.max(0, Math.round(header.getBoundingClientRect().height - oneLine));
  });

/**
 * Text cut off or sticking out: visible elements that clip their overflow (hidden or clip; a
 * scroller is not cut) while their content is wider or taller than their box, and blocks of text
 * alone (no child elements) whose words are wider than the box ("504,4 kg" past its tile's edge).
 * A visually hidden element (1 px, for screen readers) is meant to be.
 */
const cutOff = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      const style = getComputedStyle(el);
      const clips = (o: string) => o === "hidden" || o === "clip";
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1 || style.visibility === "hidden") continue;
      const textAlone =
        el.childElementCount === 0 &&
        style.display !== "inline" &&
        style.overflowX === "visible" &&
        (el.textContent ?? "").trim() !== "";
      if (textAlone && el.scrollWidth > el.clientWidth + 1) {
        const text = (el.textContent ?? "").trim().slice(0, 40);
        found.push(
          `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}"> "${text}" sticks out`,
        );
        continue;
      }
      if (!clips(style.overflowX) && !clips(style.overflowY)) continue;
      const wide = clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const tall = clips(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
      if (!wide && !tall) continue;
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      found.push(
        `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}"> "${text}"`,
      );
    }
    return found;
  });

browserSuite(
  "PWA on a phone: glove-sized targets, no sideways scrolling, the app's own form checks",
  () => {
    const app = useBrowserApp();
    let season: Season;
    let hosted: TestServer | undefined;
    beforeAll(async () => {
      season = await seedSeason(app.server);
      // The sign-in screen and an account's settings (API keys, members) are a hosted server's.
      hosted = await startTestServer("pglite", {
        HIVEKEEP_PWA_DIR: ensurePwaBuilt(),
        HIVEKEEP_AUTH: "login",
      });
      mkdirSync(screenshots, { recursive: true });
    });
    afterAll(async () => {
      await hosted?.stop();
    });

    for (const locale of allLocales) {
      const lang = locale.slice(0, 2);
      it(`${lang}: every control ≥ ${minTarget} px and a one-line header at 390 px; nothing wider than ${narrow} or ${desktop.width} px, nothing cut`, async () => {
        const small: string[] = [];
        const wide: string[] = [];
        const browserChecked: string[] = [];
        const tallHeader: string[] = [];
        const cut: string[] = [];
        /** Measures the screen shown at 390 px, then at 320 px and 1280 px (and back). */
        const check = async (page: Page, name: string) => {
          await page.setViewportSize({ width: 390, height: 844 });
          const extraHeight = await headerExtra(page);
          if (extraHeight !== undefined && extraHeight > 0) {
            tallHeader.push(`${name}: the header is ${extraHeight} px taller than one line`);
          }
          await openChartTables(page);
          for (const s of await smallTargets(page, minTarget)) {
            small.push(`${name}: ${s.control} is ${s.width}×${s.height}`);
          }
          // The app says what a required field lacks, in its words and the same for empty and
          // for spaces: no form leaves it to the browser's "Please fill out this field".
          const unchecked = await page.locator("form:not([novalidate])").count();
          if (unchecked > 0) browserChecked.push(`${name}: ${unchecked} form(s)`);
          await page.setViewportSize({ width: narrow, height: 700 });
          await screenshot(page, join(screenshots, `${name}-narrow-${lang}.png`));
          const { extra, culprits } = await overflow(page);
          if (extra > 0) {
            wide.push(`${name}: ${extra} px wider than ${narrow} (${culprits.join(", ")})`);
          }
          await page.setViewportSize(desktop);
          const atDesktop = await overflow(page);
          if (atDesktop.extra > 0) {
            wide.push(
              `${name}: ${atDesktop.extra} px wider than ${desktop.width} (${atDesktop.culprits.join(", ")})`,
            );
          }
          for (const c of await cutOff(page)) cut.push(`${name} at ${desktop.width} px: ${c}`);
          await page.setViewportSize({ width: 390, height: 844 });
          for (const c of await cutOff(page)) cut.push(`${name} at 390 px: ${c}`);
        };

        const { page, pageErrors } = await app.openPage({ locale, serviceWorkers: "block" });
        await page.goto(app.server.url);
        await syncedOnce(page);
        for (const screen of screens) {
          await show(page, screen.path(season));
          await check(page, screen.name);
        }

        // Needs attention: a new apiary whose Push is rewritten to a blank name, which the
        // server refuses (the form is filled by position: its labels are in the page's language).
        const { rewritten } = await rewriteOnePushedChange(page, (c) =>
          c.entity === "apiary"
            ? { ...c, payloadJson: JSON.stringify({ ...c.payload, name: " " }) }
            : undefined,
        );
        await show(page, "/apiaries/new");
        await page.locator("form input").first().fill(`Refused ${lang}`);
        await page.locator("form [type=submit]").click();
        await rewritten;
        await show(page, "/sync");
        await page.locator("main").getByRole("listitem").first().waitFor();
        await check(page, "attention");

        // Signed out on a hosted server, then signed up: the account's settings.
        const account = await app.openPage({ locale, serviceWorkers: "block" });
        await account.page.goto(hosted?.url ?? "");
        await account.page.getByRole("heading", { level: 1 }).waitFor();
        await check(account.page, "sign-in");
        await account.page.getByRole("tab").last().click();
        await account.page
          .getByLabel(/^(Email|E-Mail|E-mail|Correo electrónico)$/)
          .fill(`owner-${lang}@example.org`);
        await account.page
          .getByLabel(/^(Password|Passwort|Mot de passe|Contraseña|Hasło)$/)
          .fill("a long good password");
        await account.page
          .getByLabel(
            /^(Organization name|Name der Organisation|Nom de l’organisation|Nome dell’organizzazione|Nombre de la organización|Nazwa organizacji)$/,
          )
          .fill("Imkerei Lindenhof");
        await account.page
          .getByRole("button", {
            name: /^(Create account|Konto erstellen|Créer le compte|Crea account|Crear cuenta|Załóż konto)$/,
          })
          .click();
        await account.page.getByRole("navigation").first().waitFor();
        for (const [name, path] of [
          ["settings-hosted", "/settings"],
          ["api-keys", "/settings/api-keys"],
          ["members", "/settings/members"],
        ] as const) {
          await show(account.page, path);
          await check(account.page, name);
        }

        expect({ small, wide, browserChecked, tallHeader, cut }).toEqual({
          small: [],
          wide: [],
          browserChecked: [],
          tallHeader: [],
          cut: [],
        });
        expect(pageErrors).toEqual([]);
        expect(account.pageErrors).toEqual([]);
      }, 150_000);
    }
  },
);

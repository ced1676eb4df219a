/**
 * The main screens of the signed-in app and how a browser test shows each one, shared by the
 * tests that visit them all (a11y.test.ts: axe and screenshots; layout.test.ts: target sizes and
 * no sideways scrolling), so a screen added here is checked by both.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { Season } from "./field.ts";

export interface Screen {
  /** The file name's first part. */
  readonly name: string;
  readonly path: (s: Season) => string;
}

/** The screens of the signed-in app, in the order they are visited. */
export const screens: readonly Screen[] = [
  { name: "dashboard", path: () => "/" },
  { name: "apiaries", path: () => "/apiaries" },
  { name: "apiary", path: (s) => `/apiaries/${s.apiaryId}` },
  { name: "apiary-form", path: (s) => `/apiaries/${s.apiaryId}/edit` },
  { name: "hives", path: () => "/hives" },
  { name: "hive", path: (s) => `/hives/${s.hiveId}` },
  { name: "hive-form", path: (s) => `/hives/${s.hiveId}/edit` },
  { name: "hive-new", path: () => "/hives/new" },
  { name: "hive-relocate", path: (s) => `/hives/${s.hiveId}/relocate` },
  { name: "inspection-form", path: (s) => `/hives/${s.hiveId}/inspect` },
  { name: "inspection", path: (s) => `/inspections/${s.inspectionId}` },
  { name: "inspection-edit", path: (s) => `/inspections/${s.inspectionId}/edit` },
  { name: "queen-form", path: (s) => `/hives/${s.hiveId}/queen` },
  { name: "treatment-form", path: (s) => `/hives/${s.hiveId}/treatment` },
  { name: "treatment-edit", path: (s) => `/treatments/${s.treatmentId}/edit` },
  { name: "queen-edit", path: (s) => `/queens/${s.queenId}/edit` },
  { name: "harvest-form", path: (s) => `/hives/${s.hiveId}/harvest` },
  { name: "tasks", path: () => "/tasks" },
  { name: "task-form", path: (s) => `/tasks/new?hive=${s.hiveId}` },
  { name: "task-edit", path: (s) => `/tasks/${s.taskId}/edit` },
  { name: "settings", path: () => "/settings" },
  { name: "register", path: () => "/register" },
  { name: "stock-card", path: (s) => `/hives/${s.hiveId}/stock-card` },
];

/**
 * The browser locales every screen is checked in (the app's language follows the browser's).
 * Another language is one more entry here.
 */
export const locales: readonly string[] = ["en-US", "de-DE"];

/** Every language the app speaks: the layout test (targets, 320 px) runs in each. */
export const allLocales: readonly string[] = [...locales, "fr-FR", "it-IT", "es-ES", "pl-PL"];

const notFound =
  /^(Not found|Nicht gefunden|Introuvable|Non trovato|No encontrado|Nie znaleziono)$/;
const loading = /^(Loading…|Lädt…|Chargement…|Caricamento…|Cargando…|Wczytywanie…)$/;

/**
 * Shows a screen by the app's own navigation (no reload) and waits until it has drawn: a
 * level-1 heading, nothing loading, every image decoded.
 */
export async function show(page: Page, path: string): Promise<void> {
  await page.evaluate(async (to) => {
    window.history.pushState(null, "", to);
    // The router re-renders in a microtask; after a task, the new screen (or its "Loading…")
    // is on the page.
    await new Promise((done) => setTimeout(done, 0));
  }, path);
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await expect.poll(() => page.getByText(loading).count()).toBe(0);
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  const title = (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
  expect(title, `${path} shows a record the device has`).not.toMatch(notFound);
}

/** The sync bar has finished a first sync (in any language). */
export const syncedOnce = (page: Page) =>
  page
    .getByRole("status")
    .filter({
      hasText:
        /Synced|Synchronisiert ·|Synchronisé|Sincronizzato|Sincronizado|Zsynchronizowano|Last synced|Zuletzt synchronisiert|Dernière synchronisation|Ultima sincronizzazione|Última sincronización|Ostatnia synchronizacja/,
    })
    .waitFor();

/** What a screen shows while a part of it is still coming (charts load when they come near). */
const stillLoading = new RegExp(
  `${loading.source}|^(Loading the chart…|Diagramm wird geladen…|Chargement du graphique…|Caricamento del grafico…|Cargando el gráfico…|Wczytywanie wykresu…)$`,
);

/**
 * Whether the screenshots for people to look at are taken: not in CI (CI=true), where nobody
 * looks at them and encoding hundreds of full-page PNGs cost minutes of the browser tests;
 * HIVEKEEP_SCREENSHOTS=1 takes them there too.
 */
export const screenshotsWanted = !process.env.CI || process.env.HIVEKEEP_SCREENSHOTS === "1";

/**
 * The whole page as a person scrolling it would see it: the window is made as tall as the
 * page for the picture (so the bottom navigation sits at the bottom instead of over the middle,
 * and charts that load on coming near have loaded), until the page's height holds still.
 */
export async function screenshot(page: Page, path: string): Promise<void> {
  const viewport = page.viewportSize();
  if (viewport === null) throw new Error("the page has no viewport size");
  let height = viewport.height;
  for (let round = 0; round < 5; round++) {
    // Two frames: what came into view has been told so (and started loading).
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await expect.poll(() => page.getByText(stillLoading).count()).toBe(0);
    // The screen has loaded; the picture is for people (CI takes none).
    if (!screenshotsWanted) return;
    const now = await page.evaluate(() => document.documentElement.scrollHeight);
    if (now <= height) break;
    height = now;
    await page.setViewportSize({ width: viewport.width, height });
  }
  await page.screenshot({ path });
  if (height !== viewport.height) await page.setViewportSize(viewport);
}

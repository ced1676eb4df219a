/**
 * First load: the gzipped JavaScript a phone downloads on its first visit to the field app, until
 * the first screen is on it (target ≤ 250 KB), and the gzipped CSS beside it. Chromium opens the
 * built PWA (pwa/dist, built afresh once per bench run) from the real server in a fresh profile;
 * every script and every stylesheet the page requests is counted at its gzip size (level 9, what a
 * compressing proxy or CDN sends). The service worker's background precache of the other screens
 * is not part of the visit. Two visits: a new user's phone, and a desktop opening an account with
 * a season's records; each figure is the larger.
 *
 * The CSS's target: the first visit loads the shell's styles and the first screen's, less than all
 * the app's (every screen's styles travel with its lazily loaded chunk, `pwa/src/styles.css` has
 * only the shell's); the stylesheets of pwa/dist, all gzipped alike, are the comparison.
 *
 * A size, not a speed: the same on any machine and database, so it has no baseline.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { launchChromium, newPhoneContext } from "../../e2e/support/chromium.ts";
import { seedSeason } from "../../e2e/support/field.ts";
import { ensurePwaBuilt } from "../../e2e/support/pwa.ts";
import { startTestServer } from "../support/server.ts";
import type { BenchContext, BenchRun } from "./report.ts";

const targetKb = 250;
/** pwa/dist, built once per bench run, so the figure is the code's as it is. */
let built: string | undefined;
type Browser = Awaited<ReturnType<typeof launchChromium>>;

interface Files {
  readonly gzipKb: number;
  readonly rawKb: number;
  readonly files: { file: string; bytes: number; gzip: number; gzipKb: number }[];
}

interface Visit {
  readonly scripts: Files;
  readonly styles: Files;
}

const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
const gzipped = (body: Buffer) => ({
  bytes: body.length,
  gzip: gzipSync(body, { level: 9 }).length,
});

/** Files and their sizes, largest first, with the totals. */
function total(files: { file: string; bytes: number; gzip: number }[]): Files {
  const sorted = [...files].sort((a, b) => b.gzip - a.gzip);
  return {
    gzipKb: kb(sorted.reduce((n, f) => n + f.gzip, 0)),
    rawKb: kb(sorted.reduce((n, f) => n + f.bytes, 0)),
    files: sorted.map((f) => ({ ...f, gzipKb: kb(f.gzip) })),
  };
}

/** Every stylesheet of the build (each screen's, and the shell's), as the visits count them. */
function allStyles(dist: string): Files {
  const assets = join(dist, "assets");
  return total(
    readdirSync(assets)
      .filter((f) => f.endsWith(".css"))
      .map((f) => ({ file: `/assets/${f}`, ...gzipped(readFileSync(join(assets, f))) })),
  );
}

/**
 * One first visit in a fresh profile: every script and stylesheet the page asks for until its
 * first screen.
 */
async function visit(browser: Browser, url: string, desktop: boolean): Promise<Visit> {
  const context = desktop
    ? await browser.newContext({ viewport: { width: 1280, height: 800 } })
    : await newPhoneContext(browser);
  try {
    const page = await context.newPage();
    type Sizes = Map<string, Promise<{ bytes: number; gzip: number }>>;
    const scripts: Sizes = new Map();
    const styles: Sizes = new Map();
    page.on("response", (response) => {
      const request = response.request();
      const kind = request.resourceType();
      const into = kind === "script" ? scripts : kind === "stylesheet" ? styles : undefined;
      if (into === undefined || into.has(request.url())) return;
      into.set(request.url(), response.body().then(gzipped));
    });
    await page.goto(url, { waitUntil: "load" });
    // The first screen: the overview's heading (single-user mode opens straight into the app),
    // with its figures once the replica has them.
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await page.waitForLoadState("load");
    // The screen draws its charts once the replica has the season, which loads their code and
    // styles: the visit is over when no script or stylesheet has been asked for in a second.
    let count = -1;
    while (count !== scripts.size + styles.size) {
      count = scripts.size + styles.size;
      await page.waitForTimeout(1000);
    }
    const sized = async (m: Sizes) =>
      total(
        await Promise.all(
          [...m].map(async ([u, size]) => ({ file: new URL(u).pathname, ...(await size) })),
        ),
      );
    return { scripts: await sized(scripts), styles: await sized(styles) };
  } finally {
    await context.close();
  }
}

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  built ??= ensurePwaBuilt(true);
  const server = await startTestServer("pglite", {
    HIVEKEEP_PWA_DIR: built,
    ...(ctx.databaseUrl ? { DATABASE_URL: ctx.databaseUrl } : {}),
  });
  const browser = await launchChromium();
  try {
    // A new user's phone (nothing recorded yet), then a season's records on a desktop (the
    // overview draws its figures, lists and charts).
    const emptyVisit = await visit(browser, server.url, false);
    await seedSeason(server);
    const seasonVisit = await visit(browser, server.url, true);
    const larger = (a: Files, b: Files) => (a.gzipKb >= b.gzipKb ? a : b);
    const largest = (v: Files, n = 3) =>
      v.files
        .slice(0, n)
        .map((f) => `${f.file} ${f.gzipKb} KB`)
        .join(", ");
    const [empty, season] = [emptyVisit.scripts, seasonVisit.scripts];
    const worst = larger(empty, season);
    const [emptyCss, seasonCss] = [emptyVisit.styles, seasonVisit.styles];
    const worstCss = larger(emptyCss, seasonCss);
    const everyCss = allStyles(built);
    return [
      {
        name: "first-load",
        database: ctx.database,
        value: worst.gzipKb,
        unit: "KB gzipped JavaScript",
        baseline: null,
        baselineValue: null,
        ratio: null,
        target: `≤ ${targetKb} KB`,
        met: worst.gzipKb <= targetKb,
        notes: `the larger of two first visits: a new user's phone (${empty.gzipKb} KB in ${empty.files.length} files) and a desktop with a season (${season.gzipKb} KB in ${season.files.length} files); largest: ${largest(worst)}`,
        details: {
          "phone, empty: KB gzipped": empty.gzipKb,
          "phone, empty: KB raw": empty.rawKb,
          "desktop, season: KB gzipped": season.gzipKb,
          "desktop, season: KB raw": season.rawKb,
        },
      },
      {
        name: "first-load-css",
        database: ctx.database,
        value: worstCss.gzipKb,
        unit: "KB gzipped CSS",
        baseline: `all the app's CSS (${everyCss.files.length} stylesheets in pwa/dist)`,
        baselineValue: everyCss.gzipKb,
        ratio: Math.round((everyCss.gzipKb / worstCss.gzipKb) * 100) / 100,
        target: "< all the app's CSS (the shell's and the first screen's only)",
        met: worstCss.gzipKb < everyCss.gzipKb,
        notes: `the larger of the same two first visits: phone, empty (${emptyCss.gzipKb} KB in ${emptyCss.files.length} files) and desktop, season (${seasonCss.gzipKb} KB in ${seasonCss.files.length} files): ${largest(worstCss, 8)}`,
        details: {
          "phone, empty: KB gzipped": emptyCss.gzipKb,
          "phone, empty: KB raw": emptyCss.rawKb,
          "desktop, season: KB gzipped": seasonCss.gzipKb,
          "desktop, season: KB raw": seasonCss.rawKb,
          "all the app's CSS: KB gzipped": everyCss.gzipKb,
          "all the app's CSS: KB raw": everyCss.rawKb,
        },
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

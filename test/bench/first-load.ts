/**
 * First load: the gzipped JavaScript a phone downloads on its first visit to the field app, until
 * the first screen is on it (target ≤ 250 KB). Chromium opens the built PWA (pwa/dist, built afresh
 * once per bench run) from the real server in a fresh profile; every script the
 * page requests is counted at its gzip size (level 9, what a compressing proxy or CDN sends).
 * The service worker's background precache of the other screens is not part of the visit. Two
 * visits: a new user's phone, and a desktop opening an account with a season's records; the
 * figure is the larger.
 *
 * A size, not a speed: the same on any machine and database, so it has no baseline.
 */
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

interface Visit {
  readonly gzipKb: number;
  readonly rawKb: number;
  readonly files: { file: string; bytes: number; gzip: number; gzipKb: number }[];
}

/** One first visit in a fresh profile: every script the page asks for until its first screen. */
async function visit(browser: Browser, url: string, desktop: boolean): Promise<Visit> {
  const context = desktop
    ? await browser.newContext({ viewport: { width: 1280, height: 800 } })
    : await newPhoneContext(browser);
  try {
    const page = await context.newPage();
    const scripts = new Map<string, Promise<{ bytes: number; gzip: number }>>();
    page.on("response", (response) => {
      const request = response.request();
      if (request.resourceType() !== "script" || scripts.has(request.url())) return;
      scripts.set(
        request.url(),
        response
          .body()
          .then((body) => ({ bytes: body.length, gzip: gzipSync(body, { level: 9 }).length })),
      );
    });
    await page.goto(url, { waitUntil: "load" });
    // The first screen: the overview's heading (single-user mode opens straight into the app),
    // with its figures once the replica has them.
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await page.waitForLoadState("load");
    // The screen draws its charts once the replica has the season, which loads their code: the
    // visit is over when no script has been asked for in a second.
    let count = -1;
    while (count !== scripts.size) {
      count = scripts.size;
      await page.waitForTimeout(1000);
    }
    const files = await Promise.all(
      [...scripts].map(async ([u, size]) => ({ file: new URL(u).pathname, ...(await size) })),
    );
    files.sort((a, b) => b.gzip - a.gzip);
    const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
    return {
      gzipKb: kb(files.reduce((n, f) => n + f.gzip, 0)),
      rawKb: kb(files.reduce((n, f) => n + f.bytes, 0)),
      files: files.map((f) => ({ ...f, gzipKb: kb(f.gzip) })),
    };
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
    const empty = await visit(browser, server.url, false);
    await seedSeason(server);
    const season = await visit(browser, server.url, true);
    const worst = empty.gzipKb >= season.gzipKb ? empty : season;
    const largest = (v: Visit) =>
      v.files
        .slice(0, 3)
        .map((f) => `${f.file} ${f.gzipKb} KB`)
        .join(", ");
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
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

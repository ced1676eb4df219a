/**
 * First load: the gzipped JavaScript a phone downloads on its first visit to the field app, until
 * the first screen is on it (target ≤ 250 KB). Chromium opens the built PWA (pwa/dist, built when
 * missing; `pnpm build` refreshes it) from the real server in a fresh profile; every script the
 * page requests is counted at its gzip size (level 9, what a compressing proxy or CDN sends).
 * The service worker's background precache of the other screens is not part of the visit.
 *
 * A size, not a speed: the same on any machine, so it has no baseline; it is written to
 * bench-results/first-load-*.json beside the other figures.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { launchChromium, newPhoneContext } from "../../e2e/support/chromium.ts";
import { ensurePwaBuilt } from "../../e2e/support/pwa.ts";
import { startTestServer } from "../support/server.ts";

const targetKb = 250;
const server = await startTestServer("pglite", { HIVEKEEP_PWA_DIR: ensurePwaBuilt() });
const browser = await launchChromium();
try {
  const context = await newPhoneContext(browser);
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
  await page.goto(server.url, { waitUntil: "load" });
  // The first screen: the main navigation of the app (single-user mode opens straight into it).
  await page.getByRole("navigation").first().waitFor();
  await page.waitForLoadState("load");
  const files = await Promise.all(
    [...scripts].map(async ([url, size]) => ({ file: new URL(url).pathname, ...(await size) })),
  );
  files.sort((a, b) => b.gzip - a.gzip);
  const gzipKb = files.reduce((n, f) => n + f.gzip, 0) / 1024;
  const rawKb = files.reduce((n, f) => n + f.bytes, 0) / 1024;
  const result = {
    name: "first-load",
    unit: "KB gzipped",
    value: Math.round(gzipKb * 10) / 10,
    rawKb: Math.round(rawKb * 10) / 10,
    target: targetKb,
    met: gzipKb <= targetKb,
    files: files.map((f) => ({ ...f, gzipKb: Math.round((f.gzip / 1024) * 10) / 10 })),
  };
  console.log(
    `first-load: ${result.value} KB gzipped JavaScript in ${files.length} files (${result.rawKb} KB raw); target ≤ ${targetKb} KB: ${result.met ? "met" : "NOT met"}`,
  );
  for (const f of result.files) console.log(`  ${f.gzipKb.toFixed(1).padStart(7)} KB  ${f.file}`);
  const out = join(import.meta.dirname, "..", "..", "bench-results");
  mkdirSync(out, { recursive: true });
  const file = join(out, `first-load-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written to ${file}`);
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

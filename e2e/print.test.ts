/**
 * Printing the legal records (issue 26): offline, from the replica, a hive's stock card and the
 * treatment register print to A4 PDFs (`page.pdf`, Chromium's print path with the print CSS)
 * whose text holds what they must: the stock card's hive, apiary, queen and visits; the
 * register's treatments, a corrected entry's earlier version and a deleted entry, both with the
 * words that say so. Screenshots of both screens at phone and desktop size, of the print media,
 * and a PNG of each PDF's first page go to e2e/screenshots/print-*.png.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { heading, openControlled, rpc, syncBar, waitAllSynced } from "./support/field.ts";

const shots = join(import.meta.dirname, "screenshots");
const day = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * day).toISOString();

/** The PDF's text (poppler's pdftotext, in reading order) and its number of pages. */
function pdfText(file: string): { text: string; pages: number } {
  const text = execFileSync("pdftotext", ["-raw", file, "-"], { encoding: "utf8" });
  return { text, pages: text.split("\f").filter((p) => p.trim() !== "").length };
}

/** The first page of a PDF as a PNG beside it (poppler's pdftoppm), to look at. */
function pdfPng(file: string, png: string): void {
  execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", file, png]);
}

async function printToPdf(page: Page, name: string) {
  const file = join(shots, `${name}.pdf`);
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: join(shots, `${name}-print-media.png`), fullPage: true });
  const pdf = await page.pdf({ format: "A4", printBackground: false });
  await page.emulateMedia({ media: "screen" });
  writeFileSync(file, pdf);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  pdfPng(file, join(shots, `${name}-pdf`));
  return pdfText(file);
}

/** poppler reads the PDFs: like Chromium, it may be missing on a laptop (skipped) but not in CI. */
const popplerMissing =
  spawnSync("pdftotext", ["-v"]).error === undefined
    ? undefined
    : "pdftotext not found (apt-get install poppler-utils)";
const printSuite = (name: string, body: () => void): void => {
  if (popplerMissing !== undefined && !process.env.CI) {
    console.warn(`[e2e] skipping "${name}": ${popplerMissing}`);
    describe.skip(`${name} (skipped: ${popplerMissing})`, body);
    return;
  }
  browserSuite(name, body);
};

printSuite("PWA: printing the stock card and the treatment register", () => {
  const app = useBrowserApp();

  it("prints both to A4 offline, with the records and the register's trail", async () => {
    mkdirSync(shots, { recursive: true });
    const s = app.server;
    const apiary = (await rpc(s, "ApiaryService/CreateApiary", { name: "Lindenhof" })).apiary;
    const hive = (await rpc(s, "HiveService/CreateHive", { apiaryId: apiary.id, name: "Volk 7" }))
      .hive;
    await rpc(s, "QueenService/CreateQueen", {
      hiveId: hive.id,
      year: 2025,
      marking: "MARKING_COLOR_GREEN",
      introducedAt: ago(200),
    });
    for (const [days, frames, note] of [
      [40, 8, "Calm, building up"],
      [20, 10, "Strong colony"],
      [5, 11, "Super given"],
    ] as const) {
      await rpc(s, "InspectionService/CreateInspection", {
        hiveId: hive.id,
        date: ago(days),
        frames,
        broodFrames: frames - 4,
        queenSeen: true,
        note,
      });
    }
    const oxuvar = (
      await rpc(s, "TreatmentService/CreateTreatment", {
        hiveId: hive.id,
        product: "Oxuvar 5.7%",
        activeIngredient: "Oxalsäure",
        dose: "30 ml",
        method: "Träufeln",
        batchNumber: "L-2291",
        supplier: "Apotheke am Markt",
        date: ago(10),
        withdrawalUntil: ago(-20),
      })
    ).treatment;
    await rpc(s, "TreatmentService/UpdateTreatment", { treatment: { ...oxuvar, dose: "50 ml" } });
    const wrong = (
      await rpc(s, "TreatmentService/CreateTreatment", {
        hiveId: hive.id,
        product: "Thymovar",
        date: ago(8),
      })
    ).treatment;
    await rpc(s, "TreatmentService/DeleteTreatment", { id: wrong.id });

    const { page, context, pageErrors } = await app.openPage();
    await openControlled(page, s.url);
    await waitAllSynced(page);
    await context.setOffline(true);
    await syncBar(page).filter({ hasText: "Offline" }).waitFor();

    // The stock card, from the hive page.
    await page.goto(`${s.url}/hives/${hive.id}`);
    await heading(page, "Volk 7").waitFor();
    await page.getByRole("link", { name: "Print stock card" }).click();
    await heading(page, "Stock card · Volk 7").waitFor();
    await page.getByRole("cell", { name: "Super given" }).waitFor();
    await page.screenshot({ path: join(shots, "print-stock-card-phone.png"), fullPage: true });
    const card = await printToPdf(page, "print-stock-card");
    expect(card.pages).toBeGreaterThanOrEqual(1);
    const cardText = card.text.replace(/\s+/g, " ");
    for (const text of ["Stock card · Volk 7", "Lindenhof", "2025 · Green", "Strong colony"]) {
      expect(cardText, text).toContain(text);
    }
    expect(cardText).not.toContain("Hivekeep"); // no app chrome on paper
    expect(cardText).not.toContain("Overview");

    // The treatment register, from settings.
    await page.goto(`${s.url}/settings`);
    await page.getByRole("link", { name: /^Treatment register/ }).click();
    const year = new Date().getFullYear();
    await heading(page, `Treatment register ${year}`).waitFor();
    await page.getByRole("cell", { name: "Apotheke am Markt" }).first().waitFor();
    await page.screenshot({ path: join(shots, "print-register-phone.png"), fullPage: true });
    const register = await printToPdf(page, "print-register");
    expect(register.pages).toBeGreaterThanOrEqual(1);
    const flat = register.text.replace(/\s+/g, " ");
    for (const text of [
      `Treatment register ${year}`,
      "Oxuvar 5.7%",
      "L-2291",
      "30 ml", // the version a correction replaced
      "50 ml",
      "Thymovar",
      "Apotheke am Markt",
      "Volk 7",
    ]) {
      expect(flat, text).toContain(text);
    }
    expect(flat).toMatch(/Replaced by a\s?correction on/);
    expect(flat).toMatch(/Deleted on/);
    expect(flat).not.toContain("Download CSV");

    // The CSV, in the app's language: the file the button hands to the browser's download.
    await page.evaluate(() => {
      const made: Blob[] = [];
      (window as unknown as { made: Blob[] }).made = made;
      const original = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (blob: Blob | MediaSource) => {
        if (blob instanceof Blob) made.push(blob);
        return original(blob);
      };
    });
    await page.getByRole("button", { name: "Download CSV" }).click();
    const csv = await page.evaluate(async () => {
      const [blob] = (window as unknown as { made: Blob[] }).made;
      if (!blob) return undefined;
      const bytes = new Uint8Array(await blob.arrayBuffer());
      // Blob.text() drops a byte order mark: the first bytes say whether it is there.
      return { type: blob.type, bom: [...bytes.slice(0, 3)], text: await blob.text() };
    });
    expect(csv?.type).toBe("text/csv;charset=utf-8");
    writeFileSync(join(shots, "print-register.csv"), csv?.text ?? "");
    expect(csv?.bom).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv?.text.startsWith("Date,Hive,Apiary,Product,Active ingredient")).toBe(true);
    expect(csv?.text).toContain("Apotheke am Markt");
    expect(csv?.text).toContain("Deleted on");

    // Desktop size, both screens.
    const desk = await app.openPage({ size: "desktop", serviceWorkers: "block" });
    await desk.page.goto(`${s.url}/register`);
    await heading(desk.page, `Treatment register ${year}`).waitFor();
    await desk.page.getByRole("cell", { name: "Apotheke am Markt" }).first().waitFor();
    await desk.page.screenshot({ path: join(shots, "print-register-desktop.png"), fullPage: true });
    await desk.page.goto(`${s.url}/hives/${hive.id}/stock-card`);
    await desk.page.getByRole("cell", { name: "Super given" }).waitFor();
    await desk.page.screenshot({
      path: join(shots, "print-stock-card-desktop.png"),
      fullPage: true,
    });
    expect([...pageErrors, ...desk.pageErrors]).toEqual([]);
  });
});

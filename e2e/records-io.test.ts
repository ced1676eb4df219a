/**
 * "Your records" in Chromium, offline (issue 26): with no signal the app takes the
 * organization's records out as a Hivekeep backup, as spreadsheets in the app's language (a ZIP
 * of CSV files, German: `42,5`) and as an XLSX workbook, all downloads made on the device; then
 * brings in the backup of another beekeeper's records, previewed first (what is new, per kind),
 * confirmed by "Import N records", shown on the hive list at once; importing the same file again
 * finds everything already there. Back online, the imported records reach the server. A file
 * with problems is refused whole with every problem listed. Screenshots at phone and desktop size
 * go to e2e/screenshots/.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import type { Download, Page } from "playwright-core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { axeViolations, describeViolations, isSerious } from "./support/axe.ts";
import { browserSuite } from "./support/chromium.ts";
import {
  heading,
  listItem,
  navigate,
  openControlled,
  rpc,
  seedSeason,
  syncBar,
  waitAllSynced,
} from "./support/field.ts";

const screenshots = join(import.meta.dirname, "screenshots");
const work = join(tmpdir(), `hivekeep-records-io-${process.pid}`);

/** Clicks the button and answers the file the browser downloaded: its name and bytes. */
async function download(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([
    page.waitForEvent("download") as Promise<Download>,
    page.getByRole("button", { name: button }).click(),
  ]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: readFileSync(path) };
}

type Backup = { records: Record<string, Record<string, unknown>[]> } & Record<string, unknown>;

/**
 * Another beekeeper's backup made from ours: every id replaced by a new one (references
 * follow), the apiaries and hives renamed, so none of it is in this organization yet.
 */
function anotherBeekeepers(backup: Backup): Backup {
  const ids = new Map<string, string>();
  for (const rows of Object.values(backup.records)) {
    for (const row of rows) ids.set(String(row.id), randomUUID());
  }
  const renamed = (entity: string, row: Record<string, unknown>) =>
    entity === "apiary" || entity === "hive" ? { name: `Heide ${String(row.name)}` } : {};
  const records = Object.fromEntries(
    Object.entries(backup.records).map(([entity, rows]) => [
      entity,
      rows.map((row) => ({
        ...Object.fromEntries(
          Object.entries(row).map(([k, v]) => [k, typeof v === "string" ? (ids.get(v) ?? v) : v]),
        ),
        ...renamed(entity, row),
      })),
    ]),
  );
  return { ...backup, records };
}

browserSuite("PWA: your records, out and in, offline", () => {
  const app = useBrowserApp();

  it("exports a backup and spreadsheets offline, imports another backup after its preview, and syncs it", async () => {
    mkdirSync(screenshots, { recursive: true });
    mkdirSync(work, { recursive: true });
    await seedSeason(app.server);
    const { page, context, pageErrors } = await app.openPage();
    await openControlled(page, app.server.url);
    await waitAllSynced(page);

    // No signal from here on.
    await context.setOffline(true);
    await syncBar(page).filter({ hasText: "Offline" }).waitFor();
    await navigate(page, "Settings");
    await page.getByRole("link", { name: /Your records/ }).click();
    await heading(page, "Your records").waitFor();

    // The backup: the device's own records, as a file.
    const backupFile = await download(page, "Backup (JSON)");
    expect(backupFile.name).toMatch(/^hivekeep-backup-\d{4}-\d{2}-\d{2}\.json$/);
    const backup = JSON.parse(backupFile.bytes.toString("utf8")) as Backup;
    expect(backup.format).toBe("hivekeep-backup");
    expect(backup.records.hive?.map((h) => h.name).sort()).toEqual([
      "Ableger 3",
      "Volk 1 Carnica",
      "Volk 2",
    ]);
    await page.getByText(`Saved ${backupFile.name}.`).waitFor();

    // The workbook, its writer loaded only now (from the service worker's cache).
    const xlsx = await download(page, "Spreadsheets (XLSX)");
    expect(xlsx.name).toMatch(/^hivekeep-spreadsheets-\d{4}-\d{2}-\d{2}\.xlsx$/);
    // Kept beside the screenshots, to be opened and looked at.
    writeFileSync(join(screenshots, "records-io-en.xlsx"), xlsx.bytes);
    const book = unzipSync(new Uint8Array(xlsx.bytes));
    expect(strFromU8(book["xl/workbook.xml"] ?? new Uint8Array())).toContain('name="Inspections"');

    // The spreadsheets in German, after switching the app's language.
    await navigate(page, "Settings");
    await page.getByRole("radio", { name: "Deutsch" }).check();
    await page.getByRole("link", { name: /Ihre Daten/ }).click();
    await heading(page, "Ihre Daten").waitFor();
    const zip = await download(page, "Tabellen (ZIP)");
    expect(zip.name).toMatch(/^hivekeep-spreadsheets-\d{4}-\d{2}-\d{2}\.zip$/);
    writeFileSync(join(screenshots, "records-io-de.zip"), zip.bytes);
    const files = unzipSync(new Uint8Array(zip.bytes));
    const inspections = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
      files["inspections.csv"],
    );
    expect(inspections.startsWith("\uFEFFID;Datum;Volk-ID;Volk;Stand-ID;Stand;")).toBe(true);
    expect(inspections).toContain("Gewicht (kg)");
    expect(inspections).toContain(";42,5;");
    expect(inspections).toContain(";Volk 1 Carnica;");
    expect(Object.keys(files)).toHaveLength(9);
    await page.screenshot({ path: join(screenshots, "records-io-phone-de-export.png") });

    // Another beekeeper's backup comes in: first what it holds.
    const theirs = anotherBeekeepers(backup);
    const theirFile = join(work, "heide-backup.json");
    writeFileSync(theirFile, JSON.stringify(theirs));
    await page.getByLabel("Datei wählen").setInputFiles(theirFile);
    const preview = page.getByRole("region", { name: "heide-backup.json" });
    await preview.getByRole("heading", { name: "heide-backup.json: Hivekeep-Sicherung" }).waitFor();
    const hivesRow = preview.getByRole("row", { name: /^Völker/ });
    expect(await hivesRow.getByRole("cell").allTextContents()).toEqual(["3", "0"]);
    const total = Object.values(theirs.records).reduce((n, rows) => n + rows.length, 0);
    const importButton = preview.getByRole("button", { name: `${total} Einträge übernehmen` });
    await importButton.waitFor();
    // What the phone shows: the preview, scrolled to as it appeared.
    await page.screenshot({ path: join(screenshots, "records-io-phone-de-preview.png") });
    const serious = (await axeViolations(page)).filter(isSerious);
    expect(serious, describeViolations(serious.map((v) => ({ screen: "preview", v })))).toEqual([]);

    await importButton.click();
    await page.getByText(`${total} Einträge übernommen.`, { exact: false }).waitFor();
    await page.screenshot({ path: join(screenshots, "records-io-phone-de-imported.png") });
    await page.getByRole("link", { name: "Zu Ihren Völkern" }).click();
    await heading(page, "Völker").waitFor();
    await listItem(page, "Heide Volk 1 Carnica").waitFor();

    // The same file again: everything is there, nothing to import.
    await page.goBack();
    await heading(page, "Ihre Daten").waitFor();
    await page.getByLabel("Datei wählen").setInputFiles(theirFile);
    await page
      .getByText("Alles aus dieser Datei ist schon vorhanden. Es gibt nichts zu übernehmen.")
      .waitFor();

    // Back online: the import reaches the server like any other change.
    await context.setOffline(false);
    await expect
      .poll(
        async () =>
          ((await rpc(app.server, "HiveService/ListHives", {})).hives as { name: string }[])
            .map((h) => h.name)
            .filter((n) => n.startsWith("Heide "))
            .sort(),
        { timeout: 30_000 },
      )
      .toEqual(["Heide Ableger 3", "Heide Volk 1 Carnica", "Heide Volk 2"]);
    expect(pageErrors).toEqual([]);
  });

  it("refuses a file with problems whole, listing each, at desktop size", async () => {
    const { page, pageErrors } = await app.openPage({ size: "desktop", serviceWorkers: "block" });
    await page.goto(`${app.server.url}/settings/records`);
    await heading(page, "Your records").waitFor();
    await waitAllSynced(page);
    const backup = JSON.parse(
      (await download(page, "Backup (JSON)")).bytes.toString("utf8"),
    ) as Backup;
    const broken = anotherBeekeepers(backup);
    const hives = broken.records.hive ?? [];
    if (hives[0]) hives[0].boxes = 999;
    if (hives[1]) hives[1].name = "";
    const file = join(work, "broken-backup.json");
    writeFileSync(file, JSON.stringify(broken));
    const before = (await rpc(app.server, "HiveService/ListHives", {})).hives.length;

    await page.getByLabel("Choose a file").setInputFiles(file);
    await page.getByRole("heading", { name: /^\d+ problems?$/ }).waitFor();
    const listed = await page.getByRole("alert").getByRole("listitem").allTextContents();
    expect(listed.some((p) => p.includes("boxes"))).toBe(true);
    expect(listed.some((p) => p.includes("name"))).toBe(true);
    expect(await page.getByRole("button", { name: /^Import/ }).count()).toBe(0);
    await page.screenshot({
      path: join(screenshots, "records-io-desktop-problems.png"),
      fullPage: true,
    });

    const serious = (await axeViolations(page)).filter(isSerious);
    expect(serious, describeViolations(serious.map((v) => ({ screen: "records", v })))).toEqual([]);
    expect((await rpc(app.server, "HiveService/ListHives", {})).hives.length).toBe(before);
    expect(pageErrors).toEqual([]);
  });
});

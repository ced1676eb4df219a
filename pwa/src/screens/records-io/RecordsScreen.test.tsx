/**
 * "Your records" as a beekeeper uses it: take the records out (backup, spreadsheets in the
 * app's language) and bring a file in through its preview. The device's TransferService is
 * replaced here by a port that answers what a test names (its own tests and the browser test
 * `e2e/records-io.test.ts` run the real one), so these tests hold what the screen decides:
 * which counts, which problems, which button, what is saved.
 */
import type { RecordSet } from "@hivekeep/client-core/spreadsheets";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { strFromU8, unzipSync } from "fflate";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { AppRoutes } from "../../app/AppRoutes.tsx";
import { setLanguage } from "../../i18n.ts";
import { at, daysAgo, testNow } from "../../testing/clock.ts";
import { openTestClient, renderAt, TestSession } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";
import { type ImportSummary, type TransferPort, TransferProvider, transferOf } from "./transfer.ts";

const records: RecordSet = {
  apiary: [{ id: "a1", name: "Am Waldrand" }],
  hive: [{ id: "h1", apiary_id: "a1", name: "Volk 1" }],
  inspection: [
    { id: "i1", hive_id: "h1", apiary_id: "a1", date: "2026-05-01T09:00:00.000Z", weight_kg: 38.5 },
  ],
};

const clean: ImportSummary = {
  format: "inspections-csv",
  counts: [
    { entity: "apiary", created: 1, existing: 0 },
    { entity: "hive", created: 2, existing: 1 },
    { entity: "inspection", created: 12, existing: 0 },
    { entity: "task", created: 0, existing: 0 },
  ],
  problems: [],
  notCarried: [{ key: "inspections.mood", count: 4 }],
};

function fakeTransfer(dryRun: ImportSummary) {
  const calls: { content: string; dryRun: boolean }[] = [];
  const port: TransferPort = {
    backupText: async () => '{"format":"hivekeep-backup"}',
    recordsOf: () => records,
    importRecords: async (content, dry) => {
      calls.push({ content, dryRun: dry });
      return dryRun;
    },
  };
  return { port, calls };
}

/** The app at "Your records" over a device client, with the given transfer port. */
async function renderRecords(port: TransferPort, options: { readOnly?: boolean } = {}) {
  const client = await openTestClient();
  const memory = memoryLocation({ path: "/settings/records", record: true });
  const user = userEvent.setup();
  render(
    <TestSession client={client} readOnly={options.readOnly === true}>
      <TransferProvider value={port}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          <AppRoutes />
        </Router>
      </TransferProvider>
    </TestSession>,
  );
  await screen.findByRole("heading", { level: 1 });
  return { user, location: () => memory.history.at(-1) };
}

/** What the screen hands the browser to download: the file's name and bytes. */
function catchDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, b as Blob);
    return url;
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs.get(this.href);
    if (blob !== undefined) saved.push({ name: this.download, blob });
  });
  return saved;
}

const day = () => testNow.toISOString().slice(0, 10);

afterEach(() => {
  vi.restoreAllMocks();
  setLanguage("en");
});

describe("taking records out", () => {
  it("is linked from Settings", async () => {
    const client = await openTestClient();
    const memory = memoryLocation({ path: "/settings", record: true });
    const user = userEvent.setup();
    render(
      <TestSession client={client}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          <AppRoutes />
        </Router>
      </TestSession>,
    );
    await user.click(await screen.findByRole("link", { name: /Your records/ }));
    expect(memory.history.at(-1)).toBe("/settings/records");
  });

  it("saves the backup as the device's service writes it", async () => {
    const saved = catchDownloads();
    const { user } = await renderRecords(fakeTransfer(clean).port);
    await user.click(screen.getByRole("button", { name: "Backup (JSON)" }));
    await screen.findByText(`Saved hivekeep-backup-${day()}.json.`);
    expect(saved.map((s) => s.name)).toEqual([`hivekeep-backup-${day()}.json`]);
    expect(await saved[0]?.blob.text()).toBe('{"format":"hivekeep-backup"}');
  });

  it("saves spreadsheets in the app's language: German headers and 38,5", async () => {
    await setLanguage("de");
    const saved = catchDownloads();
    const { user } = await renderRecords(fakeTransfer(clean).port);
    await user.click(screen.getByRole("button", { name: "Tabellen (ZIP)" }));
    await screen.findByText(`hivekeep-spreadsheets-${day()}.zip gespeichert.`);
    const zip = unzipSync(new Uint8Array(await (saved[0]?.blob ?? new Blob()).arrayBuffer()));
    const inspections = strFromU8(zip["inspections.csv"] ?? new Uint8Array());
    expect(inspections).toContain("ID;Datum;Volk-ID;Volk;Stand-ID;Stand;");
    expect(inspections).toContain(";01.05.2026;h1;Volk 1;a1;Am Waldrand;");
    expect(inspections).toContain(";38,5;");
  });

  it("saves a workbook, loaded only now", async () => {
    const saved = catchDownloads();
    const { user } = await renderRecords(fakeTransfer(clean).port);
    await user.click(screen.getByRole("button", { name: "Spreadsheets (XLSX)" }));
    await screen.findByText(`Saved hivekeep-spreadsheets-${day()}.xlsx.`);
    const zip = unzipSync(new Uint8Array(await (saved[0]?.blob ?? new Blob()).arrayBuffer()));
    expect(strFromU8(zip["xl/workbook.xml"] ?? new Uint8Array())).toContain('name="Inspections"');
  });

  it("says why a file could not be made", async () => {
    const { port } = fakeTransfer(clean);
    const { user } = await renderRecords({
      ...port,
      backupText: async () => {
        throw new Error("the replica is closed");
      },
    });
    await user.click(screen.getByRole("button", { name: "Backup (JSON)" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The file could not be made: the replica is closed",
    );
  });
});

describe("bringing records in", () => {
  const file = (text: string, name = "durchsichten.csv") =>
    new File([text], name, { type: "text/csv" });

  it("previews a file (new, already here, not carried over), then imports it when asked", async () => {
    const { port, calls } = fakeTransfer(clean);
    const { user, location } = await renderRecords(port);
    await user.upload(
      screen.getByLabelText("Choose a file"),
      file("date,hive\n2026-05-01,Volk 1\n"),
    );
    const preview = await screen.findByRole("region", { name: "durchsichten.csv" });
    const fileHeading = within(preview).getByRole("heading", { level: 3 });
    expect(fileHeading.textContent).toBe("durchsichten.csv: Inspections (CSV)");
    // Taken there (on a phone the preview is below the fold).
    expect(document.activeElement).toBe(fileHeading);
    const rows = within(preview)
      .getAllByRole("row")
      .map((r) => Array.from(r.children).map((c) => c.textContent));
    expect(rows).toEqual([
      ["Kind", "New", "Already here"],
      ["Apiaries", "1", "0"],
      ["Hives", "2", "1"],
      ["Inspections", "12", "0"],
    ]);
    expect(within(preview).getByText("inspections.mood: 4 records")).toBeTruthy();
    expect(calls).toEqual([{ content: "date,hive\n2026-05-01,Volk 1\n", dryRun: true }]);

    await user.click(within(preview).getByRole("button", { name: "Import 15 records" }));
    await screen.findByText(/^Imported 15 records\./);
    expect(calls.at(-1)).toEqual({ content: "date,hive\n2026-05-01,Volk 1\n", dryRun: false });
    await user.click(screen.getByRole("link", { name: "Go to your hives" }));
    expect(location()).toBe("/hives");
  });

  it("lists every problem with its line and column and offers no import", async () => {
    await setLanguage("de");
    const { port, calls } = fakeTransfer({
      ...clean,
      counts: [],
      problems: [
        { line: 3, column: "Datum", message: "2026-13-01 is not a date" },
        { line: 7, column: "Gewicht", message: "weight 5000 is above 500" },
      ],
    });
    const { user } = await renderRecords(port);
    await user.upload(screen.getByLabelText("Datei wählen"), file("x"));
    const problems = await screen.findByRole("alert");
    expect(within(problems).getByRole("heading").textContent).toBe("2 Probleme");
    expect(
      within(problems)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "Zeile 3, Spalte Datum: 2026-13-01 is not a date",
      "Zeile 7, Spalte Gewicht: weight 5000 is above 500",
    ]);
    expect(screen.queryByRole("button", { name: /übernehmen/ })).toBeNull();
    expect(calls.every((c) => c.dryRun)).toBe(true);
  });

  it("says when everything is already here", async () => {
    const { port } = fakeTransfer({
      ...clean,
      format: "hivekeep",
      counts: [{ entity: "hive", created: 0, existing: 3 }],
      notCarried: [],
    });
    const { user } = await renderRecords(port);
    await user.upload(screen.getByLabelText("Choose a file"), file("{}", "backup.json"));
    await screen.findByText("Everything in this file is already here. There is nothing to import.");
    expect(screen.queryByRole("button", { name: /^Import/ })).toBeNull();
  });

  it("says why a file cannot be imported at all", async () => {
    const { port } = fakeTransfer(clean);
    const { user } = await renderRecords({
      ...port,
      importRecords: async () => {
        throw new Error("the file is not a Hivekeep backup, an OpenBeehive backup or a CSV");
      },
    });
    await user.upload(screen.getByLabelText("Choose a file"), file("junk", "junk.bin"));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "“junk.bin” cannot be imported: the file is not a Hivekeep backup, an OpenBeehive backup or a CSV",
    );
  });

  it("is not offered in a read-only session; export still is", async () => {
    await renderRecords(fakeTransfer(clean).port, { readOnly: true });
    expect(screen.queryByLabelText("Choose a file")).toBeNull();
    expect(screen.getByRole("button", { name: "Backup (JSON)" })).toBeTruthy();
  });
});

describe("on the device's own TransferService", () => {
  /** Another device's organization, as its backup file. */
  async function theirBackup() {
    const theirs = await openTestClient();
    const yard = await seed.apiary(theirs, { name: "Heide" });
    const hive = await seed.hive(theirs, { apiaryId: yard.id, name: "Heidevolk" });
    await seed.inspection(theirs, { hiveId: hive.id, date: at(daysAgo(3)), weightKg: 38.5 });
    return transferOf(theirs).backupText();
  }

  it("saves the replica's own records as the backup", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const saved = catchDownloads();
    const app = await renderAt("/settings/records", { client });
    await app.user.click(await app.findByRole("button", { name: "Backup (JSON)" }));
    await app.findByText(/^Saved hivekeep-backup-/);
    const backup = JSON.parse((await saved[0]?.blob.text()) ?? "{}");
    expect(backup.format).toBe("hivekeep-backup");
    expect(backup.records.hive.map((h: { name: string }) => h.name)).toEqual(["Hive 1"]);
  });

  it("imports a backup into the replica after its preview; the same file again adds nothing", async () => {
    const text = await theirBackup();
    const app = await renderAt("/settings/records");
    const upload = () =>
      app.user.upload(
        app.getByLabelText(/Choose (a|another) file/),
        new File([text], "heide.json", { type: "application/json" }),
      );
    await upload();
    const preview = await app.findByRole("region", { name: "heide.json" });
    expect(within(preview).getByRole("row", { name: /^Hives/ }).textContent).toBe("Hives10");
    expect(await app.client.hives.listHives({})).toMatchObject({ hives: [] });
    const button = within(preview).getByRole("button", { name: /^Import \d+ records$/ });
    await app.user.click(button);
    await app.findByText(/^Imported \d+ records\./);
    const { hives } = await app.client.hives.listHives({});
    expect(hives.map((h) => h.name)).toEqual(["Heidevolk"]);

    await upload();
    await app.findByText("Everything in this file is already here. There is nothing to import.");
  });

  it("lists the problems of a broken backup and writes nothing", async () => {
    const backup = JSON.parse(await theirBackup());
    backup.records.hive[0].boxes = 999;
    const app = await renderAt("/settings/records");
    await app.user.upload(
      app.getByLabelText("Choose a file"),
      new File([JSON.stringify(backup)], "broken.json", { type: "application/json" }),
    );
    const problems = await app.findByRole("alert");
    expect(within(problems).getByRole("heading").textContent).toBe("1 problem");
    expect(within(problems).getByRole("listitem").textContent).toContain("boxes");
    expect(app.queryByRole("button", { name: /^Import/ })).toBeNull();
    expect((await app.client.hives.listHives({})).hives).toEqual([]);
  });
});

/**
 * The operators' `pnpm run export` and `pnpm run import` (issue 26) as processes on PGlite data
 * dirs: a season exported, imported into an empty database (and again: nothing new), exported
 * again with the same records; in hosted mode one file per organization, and an import that
 * refuses to guess the organization.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../server/src/db/open-db.ts";
import { inProcessDeps, inProcessTransport, transportAs } from "../server/src/seed/in-process.ts";
import { seedSeason } from "../server/src/seed/season.ts";
import { startFeedNotifier } from "../server/src/store/feed-notifier.ts";
import { ensureLocalTenant, ensureTenant, localCaller } from "../server/src/store/tenants.ts";
import { exportTo } from "../server/src/transfer/operator.ts";
import { templateDataDir } from "./support/pglite-template.ts";

const serverDir = join(import.meta.dirname, "..", "server");
/** Each command starts Node, tsx and PGlite (seconds each on a busy machine): no time is asserted. */
const slow = 240_000;

/** Runs one of the commands as `pnpm run` would (cwd server/, INIT_CWD where it was typed). */
function run(
  script: "export" | "import",
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", `src/transfer/${script}-main.ts`, ...args],
      {
        cwd: serverDir,
        env: { ...process.env, DATABASE_URL: "", HIVEKEEP_AUTH: "none", INIT_CWD: cwd, ...env },
      },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : 99;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

/** Opens the PGlite data dir, runs `fn` over its in-process handlers, closes it. */
async function withDataDir<T>(
  dataDir: string,
  fn: (
    db: Awaited<ReturnType<typeof openDb>>,
    notifier: Awaited<ReturnType<typeof startFeedNotifier>>,
  ) => Promise<T>,
): Promise<T> {
  const db = await openDb({ databaseUrl: undefined, dataDir });
  try {
    await ensureLocalTenant(db);
    const notifier = await startFeedNotifier(db);
    try {
      return await fn(db, notifier);
    } finally {
      await notifier.close();
    }
  } finally {
    await db.close();
  }
}

const recordsOf = (path: string) => {
  const records: Record<string, { id: string }[]> = JSON.parse(readFileSync(path, "utf8")).records;
  return Object.fromEntries(
    Object.entries(records).map(([e, rows]) => [
      e,
      [...rows].sort((a, b) => (a.id < b.id ? -1 : 1)),
    ]),
  );
};

describe("pnpm run export / import", () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hk-transfer-cli-"));
    // Migrated, empty data dirs (a new one's initdb is tested by test/server/main-process.test.ts).
    for (const name of ["source", "target", "hosted"]) await templateDataDir(join(dir, name));
    await withDataDir(join(dir, "source"), (db, notifier) =>
      seedSeason(inProcessTransport(db, notifier), {
        now: new Date("2026-08-15T12:00:00Z"),
        weeks: 2,
        hivesPerApiary: 1,
        seed: 3,
      }),
    );
  }, slow);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "exports a data dir, imports it into an empty one (twice: nothing new) and exports the same records",
    async () => {
      const exported = await run(
        "export",
        ["--out", "season.json"],
        { HIVEKEEP_DATA_DIR: join(dir, "source") },
        dir,
      );
      expect(exported.out).toMatch(/exported organization .* to .*season\.json/);
      expect(exported.code).toBe(0);
      const file = join(dir, "season.json");
      const records = recordsOf(file);
      expect(records.inspection?.length).toBeGreaterThan(0);

      const target = { HIVEKEEP_DATA_DIR: join(dir, "target") };
      const first = await run("import", ["season.json"], target, dir);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toMatch(/^imported .*season\.json \(hivekeep\)/);
      expect(first.out).toContain(
        `  inspection: ${records.inspection?.length} new, 0 already there`,
      );
      const second = await run("import", ["season.json"], target, dir);
      expect(second.code, second.out).toBe(0);
      expect(second.out).toContain(
        `  inspection: 0 new, ${records.inspection?.length} already there`,
      );

      const again = join(dir, "again.json");
      await withDataDir(join(dir, "target"), (db, notifier) =>
        exportTo(transportAs(inProcessDeps(db, notifier), localCaller), again),
      );
      expect(recordsOf(again)).toEqual(records);
    },
    slow,
  );

  it(
    "exports the spreadsheets as a ZIP of German CSV files in the operator's time zone",
    async () => {
      const exported = await run(
        "export",
        ["--out", "season.zip", "--lang", "de"],
        { HIVEKEEP_DATA_DIR: join(dir, "source"), TZ: "Europe/Berlin" },
        dir,
      );
      expect(exported.code, exported.out).toBe(0);
      const files = unzipSync(readFileSync(join(dir, "season.zip")));
      const inspections = strFromU8(files["inspections.csv"] ?? new Uint8Array());
      const [header, first] = inspections.replace(/^\uFEFF/, "").split("\r\n");
      expect(header?.split(";")).toContain("Datum");
      // seedSeason visits at 12:00 UTC: 14:00 in Berlin in summer, on a German day.
      expect(first).toMatch(/;\d{2}\.\d{2}\.2026;/);
      const bad = await run("export", ["--out", "x.pdf", "--format", "pdf"], {}, dir);
      expect(bad.code).toBe(2);
      expect(bad.out).toMatch(/--format pdf is not one of backup, zip, xlsx/);
    },
    slow,
  );

  it(
    "a file with problems is not imported and the command fails",
    async () => {
      const bad = await run(
        "import",
        ["nowhere.json"],
        { HIVEKEEP_DATA_DIR: join(dir, "target") },
        dir,
      );
      expect(bad.code).not.toBe(0);
      const truncated = join(dir, "truncated.json");
      await import("node:fs/promises").then((fs) =>
        fs.writeFile(truncated, readFileSync(join(dir, "season.json"), "utf8").slice(0, 500)),
      );
      const r = await run(
        "import",
        ["truncated.json"],
        { HIVEKEEP_DATA_DIR: join(dir, "target") },
        dir,
      );
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/not imported.*not complete JSON/);
    },
    slow,
  );

  it(
    "in hosted mode exports one file per organization and import asks which organization",
    async () => {
      const hosted = join(dir, "hosted");
      const orgs = ["0190a000-0000-7000-8000-00000000a001", "0190a000-0000-7000-8000-00000000a002"];
      await withDataDir(hosted, async (db) => {
        for (const [i, id] of orgs.entries()) {
          await ensureTenant(db, {
            organizationId: id,
            name: `Org ${i}`,
            userId: `0190a000-0000-7000-8000-00000000b00${i}`,
            email: `owner${i}@example.org`,
            role: "owner",
          });
        }
      });
      const env = { HIVEKEEP_DATA_DIR: hosted, HIVEKEEP_AUTH: "login" };
      const exported = await run("export", ["--out", "all.json"], env, dir);
      expect(exported.code, exported.out).toBe(0);
      const files = readdirSync(dir).filter((f) => f.startsWith("all."));
      // The single-user organization of withDataDir is there too.
      expect(files).toEqual(expect.arrayContaining(orgs.map((id) => `all.${id}.json`)));
      const refused = await run("import", ["season.json"], env, dir);
      expect(refused.code).toBe(2);
      expect(refused.out).toMatch(/organizations: name one with --organization ID/);
      expect(refused.out).toContain(orgs[0]);
      const named = await run(
        "import",
        ["season.json", "--organization", orgs[1] ?? "", "--dry-run"],
        env,
        dir,
      );
      expect(named.code, named.out).toBe(0);
      expect(named.out).toMatch(
        /^dry run of .* into organization 0190a000-0000-7000-8000-00000000a002/,
      );
    },
    slow,
  );
});

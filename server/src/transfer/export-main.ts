/**
 * `pnpm run export --out FILE [--organization ID] [--format backup|zip|xlsx] [--lang en|de]`: the
 * Hivekeep backup of an organization from the configured database (DATABASE_URL or the embedded
 * one in HIVEKEEP_DATA_DIR), or its spreadsheets (a ZIP of CSV files or an XLSX workbook, in the
 * language; the format follows FILE's extension unless --format says). FILE is
 * relative to where the command was typed. Without --organization: the single-user organization;
 * in hosted mode every organization that is not a demo, one file each (`backup.<id>.json` for
 * `--out backup.json`) when there are several. See operator.ts.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ConnectError } from "@connectrpc/connect";
import type { SheetLanguage } from "@hivekeep/client-core/spreadsheets";
import pino from "pino";
import { ConfigError, loadConfig } from "../config.ts";
import { openDb } from "../db/open-db.ts";
import { inProcessDeps, transportAs } from "../seed/in-process.ts";
import { startFeedNotifier } from "../store/feed-notifier.ts";
import {
  defaultOrganizations,
  type ExportFormat,
  exportFormatOf,
  exportSpreadsheetsTo,
  exportTo,
  fileFor,
  OperatorError,
  type OperatorOrganization,
  ownerCaller,
} from "./operator.ts";

const fail = (message: string): never => {
  console.error(`hivekeep export: ${message}`);
  process.exit(2);
};

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    organization: { type: "string" },
    format: { type: "string" },
    lang: { type: "string" },
  },
});
if (values.out === undefined || values.out === "") {
  fail("--out FILE is required, e.g. pnpm run export --out backup.json");
}
const out = resolve(process.env.INIT_CWD ?? process.cwd(), values.out ?? "");
let format: ExportFormat = "backup";
try {
  format = exportFormatOf(values.format, out);
} catch (err) {
  if (err instanceof OperatorError) fail(err.message);
  throw err;
}
const lang = values.lang ?? "en";
if (lang !== "en" && lang !== "de") fail(`--lang ${lang} is not one of en, de`);

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(`configuration error: ${err.message}`);
  throw err;
}
const log = pino({ level: "warn" });
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const notifier = await startFeedNotifier(db);
  try {
    const deps = inProcessDeps(db, notifier, log);
    const orgs: OperatorOrganization[] =
      values.organization !== undefined
        ? [{ id: values.organization, name: "" }]
        : await defaultOrganizations(db, config.auth);
    if (orgs.length === 0) fail("there is no organization to export");
    for (const org of orgs) {
      const path = orgs.length === 1 ? out : fileFor(out, org.id);
      const caller = await ownerCaller(db, org.id);
      const transport = transportAs(deps, caller);
      const bytes =
        format === "backup"
          ? await exportTo(transport, path)
          : await exportSpreadsheetsTo(transport, path, format, lang as SheetLanguage);
      console.log(`exported organization ${org.id} to ${path} (${bytes} bytes)`);
    }
  } finally {
    await notifier.close();
  }
} catch (err) {
  if (err instanceof OperatorError) fail(err.message);
  if (!(err instanceof ConnectError)) throw err;
  console.error(`hivekeep export: ${err.rawMessage}`);
  process.exitCode = 1;
} finally {
  await db.close();
}

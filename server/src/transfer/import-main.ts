/**
 * `pnpm run import FILE [--organization ID] [--dry-run] [--format hivekeep|openbeehive|csv]`:
 * imports a file into an organization of the configured database through the one write path
 * (the feed gets every change, so every device receives them), as the organization's owner.
 * FILE is relative to where the command was typed, of any size. Without --organization: the
 * single-user organization, or in hosted mode the only organization; with several it refuses.
 * See operator.ts.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ConnectError } from "@connectrpc/connect";
import pino from "pino";
import { ConfigError, loadConfig } from "../config.ts";
import { openDb } from "../db/open-db.ts";
import { inProcessDeps, transportAs } from "../seed/in-process.ts";
import { startFeedNotifier } from "../store/feed-notifier.ts";
import {
  defaultOrganizations,
  importFrom,
  importSummary,
  OperatorError,
  ownerCaller,
} from "./operator.ts";

const fail = (message: string): never => {
  console.error(`hivekeep import: ${message}`);
  process.exit(2);
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    organization: { type: "string" },
    "dry-run": { type: "boolean", default: false },
    format: { type: "string", default: "" },
  },
});
if (positionals.length !== 1) fail("one FILE is required, e.g. pnpm run import backup.json");
const path = resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0] ?? "");

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(`configuration error: ${err.message}`);
  throw err;
}
const log = pino({ level: "warn" });
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
let code = 0;
try {
  const notifier = await startFeedNotifier(db);
  try {
    let organizationId = values.organization;
    if (organizationId === undefined) {
      const orgs = await defaultOrganizations(db, config.auth);
      if (orgs.length !== 1) {
        const list = orgs.map((o) => `  ${o.id}  ${o.name}`).join("\n");
        fail(
          orgs.length === 0
            ? "there is no organization to import into"
            : `this server has ${orgs.length} organizations: name one with --organization ID\n${list}`,
        );
      }
      organizationId = orgs[0]?.id ?? "";
    }
    const caller = await ownerCaller(db, organizationId);
    const transport = transportAs(inProcessDeps(db, notifier, log), caller);
    const dryRun = values["dry-run"] === true;
    const r = await importFrom(transport, path, { dryRun, format: values.format ?? "" });
    const verb = r.written ? "imported" : dryRun ? "dry run of" : "did not import";
    console.log(`${verb} ${path} (${r.format}) into organization ${organizationId}`);
    console.log(importSummary(r));
    if (r.problems.length > 0) code = 1;
  } finally {
    await notifier.close();
  }
} catch (err) {
  if (err instanceof OperatorError) fail(err.message);
  if (err instanceof ConnectError) {
    console.error(`hivekeep import: ${err.rawMessage}`);
    code = 1;
  } else {
    throw err;
  }
} finally {
  await db.close();
}
process.exit(code);

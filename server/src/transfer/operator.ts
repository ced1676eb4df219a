/**
 * The operators' export and import (issue 26): `pnpm run export` and `pnpm run import` on the
 * configured database, through the same TransferService handlers the server runs (in process,
 * so no body limit applies), as the organization's owner. docs/decisions.md, "The operators'
 * export and import (issue 26)".
 *
 * Which organization: `--organization ID`, else the single-user organization (HIVEKEEP_AUTH=none),
 * else in hosted mode (HIVEKEEP_AUTH=login) the one organization there is; with several, export
 * writes one file per organization and import refuses and asks for `--organization`. Demo
 * organizations are never exported without being named.
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { open, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { createClient, type Transport } from "@connectrpc/connect";
import { readBackup } from "@hivekeep/client-core/core";
import type { SheetLanguage } from "@hivekeep/client-core/spreadsheets";
import { spreadsheetZip } from "@hivekeep/client-core/spreadsheets";
import { spreadsheetXlsx } from "@hivekeep/client-core/xlsx";
import type { ImportRecordsResponse } from "@hivekeep/proto";
import { TransferService } from "@hivekeep/proto";
import type { Caller } from "../auth/caller.ts";
import type { Queryable } from "../db/db.ts";
import { ensureLocalTenant, localCaller } from "../store/tenants.ts";

/** An organization an operator names or the command finds. */
export interface OperatorOrganization {
  readonly id: string;
  readonly name: string;
}

/** A refusal to tell the operator (exit code 2). */
export class OperatorError extends Error {
  override name = "OperatorError";
}

/** The caller an operator's command runs as: the organization's (first) owner. */
export async function ownerCaller(q: Queryable, organizationId: string): Promise<Caller> {
  const [row] = await q.query<{ user_id: string }>(
    `select user_id from memberships where organization_id = $1 and role = 'owner'
     order by created_at, user_id limit 1`,
    [organizationId],
  );
  if (row === undefined) {
    const [org] = await q.query("select id from organizations where id = $1", [organizationId]);
    throw new OperatorError(
      org === undefined
        ? `organization ${organizationId} not found`
        : `organization ${organizationId} has no owner to write as`,
    );
  }
  return { organizationId, userId: row.user_id, role: "owner", demo: false };
}

/**
 * The organizations a command without `--organization` works on: the single-user one, or in
 * hosted mode every organization that is not a demo (one or several).
 */
export async function defaultOrganizations(
  q: Queryable,
  auth: "none" | "login",
): Promise<OperatorOrganization[]> {
  if (auth === "none") {
    await ensureLocalTenant(q);
    const [row] = await q.query<{ name: string }>("select name from organizations where id = $1", [
      localCaller.organizationId,
    ]);
    return [{ id: localCaller.organizationId, name: row?.name ?? "" }];
  }
  return q.query<{ id: string; name: string }>(
    "select id, name from organizations where not demo order by created_at, id",
  );
}

/**
 * The file of one organization when an export writes several: `<stem>.<organization id><ext>`
 * beside `out` (`backup.json` → `backup.<id>.json`).
 */
export function fileFor(out: string, organizationId: string): string {
  const ext = extname(out);
  const stem = basename(out, ext);
  return join(dirname(out), `${stem}.${organizationId}${ext === "" ? ".json" : ext}`);
}

/**
 * Streams the backup of the transport's caller into `path` (written to a temporary file
 * beside it, renamed when complete: an interrupted export leaves no half file). Answers bytes.
 */
export async function exportTo(transport: Transport, path: string): Promise<number> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  let bytes = 0;
  try {
    for await (const m of createClient(TransferService, transport).exportBackup({})) {
      const chunk = Buffer.from(m.chunk, "utf8");
      bytes += chunk.length;
      if (!out.write(chunk)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    await rename(partial, path);
    return bytes;
  } catch (err) {
    out.destroy();
    await rm(partial, { force: true });
    throw err;
  }
}

/** What `pnpm run export` writes: the backup, or the spreadsheets of it. */
export type ExportFormat = "backup" | "zip" | "xlsx";

/** The format `--format` names, else the one the file's extension says (backup by default). */
export function exportFormatOf(format: string | undefined, path: string): ExportFormat {
  if (format === "backup" || format === "zip" || format === "xlsx") return format;
  if (format !== undefined) {
    throw new OperatorError(`--format ${format} is not one of backup, zip, xlsx`);
  }
  const lower = path.toLowerCase();
  return lower.endsWith(".zip") ? "zip" : lower.endsWith(".xlsx") ? "xlsx" : "backup";
}

/**
 * The spreadsheets of the organization (one CSV per record kind in a ZIP, or an XLSX workbook),
 * headers and values in `lang`, days and times in the operator's time zone (TZ): made from the
 * backup, as the app makes them. The backup is held in memory (a spreadsheet is for reading).
 */
export async function exportSpreadsheetsTo(
  transport: Transport,
  path: string,
  format: "zip" | "xlsx",
  lang: SheetLanguage,
): Promise<number> {
  let text = "";
  for await (const m of createClient(TransferService, transport).exportBackup({})) text += m.chunk;
  const backup = readBackup(text);
  const first = backup.problems[0];
  if (first !== undefined)
    throw new OperatorError(`the backup did not read back: ${first.message}`);
  const exportedAt = new Date().toISOString();
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const bytes =
    format === "zip"
      ? spreadsheetZip(backup.records, lang, exportedAt, timeZone)
      : await spreadsheetXlsx(backup.records, lang, timeZone);
  await writeFile(`${path}.partial`, bytes);
  await rename(`${path}.partial`, path);
  return bytes.length;
}

/** Reads `path` whole (any size: no HTTP body limit in process) and imports it. */
export async function importFrom(
  transport: Transport,
  path: string,
  options: { dryRun: boolean; format?: string },
): Promise<ImportRecordsResponse> {
  const file = await open(path);
  let content: string;
  try {
    content = await file.readFile("utf8");
  } finally {
    await file.close();
  }
  return createClient(TransferService, transport).importRecords({
    content,
    dryRun: options.dryRun,
    format: options.format ?? "",
    // Days and times without a zone in the file are read in the operator's zone (TZ).
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
}

/** The summary an import prints: one line per entity with records, then the problems. */
export function importSummary(r: ImportRecordsResponse): string {
  const lines = r.counts
    .filter((c) => c.created > 0 || c.existing > 0)
    .map((c) => `  ${c.entity}: ${c.created} new, ${c.existing} already there`);
  for (const n of r.notCarried) lines.push(`  not carried: ${n.field} (${n.rows} rows)`);
  for (const p of r.problems) lines.push(`  problem: ${p.message}`);
  return lines.join("\n");
}

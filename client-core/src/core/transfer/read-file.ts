/**
 * The one dispatch from a file's text to its reader (issue 26): which format a file is (by the
 * caller's hint, else by its content), and the reader of each format. Every import (the RPC,
 * the device, the CLI) reads files through here.
 */
import { readBackup } from "./backup.ts";
import type { ReadFile } from "./record-set.ts";
import type { KnownPlaces, SheetReadContext } from "./sheet-places.ts";

export type FileFormat = ReadFile["format"];

export type { KnownPlaces } from "./sheet-places.ts";

/** A reader of one format; the spreadsheet's needs the organization's places and the context. */
export type FileReader = (text: string, known: KnownPlaces, ctx: SheetReadContext) => ReadFile;

/**
 * The reader of each format. The readers of other programs' files (and the CSV parser) are
 * loaded when a file of theirs is read, so the app's first load does not carry them.
 */
export const fileReaders: Readonly<Record<FileFormat, () => Promise<FileReader>>> = {
  hivekeep: async () => (text) => readBackup(text),
  openbeehive: async () => {
    const { readOpenBeehive } = await import("./openbeehive.ts");
    return (text, _known, ctx) => readOpenBeehive(text, ctx.timeZone);
  },
  "inspections-csv": async () => (await import("./inspections-csv.ts")).readInspectionsCsv,
};

/** The names a caller may give as the format hint ("" = detect). */
const hints: Readonly<Record<string, FileFormat>> = {
  hivekeep: "hivekeep",
  "hivekeep-backup": "hivekeep",
  openbeehive: "openbeehive",
  csv: "inspections-csv",
  "inspections-csv": "inspections-csv",
};

export const formatHints = Object.keys(hints);

/**
 * The format of a file: the hint when given (undefined for an unknown hint), else detected from
 * its first characters: a JSON object naming `openbeehive_export` is an OpenBeehive backup, any
 * other JSON object a Hivekeep backup (whose reader refuses what it is not), anything else a
 * spreadsheet (CSV).
 */
export function fileFormat(text: string, hint: string): FileFormat | undefined {
  if (hint !== "") return Object.hasOwn(hints, hint) ? hints[hint] : undefined;
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (start.startsWith("{") || start.startsWith("[")) {
    return /"openbeehive_export"\s*:/.test(start.slice(0, 4096)) ? "openbeehive" : "hivekeep";
  }
  return "inspections-csv";
}

/** Whether the reader of `format` needs the organization's apiaries and hives. */
export const needsKnownPlaces = (format: FileFormat): boolean => format === "inspections-csv";

/**
 * The treatment register's lines (issue 26), one shape for the printed table and its CSV: each
 * entry of GetTreatmentRegister (client-core's core/register.ts) as its earlier versions, struck
 * through with when and by whom they were replaced, then the version that stands (struck through
 * too when the treatment was deleted, saying when and by whom).
 */

import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Cell } from "@hivekeep/client-core/core";
import type { Treatment, TreatmentRegisterEntry } from "@hivekeep/proto";

/**
 * replaced: a correction came after it; merged: the last version written, which a correction made
 * on another device at the same time merged with (the standing line is the merge).
 */
export type LineState = "current" | "replaced" | "merged" | "deleted";

export interface RegisterLine {
  readonly key: string;
  readonly treatment: Treatment;
  readonly state: LineState;
  /** Who recorded the treatment (the first version's author), as a name. */
  readonly recordedBy: string;
  /** A replaced line: when and by whom the correction came; a deleted one: the delete. */
  readonly changedAt?: Date;
  readonly changedBy?: string;
  /** The standing line of a corrected treatment. */
  readonly corrected: boolean;
}

export interface RegisterNames {
  /** A user id as a name ("" = unknown). */
  user(id: string): string;
}

const registerFields = [
  "product",
  "activeIngredient",
  "dose",
  "method",
  "batchNumber",
  "reason",
  "supplier",
] as const;

const ms = (t: Treatment["date"]) => (t ? timestampDate(t).getTime() : undefined);

/** Whether two versions hold the same register fields. */
export function sameRegisterFields(a: Treatment, b: Treatment): boolean {
  return (
    registerFields.every((f) => a[f] === b[f]) &&
    ms(a.date) === ms(b.date) &&
    ms(a.withdrawalUntil) === ms(b.withdrawalUntil)
  );
}

export function registerLines(
  entries: readonly TreatmentRegisterEntry[],
  names: RegisterNames,
): RegisterLine[] {
  const lines: RegisterLine[] = [];
  for (const e of entries) {
    const current = e.treatment;
    if (current === undefined) continue;
    const versions = e.versions;
    const recordedBy = names.user(versions[0]?.authorId ?? "");
    for (let i = 0; i + 1 < versions.length; i++) {
      const v = versions[i];
      const next = versions[i + 1];
      if (v?.treatment === undefined || next === undefined) continue;
      lines.push({
        key: `${e.treatment?.id}:${i}`,
        treatment: v.treatment,
        state: "replaced",
        recordedBy,
        changedAt: next.writtenAt && timestampDate(next.writtenAt),
        changedBy: names.user(next.authorId),
        corrected: false,
      });
    }
    const last = versions.at(-1)?.treatment;
    if (versions.length > 1 && last !== undefined && !sameRegisterFields(last, current)) {
      lines.push({
        key: `${current.id}:merged`,
        treatment: last,
        state: "merged",
        recordedBy,
        corrected: false,
      });
    }
    lines.push({
      key: `${current.id}:current`,
      // The standing version: the treatment as stored (its frozen ids, its current fields).
      treatment: current,
      state: e.deleted ? "deleted" : "current",
      recordedBy,
      changedAt: e.deleted && e.deletedAt ? timestampDate(e.deletedAt) : undefined,
      changedBy: e.deleted ? names.user(e.deletedBy) : undefined,
      corrected: versions.length > 1,
    });
  }
  return lines;
}

/** The register's columns, in the printed and the CSV order. */
export const registerColumns = [
  "date",
  "hive",
  "apiary",
  "product",
  "activeIngredient",
  "batchNumber",
  "dose",
  "method",
  "withdrawalUntil",
  "reason",
  "recordedBy",
  "supplier",
  "status",
] as const;

export type RegisterColumn = (typeof registerColumns)[number];

const pad = (n: number) => String(n).padStart(2, "0");

/** The local calendar day of a time, `YYYY-MM-DD` (as the app shows it), "" when unset. */
export function localDay(t: Treatment["date"]): string {
  if (!t) return "";
  const d = timestampDate(t);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** One line as CSV cells (days in the spreadsheet's language; the status in words). */
export function registerCsvRow(
  line: RegisterLine,
  place: { hive: string; apiary: string },
  status: string,
): Cell[] {
  const x = line.treatment;
  return [
    { day: localDay(x.date) },
    place.hive,
    place.apiary,
    x.product,
    x.activeIngredient,
    x.batchNumber,
    x.dose,
    x.method,
    { day: localDay(x.withdrawalUntil) },
    x.reason,
    line.recordedBy,
    x.supplier,
    status,
  ];
}

/**
 * What the import preview and the result show (pure): the kinds a file holds with their counts,
 * how many records an import writes, where each problem lies, and what stays behind.
 */
import { type EntityName, entityNames } from "@hivekeep/client-core/core";
import type { ImportProblem } from "@hivekeep/client-core/spreadsheets";
import type { RecordsIoWords } from "./messages.ts";
import type { ImportSummary, KindCount } from "./transfer.ts";

/** The kinds the file holds (new or already here), in the order an import writes them. */
export function previewRows(summary: ImportSummary): KindCount[] {
  const byEntity = new Map(summary.counts.map((c) => [c.entity, c]));
  return entityNames.flatMap((entity) => {
    const c = byEntity.get(entity);
    return c !== undefined && c.created + c.existing > 0 ? [c] : [];
  });
}

/** How many records the import writes. */
export const importTotal = (summary: ImportSummary): number =>
  summary.counts.reduce((sum, c) => sum + c.created, 0);

/** A kind's name in the language ("Durchsichten"). */
export const kindName = (t: RecordsIoWords, entity: EntityName): string =>
  t(`kind.${entity}` as never);

/**
 * Where a problem lies and why, as one sentence: "Line 4, column Datum: date 2026-13-01 is not a
 * date." The why is the reader's own (English) text; the place is in the language. A problem of
 * a JSON record whose text names the record says enough ("hive …: boxes must be between 0 and
 * 20"); its JSON path is for a file without records.
 */
export function problemText(t: RecordsIoWords, p: ImportProblem): string {
  const place: string[] = [];
  if (p.line !== undefined) {
    place.push(t("line", { line: p.line }));
    if (p.column !== undefined && p.column !== "") place.push(t("column", { column: p.column }));
  } else if (p.entity !== undefined && p.id !== undefined) {
    if (!p.message.includes(p.id))
      place.push(t("record", { kind: kindName(t, p.entity), id: p.id }));
  } else if (p.path !== undefined && p.path !== "") {
    place.push(p.path);
  }
  return place.length === 0 ? p.message : `${place.join(", ")}: ${p.message}`;
}

/** "task.recurrence: 3 records", most first. */
export function notCarriedLines(t: RecordsIoWords, summary: ImportSummary): string[] {
  return [...summary.notCarried]
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
    .map((n) => t("notCarriedRow", { what: n.key, count: n.count }));
}

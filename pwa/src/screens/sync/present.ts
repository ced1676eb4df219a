/** What the needs-attention list says about a refused change: the record's page and its name. */
import type { QuarantinedItem, SyncNotice } from "@hivekeep/client-core";
import { paths } from "../../app/paths.ts";

/** Where a refused change's record can be seen and fixed, if it has a page. */
export function recordPath(item: Pick<QuarantinedItem, "change">): string | undefined {
  const { entity, entityId, payload } = item.change;
  const hiveId = typeof payload.hive_id === "string" ? payload.hive_id : undefined;
  switch (entity) {
    case "apiary":
      return paths.apiary(entityId);
    case "hive":
      return paths.hive(entityId);
    case "inspection":
      return paths.inspection(entityId);
    case "task":
      return paths.tasks;
    case "placement":
    case "queen":
    case "treatment":
    case "harvest":
    case "event":
      return hiveId ? paths.hive(hiveId) : undefined;
  }
}

/** A short name for the record from what the change carries (name, title), if any. */
export function recordName(item: Pick<QuarantinedItem, "change">): string | undefined {
  const p = item.change.payload;
  for (const key of ["name", "title", "variety", "product"]) {
    const v = p[key];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return undefined;
}

/** Where a notice's record can be seen: its page, or its hive's (issue 25). */
export function noticePath(notice: Pick<SyncNotice, "record" | "movedTo">): string | undefined {
  const { entity, id, hiveId } = notice.record;
  switch (entity) {
    case "apiary":
      return paths.apiary(id);
    case "hive":
      return paths.hive(id);
    case "inspection":
      return paths.inspection(id);
    case "task":
      return paths.tasks;
    default:
      return hiveId ? paths.hive(hiveId) : undefined;
  }
}

/**
 * A value the user wrote or the one kept, for the notice: dates formatted, "—" for none, words in
 * the language's quotation marks (`quote`).
 */
export function noticeValue(
  value: unknown,
  fmt: { date(when: Date): string; dateTime(when: Date): string },
  quote: (text: string) => string,
): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    return fmt.dateTime(new Date(value));
  }
  return typeof value === "string" ? quote(value) : String(value);
}

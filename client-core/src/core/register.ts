/**
 * The treatment register (issue 26; the German "Bestandsbuch"): every treatment with every
 * version it had and, for a deleted one, who deleted it and when. Read back from what the
 * treatment commands write (commands/treatment.ts): each TREATMENT event, live or tombstoned,
 * is one version (its detail_json's snapshot, its author, its created_at); the treatment row
 * holds the current values and `deleted_by`/`deleted_at`. Pure: the server and the device read
 * the rows (tombstones included) and call this.
 */

import { EventType } from "@hivekeep/proto";
import { registerSnapshotColumns } from "./commands/treatment.ts";
import type { Values } from "./merge.ts";
import { wallClock } from "./transfer/csv.ts";

/** A stored row as the register reads it (tombstones included). */
export interface RegisterRow {
  readonly id: string;
  readonly values: Values;
  readonly deleted: boolean;
}

/** One version of a treatment's register fields, with who wrote it and when. */
export interface RegisterVersion {
  /** The treatment's columns of this version (id, hive_id, apiary_id, date, product, …). */
  readonly values: Values;
  /** "" when unknown. */
  readonly authorId: string;
  /** RFC 3339; "" when unknown. */
  readonly writtenAt: string;
}

export interface RegisterEntry {
  readonly id: string;
  /** The treatment as it stands (a deleted one: as it was when deleted). */
  readonly values: Values;
  /** Oldest first; the last is the current one. */
  readonly versions: readonly RegisterVersion[];
  readonly deleted: boolean;
  readonly deletedBy: string;
  readonly deletedAt: string;
}

export interface RegisterFilter {
  /** The calendar year of the treatment's date in `timeZone`; 0 or absent = every year. */
  readonly year?: number;
  /** The reader's IANA time zone for `year` (default UTC). */
  readonly timeZone?: string;
  /** Only treatments the apiary gave (the apiary frozen on the treatment). */
  readonly apiaryId?: string;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

function snapshotOf(event: Values): Values {
  try {
    const parsed = JSON.parse(text(event.detail_json)) as { register?: Values };
    if (parsed && typeof parsed.register === "object" && parsed.register !== null) {
      const out: Values = {};
      for (const c of registerSnapshotColumns) out[c] = parsed.register[c] ?? null;
      return out;
    }
  } catch {
    // An event written before the register's snapshots: its title is the product.
  }
  return { product: text(event.title) };
}

const byWritten = (a: RegisterVersion & { id: string }, b: RegisterVersion & { id: string }) =>
  a.writtenAt < b.writtenAt ? -1 : a.writtenAt > b.writtenAt ? 1 : a.id < b.id ? -1 : 1;

/**
 * The register's entries among `treatments` (tombstones included), oldest first (by date, then
 * id), with their versions from `events` (the TREATMENT events, tombstones included; others
 * are ignored). A treatment without any event has one version: itself, author unknown.
 */
export function registerEntries(
  treatments: readonly RegisterRow[],
  events: readonly RegisterRow[],
  filter: RegisterFilter = {},
): RegisterEntry[] {
  const versionsOf = new Map<string, (RegisterVersion & { id: string })[]>();
  for (const e of events) {
    const v = e.values;
    if (Number(v.type) !== EventType.TREATMENT || text(v.ref_entity) !== "treatment") continue;
    const list = versionsOf.get(text(v.ref_id)) ?? [];
    list.push({
      id: e.id,
      values: {
        hive_id: text(v.hive_id),
        apiary_id: text(v.apiary_id),
        queen_id: text(v.queen_id),
        date: v.date ?? null,
        ...snapshotOf(v),
      },
      authorId: text(v.author_id),
      writtenAt: text(v.created_at),
    });
    versionsOf.set(text(v.ref_id), list);
  }
  const year = filter.year ?? 0;
  const timeZone = filter.timeZone ?? "UTC";
  const apiaryId = filter.apiaryId ?? "";
  const entries: RegisterEntry[] = [];
  for (const t of treatments) {
    const date = text(t.values.date);
    if (year !== 0 && Number(wallClock(date, timeZone).slice(0, 4)) !== year) continue;
    if (apiaryId !== "" && text(t.values.apiary_id) !== apiaryId) continue;
    const found = (versionsOf.get(t.id) ?? []).sort(byWritten);
    const versions: RegisterVersion[] = found.map(({ values, authorId, writtenAt }) => ({
      values: { id: t.id, ...values },
      authorId,
      writtenAt,
    }));
    if (versions.length === 0) {
      versions.push({
        values: { id: t.id, ...t.values },
        authorId: "",
        writtenAt: text(t.values.created_at),
      });
    }
    entries.push({
      id: t.id,
      values: t.values,
      versions,
      deleted: t.deleted,
      deletedBy: t.deleted ? text(t.values.deleted_by) : "",
      deletedAt: t.deleted ? text(t.values.deleted_at) : "",
    });
  }
  return entries.sort((a, b) => {
    const da = text(a.values.date);
    const db = text(b.values.date);
    return da < db ? -1 : da > db ? 1 : a.id < b.id ? -1 : 1;
  });
}

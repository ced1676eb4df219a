/**
 * Where a hive stood and which queen reigned at a given time. Inspections, treatments and
 * harvests freeze both as of their date, so a back-dated record gets the apiary and queen of that
 * date. Placements and queens of one hive are few: they are read whole and chosen here.
 */
import type { HiveAsOf } from "../core/commands/event.ts";
import { placementAt } from "../core/placement-at.ts";
import { queenAt } from "../core/queen-at.ts";
import { parseRfc3339 } from "../core/rfc3339.ts";
import type { ReplicaReader, StoredRow } from "./replica-store.ts";
import { settled } from "./settled.ts";

export interface HiveAt {
  readonly hive: StoredRow;
  readonly apiaryId: string;
  /** "" when no queen reigned at that time. */
  readonly queenId: string;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** A hive with its placements and queens: enough to answer hiveAt for any time. */
export interface HiveTimeline {
  readonly hive: StoredRow;
  readonly placements: readonly StoredRow[];
  readonly queens: readonly StoredRow[];
}

/** undefined when the hive does not exist (live) in the tenant. */
export async function hiveTimeline(
  r: ReplicaReader,
  hiveId: string,
): Promise<HiveTimeline | undefined> {
  const byHive = { where: [{ column: "hive_id", eq: hiveId }] } as const;
  // Read together (a database pipelines them; a device sends them in one go).
  const [hive, { rows: placements }, { rows: queens }] = await settled([
    r.get("hive", hiveId),
    r.list("placement", { ...byHive, orderBy: [{ column: "started_at" }, { column: "id" }] }),
    r.list("queen", {
      ...byHive,
      orderBy: [
        { column: "introduced_at", orElse: "created_at", desc: true },
        { column: "id", desc: true },
      ],
    }),
  ]);
  return hive && { hive, placements, queens };
}

/** Where the hive of a timeline stood and which queen reigned at `at` (RFC 3339, ms, UTC). */
export function timelineAt(timeline: HiveTimeline, at: string): HiveAt {
  const placement = placementAt(timeline.placements, at);
  const queen = queenAt(timeline.queens, at);
  return {
    hive: timeline.hive,
    apiaryId: text(placement?.values.apiary_id) || text(timeline.hive.values.apiary_id),
    queenId: queen?.id ?? "",
  };
}

/** undefined when the hive does not exist (live) in the tenant. `at` is RFC 3339 (ms, UTC). */
export async function hiveAt(
  r: ReplicaReader,
  hiveId: string,
  at: string,
): Promise<HiveAt | undefined> {
  const timeline = await hiveTimeline(r, hiveId);
  return timeline && timelineAt(timeline, at);
}

/**
 * hiveAt for the hive and date a request names: undefined when it names no hive or the hive does
 * not exist, which the command answers (invalid_argument or not_found). An unreadable date is
 * left to the command too, which rejects it.
 */
export async function requestedHiveAt(
  r: ReplicaReader,
  hiveId: string,
  date: string,
): Promise<HiveAt | undefined> {
  if (hiveId === "" || "error" in parseRfc3339(date)) return undefined;
  return hiveAt(r, hiveId, date);
}

/** The hive a new inspection, treatment or harvest freezes, as of its date. */
export async function hiveAsOf(
  r: ReplicaReader,
  hiveId: string,
  date: string,
): Promise<HiveAsOf | undefined> {
  const at = await requestedHiveAt(r, hiveId, date);
  return at && { id: hiveId, apiaryId: at.apiaryId, queenId: at.queenId };
}

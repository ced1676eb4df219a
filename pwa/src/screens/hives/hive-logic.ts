/**
 * The pure rules of the hive screens (no React, no replica): how hives are sorted and searched,
 * how old a hive's last inspection is, which queen reigns, which withdrawal periods still run
 * (the rule itself: records/rules.ts), and where a hive stood (from its CREATED and MOVED
 * events). What kind of record an inspection is: inspections/fields.ts.
 */
import {
  runningWithdrawals as coreRunningWithdrawals,
  reigningOf,
} from "@hivekeep/client-core/core";
import {
  inspectionAge as ageOf,
  defaultThresholdDays,
  type InspectionAge,
} from "@hivekeep/client-core/ops";
import {
  type Event,
  EventType,
  type Hive,
  HiveStatus,
  type Queen,
  type Task,
  type Treatment,
} from "@hivekeep/proto";
import { toDate } from "../../format.ts";

/** Days after which a hive is due for an inspection (GetDashboard's default threshold). */
export const dueAfterDays = defaultThresholdDays;

/** A lost or dissolved colony: still listed, but no longer kept. */
export function isInactive(status: HiveStatus): boolean {
  return status === HiveStatus.LOST || status === HiveStatus.DISSOLVED;
}

/** Lower case, without accents, for searching ("Königin" matches "konig"). */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase().trim();
}

/** Kept hives first, then lost and dissolved ones; each by name (natural: "Hive 2" < "Hive 10"). */
export function compareHives(a: Hive, b: Hive): number {
  const inactive = Number(isInactive(a.status)) - Number(isInactive(b.status));
  if (inactive !== 0) return inactive;
  return (
    a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: "base" }) ||
    a.id.localeCompare(b.id)
  );
}

/** Whether a hive matches the search: every word of the query in its name or QR code. */
export function matchesSearch(hive: Hive, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = fold(`${hive.name} ${hive.qrCode}`);
  return words.every((w) => text.includes(w));
}

export type { InspectionAge };

/**
 * How long ago a hive was last visited and whether it is due: client-core's one rule (ops/due.ts,
 * GetDashboard's too) at the overview's threshold, so the list and the overview agree.
 */
export function inspectionAge(last: Date | undefined, now: Date = new Date()): InspectionAge {
  return ageOf(last?.getTime(), now.getTime(), dueAfterDays);
}

/**
 * The reigning queen among a hive's queens: the active one whose reign began last (two devices
 * may each have introduced one), by the server's own rule (client-core reigningOf). Undefined
 * when no queen is active.
 */
export function reigningQueen(queens: readonly Queen[]): Queen | undefined {
  const iso = (ts: Queen["introducedAt"]) => toDate(ts)?.toISOString() ?? "";
  return reigningOf(
    queens.filter((q) => q.active),
    (q) => iso(q.introducedAt) || iso(q.createdAt),
  );
}

/** The reigning queen of each hive, from every active queen of the tenant. */
export function reigningQueens(queens: readonly Queen[]): Map<string, Queen> {
  const byHive = new Map<string, Queen[]>();
  for (const q of queens) {
    const list = byHive.get(q.hiveId);
    if (list) list.push(q);
    else byHive.set(q.hiveId, [q]);
  }
  const out = new Map<string, Queen>();
  for (const [hiveId, list] of byHive) {
    const q = reigningQueen(list);
    if (q) out.set(hiveId, q);
  }
  return out;
}

/**
 * Treatments whose withdrawal period is still running, the one ending last first: client-core's
 * one rule (core/withdrawal.ts), in the hive page's order.
 */
export function runningWithdrawals(
  treatments: readonly Treatment[],
  now: Date = new Date(),
): Treatment[] {
  return coreRunningWithdrawals(treatments, now)
    .map((w) => w.treatment)
    .reverse();
}

/** One stay of a hive at an apiary; `until` is undefined while it still stands there. */
export interface Stay {
  readonly apiaryId: string;
  /** Undefined when the start is not on record (the CREATED event is missing). */
  readonly from: Date | undefined;
  readonly until: Date | undefined;
}

/** `{"from": "...", "to": "..."}` of a MOVED event; empty strings when absent or unreadable. */
export function movedEnds(detailJson: string): { from: string; to: string } {
  try {
    const d: unknown = JSON.parse(detailJson);
    if (typeof d === "object" && d !== null) {
      const { from, to } = d as Record<string, unknown>;
      return { from: typeof from === "string" ? from : "", to: typeof to === "string" ? to : "" };
    }
  } catch {
    // Not JSON: no ends known.
  }
  return { from: "", to: "" };
}

/** `{"from": n, "to": n}` of a STATUS or DISSOLVED event (status numbers), when present. */
export function statusChange(detailJson: string): { from: number; to: number } | undefined {
  try {
    const d: unknown = JSON.parse(detailJson);
    if (typeof d === "object" && d !== null) {
      const { from, to } = d as Record<string, unknown>;
      if (typeof from === "number" && typeof to === "number") return { from, to };
    }
  } catch {
    // Not JSON.
  }
  return undefined;
}

/**
 * Where a hive stood and when, newest stay first, from its events (any order): CREATED opens the
 * first stay at the event's apiary, each MOVED closes the current stay at its date and opens one
 * at its target. A MOVED with no stay before it (its CREATED is not on record) adds the stay it
 * left, start unknown.
 */
export function placementHistory(events: readonly Event[], endedAt?: Date): Stay[] {
  const relevant = events
    .filter((e) => e.type === EventType.CREATED || e.type === EventType.MOVED)
    .map((e) => ({ e, ms: toDate(e.date)?.getTime() ?? 0 }))
    .sort((a, b) => a.ms - b.ms || Number(a.e.type) - Number(b.e.type));
  const stays: { apiaryId: string; from: Date | undefined; until: Date | undefined }[] = [];
  for (const { e } of relevant) {
    const at = toDate(e.date);
    const current = stays.at(-1);
    if (e.type === EventType.CREATED) {
      if (current === undefined) stays.push({ apiaryId: e.apiaryId, from: at, until: undefined });
      continue;
    }
    const { from, to } = movedEnds(e.detailJson);
    if (current === undefined) {
      if (from !== "") stays.push({ apiaryId: from, from: undefined, until: at });
    } else {
      current.until = at;
    }
    stays.push({ apiaryId: to || e.apiaryId, from: at, until: undefined });
  }
  // A deleted hive stands nowhere: its last stay ended when it was deleted.
  const last = stays.at(-1);
  if (endedAt !== undefined && last !== undefined && last.until === undefined) {
    last.until = last.from !== undefined && last.from > endedAt ? last.from : endedAt;
  }
  return stays.reverse();
}

/**
 * The tasks of the stock card: the open ones, then those ticked done on this visit (still
 * shown, so they can be unticked). A task both open and ticked (the replica has not answered
 * yet) is listed once, in its place, as done.
 */
export function tasksWithDoneHere(
  open: readonly Task[],
  doneHere: readonly Task[],
): { task: Task; done: boolean }[] {
  const ticked = new Set(doneHere.map((x) => x.id));
  const openIds = new Set(open.map((x) => x.id));
  return [
    ...open.map((task) => ({ task, done: ticked.has(task.id) })),
    ...doneHere.filter((x) => !openIds.has(x.id)).map((task) => ({ task, done: true })),
  ];
}

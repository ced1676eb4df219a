/**
 * When a hive is due for an inspection: the one rule of GetDashboard's `dueInspections` (over
 * every inspection, as the contract says) and of the app's overview and hive list (over visits
 * only, issue 29: a hive whose scale posts every 15 minutes is still due when nobody looked in).
 * The callers differ only in which date they pass as the last one.
 *
 * A hive is due when its last inspection is at least `thresholdDays` whole days old (days as
 * `wholeDaysSince` counts them), or when it has none (days -1). The due list puts never-inspected
 * hives first, then the longest due, then by name (A–Z folded, code point order) and id.
 */
import { wholeDaysSince } from "./days.ts";
import { compareText, foldAscii } from "./query.ts";

export type InspectionAge =
  | { readonly kind: "never" }
  | { readonly kind: "days"; readonly days: number; readonly due: boolean };

/** How old a hive's last inspection (Unix ms; undefined: none) is at `now`, and whether it is due. */
export function inspectionAge(
  lastMs: number | undefined,
  nowMs: number,
  thresholdDays: number,
): InspectionAge {
  if (lastMs === undefined) return { kind: "never" };
  const days = wholeDaysSince(nowMs, lastMs);
  return { kind: "days", days, due: days >= thresholdDays };
}

export interface Due<H> {
  readonly hive: H;
  /** Unix ms of the last inspection; undefined: never inspected. */
  readonly at: number | undefined;
  /** Whole days since; -1: never inspected. */
  readonly days: number;
}

/** The due hives among `hives`, in the due list's order. */
export function dueHives<H>(
  hives: readonly H[],
  hive: { readonly id: (h: H) => string; readonly name: (h: H) => string },
  lastMs: ReadonlyMap<string, number>,
  nowMs: number,
  thresholdDays: number,
): Due<H>[] {
  return hives
    .map((h) => {
      const at = lastMs.get(hive.id(h));
      const age = inspectionAge(at, nowMs, thresholdDays);
      return {
        hive: h,
        at,
        days: age.kind === "never" ? -1 : age.days,
        due: age.kind === "never" || age.due,
      };
    })
    .filter((d) => d.due)
    .sort(
      (a, b) =>
        (a.at ?? -Infinity) - (b.at ?? -Infinity) ||
        compareText(foldAscii(hive.name(a.hive)), foldAscii(hive.name(b.hive))) ||
        compareText(hive.id(a.hive), hive.id(b.hive)),
    )
    .map(({ hive: h, at, days }) => ({ hive: h, at, days }));
}

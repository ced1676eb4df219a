/**
 * The measurements a recent inspection holds, and the recent list's rows (a scale's run of
 * readings folded into one). Whether one is only measurements: inspections/fields.ts.
 */
import type { Inspection } from "@hivekeep/proto";
import { measured } from "../../ui/charts/series.ts";

export interface Reading {
  readonly kind: "weight" | "temperature" | "humidity";
  readonly place: "hive" | "outside";
  readonly value: number;
}

/** The measurements of an inspection (0 = not measured). */
export function readingsOf(
  i: Pick<Inspection, "weightKg" | "tempHive" | "tempOutside" | "humidityHive" | "humidityOutside">,
): Reading[] {
  const all: Reading[] = [
    { kind: "weight", place: "hive", value: i.weightKg },
    { kind: "temperature", place: "hive", value: i.tempHive },
    { kind: "temperature", place: "outside", value: i.tempOutside },
    { kind: "humidity", place: "hive", value: i.humidityHive },
    { kind: "humidity", place: "outside", value: i.humidityOutside },
  ];
  return all.filter((r) => measured(r.value));
}

/** A row of the recent list: one inspection, or a run of one hive's measurements. */
export type RecentRow<R> =
  | { readonly kind: "one"; readonly item: R }
  | { readonly kind: "measurements"; readonly items: readonly R[] };

/**
 * Recent inspections as rows: measurements of the same hive that follow each other (a scale
 * reports every few hours) become one row, so they do not crowd out the visits.
 */
export function groupRecent<
  R extends { readonly hiveId: string; readonly measurementOnly: boolean },
>(items: readonly R[]): RecentRow<R>[] {
  const rows: RecentRow<R>[] = [];
  let run: R[] = [];
  const flush = () => {
    if (run.length === 1 && run[0] !== undefined) rows.push({ kind: "one", item: run[0] });
    else if (run.length > 1) rows.push({ kind: "measurements", items: run });
    run = [];
  };
  for (const item of items) {
    if (item.measurementOnly && (run.length === 0 || run[0]?.hiveId === item.hiveId)) {
      run.push(item);
      continue;
    }
    flush();
    if (item.measurementOnly) run.push(item);
    else rows.push({ kind: "one", item });
  }
  flush();
  return rows;
}

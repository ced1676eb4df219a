/**
 * The recent list's rows (a scale's run of readings folded into one). The readings an inspection
 * holds: inspections/present.ts; whether one is only measurements: inspections/fields.ts.
 */
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

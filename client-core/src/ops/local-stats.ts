/**
 * The device's StatsSource: the figures of server/src/store/stats.ts computed in TypeScript from
 * a replica's reads, held to the same contract tests (DESIGN.md §6, stats-source.ts). Its rules,
 * as in the SQL:
 *
 * - Only complete, live rows count; honey is amount_kg of live HARVEST events.
 * - Sums are decimal like SQL `sum(amount_kg::numeric)::float8`: each double becomes the decimal
 *   of its 15 significant digits (Postgres' float8 → numeric, rounding half to even), the sum is
 *   exact, and the total is rounded once to a double. So 0.1 + 0.2 kg is 0.3 kg.
 * - Years and months are UTC calendar ones; days since an inspection are whole, rounded down.
 * - Active queens count only in live hives; tasks of other users' personal scopes are invisible.
 * - Labels read queens, hives and apiaries even when tombstoned; text orders are code point ones
 *   (names folded A–Z only), as in query.ts.
 */
import { EventType } from "@hivekeep/proto";
import type { EntityName } from "../core/entities.ts";
import { dueHives } from "./due.ts";
import { compareText, type OrderTerm } from "./query.ts";
import type { ReplicaReader, ReplicaStore, StoredRow } from "./replica-store.ts";
import type { DashboardFigures, DashboardQuery, HoneyStat, StatsSource } from "./stats-source.ts";

const text = (v: unknown): string => (typeof v === "string" ? v : "");
const ms = (iso: unknown): number => Date.parse(text(iso));
const utc = (iso: unknown) => {
  const d = new Date(text(iso));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
};

/** A decimal: digits × 10^exp. */
type Decimal = { readonly digits: bigint; readonly exp: number };

/** A double as Postgres' float8 → numeric makes it: 15 significant digits, ties to even. */
export function decimalOf(x: number): Decimal {
  if (x === 0 || !Number.isFinite(x)) return { digits: 0n, exp: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const mantissa = (bits & 0xfffffffffffffn) | (biased === 0 ? 0n : 1n << 52n);
  const exp2 = Math.max(biased, 1) - 1075;
  // The exact value: mantissa × 2^exp2 = mantissa × 5^-exp2 × 10^exp2.
  let digits = exp2 >= 0 ? mantissa << BigInt(exp2) : mantissa * 5n ** BigInt(-exp2);
  let exp = Math.min(exp2, 0);
  const drop = digits.toString().length - 15;
  if (drop > 0) {
    const unit = 10n ** BigInt(drop);
    const rest = digits % unit;
    digits /= unit;
    if (2n * rest > unit || (2n * rest === unit && digits % 2n === 1n)) digits += 1n;
    exp += drop;
  }
  return { digits: x < 0 ? -digits : digits, exp };
}

/** The exact sum of the decimals of the amounts (nulls skipped), as the nearest double. */
export function sumKg(amounts: Iterable<unknown>): number {
  let total: Decimal = { digits: 0n, exp: 0 };
  for (const a of amounts) {
    if (typeof a !== "number") continue;
    const d = decimalOf(a);
    const exp = Math.min(total.exp, d.exp);
    const scale = (v: Decimal) => v.digits * 10n ** BigInt(v.exp - exp);
    total = { digits: scale(total) + scale(d), exp };
  }
  return Number(`${total.digits}e${total.exp}`);
}

const byId: OrderTerm[] = [{ column: "id" }];
const all = async (r: ReplicaReader, entity: EntityName) =>
  (await r.list(entity, { orderBy: byId })).rows;
const harvests = async (r: ReplicaReader) =>
  (await r.list("event", { where: [{ column: "type", eq: EventType.HARVEST }], orderBy: byId }))
    .rows;

/** Rows grouped by a key, in first-seen order. */
function groupBy<K>(rows: readonly StoredRow[], keyOf: (row: StoredRow) => K): Map<K, StoredRow[]> {
  const groups = new Map<K, StoredRow[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
const kgOf = (rows: readonly StoredRow[]) => sumKg(rows.map((e) => e.values.amount_kg));
const byKgLabelKey = (a: HoneyStat, b: HoneyStat) =>
  b.kg - a.kg || compareText(a.label, b.label) || compareText(a.key, b.key);

async function dashboard(r: ReplicaReader, q: DashboardQuery): Promise<DashboardFigures> {
  const now = ms(q.now);
  const apiaries = await all(r, "apiary");
  const hives = await all(r, "hive");
  const liveHives = new Set(hives.map((h) => h.id));
  const queens = await r.list("queen", { where: [{ column: "active", eq: true }], orderBy: byId });
  const { rows: open } = await r.list("task", {
    where: [{ readableBy: q.userId }, { column: "done", eq: false }],
    orderBy: [{ column: "due_at" }, { column: "created_at" }, { column: "id" }],
  });
  const events = await harvests(r);
  // Each hive's last inspection, and the recent ones, without reading every inspection (each
  // carries its photos): a device answers both from indexes.
  const lastDate = await r.maxBy(
    "inspection",
    "hive_id",
    hives.map((h) => h.id),
    "date",
  );
  const recent = await r.list("inspection", {
    orderBy: [
      { column: "date", desc: true },
      { column: "created_at", desc: true },
      { column: "id", desc: true },
    ],
    limit: q.recentInspectionCount,
  });

  const last = new Map([...lastDate].map(([hive, date]) => [hive, ms(date)]));
  const apiaryName = new Map(apiaries.map((a) => [a.id, text(a.values.name)]));
  const due = dueHives(
    hives,
    { id: (h) => h.id, name: (h) => text(h.values.name) },
    last,
    now,
    q.thresholdDays,
  );
  const year = utc(q.now).year;
  const months = groupBy(events, (e) => {
    const { year, month } = utc(e.values.date);
    return year * 100 + month;
  });

  return {
    apiaries: apiaries.length,
    hives: hives.length,
    activeQueens: queens.rows.filter((x) => liveHives.has(text(x.values.hive_id))).length,
    openTasks: open.length,
    overdueTasks: open.filter((t) => t.values.due_at != null && ms(t.values.due_at) < now).length,
    honeyKgSeason: kgOf(events.filter((e) => utc(e.values.date).year === year)),
    dueInspections: due.map(({ hive: h, days }) => ({
      hiveId: h.id,
      hiveName: text(h.values.name),
      apiaryName: apiaryName.get(text(h.values.apiary_id)) ?? "",
      daysSinceLast: days,
    })),
    nextTasks: open.slice(0, q.nextTaskCount).map((t) => ({
      id: t.id,
      title: text(t.values.title),
      dueAt: t.values.due_at == null ? null : text(t.values.due_at),
    })),
    recentInspections: recent.rows.map((i) => ({
      id: i.id,
      hiveId: text(i.values.hive_id),
      date: text(i.values.date),
    })),
    honeyHistory: [...months]
      .sort(([a], [b]) => a - b)
      .map(([k, rows]) => ({ year: Math.floor(k / 100), month: k % 100, kg: kgOf(rows) })),
  };
}

/** "<queen year> queen of <hive name>", from rows read even when tombstoned. */
async function queenLabel(r: ReplicaReader, queenId: string): Promise<string> {
  if (queenId === "") return "No queen recorded";
  const queen = await r.get("queen", queenId, { evenDeleted: true });
  if (queen?.values.year == null) return `Queen ${queenId}`;
  const hiveId = text(queen.values.hive_id);
  const hive = hiveId === "" ? undefined : await r.get("hive", hiveId, { evenDeleted: true });
  return `${queen.values.year} queen of ${hive?.values.name ?? "a removed hive"}`;
}

async function apiaryLabel(r: ReplicaReader, apiaryId: string): Promise<string> {
  const apiary =
    apiaryId === "" ? undefined : await r.get("apiary", apiaryId, { evenDeleted: true });
  const name = apiary?.values.name;
  return typeof name === "string" ? name : `Apiary ${apiaryId}`;
}

async function stats(
  groups: Map<string, StoredRow[]>,
  labelOf: (key: string) => Promise<string>,
): Promise<HoneyStat[]> {
  const out: HoneyStat[] = [];
  for (const [key, rows] of groups) out.push({ key, label: await labelOf(key), kg: kgOf(rows) });
  return out.sort(byKgLabelKey);
}

export function localStats(store: ReplicaStore): StatsSource {
  return {
    dashboard: (q) => store.read((r) => dashboard(r, q)),
    honey: (year) =>
      store.read(async (r) => {
        const events = (await harvests(r)).filter(
          (e) => year === 0 || utc(e.values.date).year === year,
        );
        const perYear = groupBy(events, (e) => utc(e.values.date).year);
        return {
          perQueen: await stats(
            groupBy(events, (e) => text(e.values.queen_id)),
            (k) => queenLabel(r, k),
          ),
          perApiary: await stats(
            groupBy(events, (e) => text(e.values.apiary_id)),
            (k) => apiaryLabel(r, k),
          ),
          perYear: [...perYear]
            .sort(([a], [b]) => a - b)
            .map(([y, rows]) => ({ key: String(y), label: String(y), kg: kgOf(rows) })),
        };
      }),
  };
}

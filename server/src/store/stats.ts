/**
 * The dashboard and honey statistics (contract §4.10), computed in SQL.
 *
 * - Only complete, live rows count. Honey figures are sums of amount_kg of
 *   live HARVEST events (a deleted harvest tombstones its event, so it drops).
 * - Sums run over numeric (`amount_kg::numeric`), so 0.1 + 0.2 kg is 0.3 kg; a sum beyond the
 *   largest double is Infinity, as on a device.
 * - Years and months are calendar years and months in UTC.
 * - "Now" is the server clock's time, passed in as a parameter (never SQL's
 *   now()), so the server decides the time in one place.
 * - Tasks in other users' personal scopes are invisible, as in Pull.
 */
import { EventType, readableScopeSql, userScope } from "@hivekeep/client-core/core";
import type { DashboardFigures } from "@hivekeep/client-core/ops";
import type { Queryable } from "../db/db.ts";

/** Live rows of table alias `t` in tenant $1. */
const live = (t: string) => `${t}.organization_id = $1 and ${t}.complete and not ${t}.deleted`;
/** Open tasks the user may see; the user's personal scope is parameter $2. */
const openTasks = `select * from tasks t where ${live("t")} and not coalesce(t.done, false)
  and ${readableScopeSql("t.scope_id", "$2")}`;
const harvestEvents = `select * from events e where ${live("e")} and e.type = ${EventType.HARVEST}`;
const utcYear = (col: string) => `extract(year from ${col} at time zone 'UTC')::int`;
const utcMonth = (col: string) => `extract(month from ${col} at time zone 'UTC')::int`;
/**
 * The smallest decimal that rounds to Infinity as a double: 2^1024 - 2^970, halfway between the
 * largest double and 2^1024 (a tie rounds to even, which is 2^1024, so Infinity).
 */
const doubleOverflow =
  "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";
/**
 * The exact sum of amount_kg, rounded once to a double, as a device's sumKg does. A sum beyond the
 * largest double is Infinity (numeric → float8 would fail with "value out of range": a 500 for
 * honey figures once two harvests of 1.7e308 kg were stored).
 */
const kgSum = `(case when coalesce(sum(amount_kg::numeric), 0) >= ${doubleOverflow}::numeric
    then 'Infinity'::float8 else coalesce(sum(amount_kg::numeric), 0)::float8 end)`;

/** The counts of the dashboard (client-core's DashboardFigures defines them once). */
export type DashboardCounts = Pick<
  DashboardFigures,
  "apiaries" | "hives" | "activeQueens" | "openTasks" | "overdueTasks" | "honeyKgSeason"
>;

export async function dashboardCounts(
  q: Queryable,
  organizationId: string,
  userId: string,
  nowIso: string,
): Promise<DashboardCounts> {
  const [r] = await q.query<Record<keyof DashboardCounts, number>>(
    `select
       (select count(*) from apiaries a where ${live("a")}) as "apiaries",
       (select count(*) from hives h where ${live("h")}) as "hives",
       (select count(*) from queens q join hives h on h.organization_id = q.organization_id
          and h.id = q.hive_id and h.complete and not h.deleted
        where ${live("q")} and q.active) as "activeQueens",
       (select count(*) from (${openTasks}) o) as "openTasks",
       (select count(*) from (${openTasks}) o where o.due_at < $3::timestamptz) as "overdueTasks",
       (select ${kgSum} from (${harvestEvents}) e
        where ${utcYear("e.date")} = ${utcYear("$3::timestamptz")}) as "honeyKgSeason"`,
    [organizationId, userScope(userId), nowIso],
  );
  return {
    apiaries: Number(r?.apiaries ?? 0),
    hives: Number(r?.hives ?? 0),
    activeQueens: Number(r?.activeQueens ?? 0),
    openTasks: Number(r?.openTasks ?? 0),
    overdueTasks: Number(r?.overdueTasks ?? 0),
    honeyKgSeason: Number(r?.honeyKgSeason ?? 0),
  };
}

export type DueInspectionRow = {
  readonly hive_id: string;
  readonly hive_name: string;
  readonly apiary_name: string;
  readonly days_since_last: number;
};

/**
 * Live hives whose last inspection is at least thresholdDays old (whole days,
 * rounded down), never-inspected hives first (-1), then the longest due, then
 * by name folded A–Z only and id in code point order (as the device does).
 */
export function dueInspections(
  q: Queryable,
  organizationId: string,
  nowIso: string,
  thresholdDays: number,
): Promise<DueInspectionRow[]> {
  return q.query<DueInspectionRow>(
    `select h.id as hive_id, h.name as hive_name, coalesce(a.name, '') as apiary_name,
       case when li.last is null then -1
         else floor(extract(epoch from ($2::timestamptz - li.last)) / 86400)::int
       end as days_since_last
     from hives h
     left join apiaries a on a.organization_id = h.organization_id and a.id = h.apiary_id
       and a.complete and not a.deleted
     left join (select i.hive_id, max(i.date) as last from inspections i where ${live("i")}
       group by i.hive_id) li on li.hive_id = h.id
     where ${live("h")}
       and (li.last is null
         or floor(extract(epoch from ($2::timestamptz - li.last)) / 86400) >= $3::int)
     order by li.last is not null, li.last, lower(h.name collate "C"), h.id collate "C"`,
    [organizationId, nowIso, thresholdDays],
  );
}

/** The next open tasks by due date (no due date last). */
export function nextTasks(
  q: Queryable,
  organizationId: string,
  userId: string,
  limit: number,
): Promise<{ id: string; title: string; due_at: Date | null }[]> {
  return q.query(
    `select o.id, o.title, o.due_at from (${openTasks}) o
     order by o.due_at asc nulls last, o.created_at, o.id limit $3`,
    [organizationId, userScope(userId), limit],
  );
}

/** The latest inspections by date. */
export function recentInspections(
  q: Queryable,
  organizationId: string,
  limit: number,
): Promise<{ id: string; hive_id: string; date: Date }[]> {
  return q.query(
    `select i.id, i.hive_id, i.date from inspections i where ${live("i")}
     order by i.date desc, i.created_at desc, i.id desc limit $2`,
    [organizationId, limit],
  );
}

/** Honey per calendar month (UTC), oldest first. */
export function honeyHistory(
  q: Queryable,
  organizationId: string,
): Promise<{ year: number; month: number; kg: number }[]> {
  return q.query(
    `select ${utcYear("e.date")} as year, ${utcMonth("e.date")} as month, ${kgSum} as kg
     from (${harvestEvents}) e group by 1, 2 order by 1, 2`,
    [organizationId],
  );
}

export type HoneyStatRow = {
  readonly key: string;
  readonly label: string;
  readonly kg: number;
};

/** Live HARVEST events of one UTC calendar year ($2; 0 = every year) in tenant $1. */
const honeyOfYear = `select coalesce(e.apiary_id, '') as apiary_id,
    coalesce(e.queen_id, '') as queen_id, ${utcYear("e.date")} as year, e.amount_kg
  from (${harvestEvents}) e where $2::int = 0 or ${utcYear("e.date")} = $2::int`;

/**
 * Honey per queen, labelled "<queen year> queen of <hive name>" (the queen's
 * row is read even when tombstoned: its honey still counts); honey recorded
 * while no queen reigned is one "No queen recorded" entry with key "".
 * Largest first, then label and key in code point order (as the device does).
 */
export function honeyPerQueen(
  q: Queryable,
  organizationId: string,
  year: number,
): Promise<HoneyStatRow[]> {
  return q.query<HoneyStatRow>(
    `select y.queen_id collate "C" as key,
       case when y.queen_id = '' then 'No queen recorded'
         when qn.year is null then 'Queen ' || y.queen_id
         else qn.year || ' queen of ' || coalesce(hv.name, 'a removed hive')
       end collate "C" as label,
       ${kgSum} as kg
     from (${honeyOfYear}) y
     left join queens qn on qn.organization_id = $1 and qn.id = y.queen_id
     left join hives hv on hv.organization_id = $1 and hv.id = qn.hive_id
     group by y.queen_id, qn.year, hv.name
     order by kg desc, label, key`,
    [organizationId, year],
  );
}

/**
 * Honey per apiary (the apiary frozen on each harvest), labelled by name; largest first, then
 * label and key in code point order.
 */
export function honeyPerApiary(
  q: Queryable,
  organizationId: string,
  year: number,
): Promise<HoneyStatRow[]> {
  return q.query<HoneyStatRow>(
    `select y.apiary_id collate "C" as key,
       coalesce(a.name, 'Apiary ' || y.apiary_id) collate "C" as label,
       ${kgSum} as kg
     from (${honeyOfYear}) y
     left join apiaries a on a.organization_id = $1 and a.id = y.apiary_id
     group by y.apiary_id, a.name
     order by kg desc, label, key`,
    [organizationId, year],
  );
}

/** Honey per calendar year (UTC), key and label "2026"; oldest first. */
export function honeyPerYear(
  q: Queryable,
  organizationId: string,
  year: number,
): Promise<HoneyStatRow[]> {
  return q.query<HoneyStatRow>(
    `select y.year::text as key, y.year::text as label, ${kgSum} as kg
     from (${honeyOfYear}) y group by y.year order by y.year`,
    [organizationId, year],
  );
}

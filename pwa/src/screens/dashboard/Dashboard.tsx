/**
 * The overview (`/`): the figures, hives due for inspection, next tasks, recent inspections and
 * the honey, all from the replica's GetDashboard (and GetHoneyStats for the season's honey per
 * apiary and queen). A new account sees how to begin instead: an apiary, then a hive.
 *
 * GetDashboard reads the whole replica (about 2 s on a phone for a big one). useLive keeps the
 * last answer while a new one is computed, and the last answers are remembered for the next
 * visit of the overview, so the page shows Loading only the first time after the app opens.
 */
import "./dashboard.css";
import type { HivekeepClient } from "@hivekeep/client-core";
import type { GetDashboardResponse, MarkingColor } from "@hivekeep/proto";
import { type DependencyList, useMemo, useState } from "react";
import { Link } from "wouter";
import { useClient, useLive, useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/routes.tsx";
import { type Format, toDate, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { BarChart } from "../../ui/charts/Chart.tsx";
import { monthTicks } from "../../ui/charts/ticks.ts";
import { Card, Empty, Loading, MarkingDot, Page, Writable } from "../../ui/page.tsx";
import { dueAfterDays } from "../hives/hive-logic.ts";
import { isMeasurementOnly } from "../inspections/fields.ts";
import { dueState } from "../records/rules.ts";
import { honeyBars, honeyByYear, type MonthKg, monthsBefore } from "./honey.ts";
import { dashboardMessages } from "./messages.ts";
import { groupRecent, type Reading, readingsOf } from "./recent.ts";

const useWords = () => useMessages(dashboardMessages);
type T = ReturnType<typeof useWords>;

/** A hive is due after this many days without an inspection (as on the hive list). */
const thresholdDays = dueAfterDays;
/** Due hives shown before "Show all". */
const dueShown = 6;

interface Recent {
  readonly id: string;
  readonly hiveId: string;
  readonly date: Date | undefined;
  readonly hiveName: string | undefined;
  readonly measurementOnly: boolean;
  readonly readings: readonly Reading[];
  readonly note: string;
}

/**
 * The last answers of the overview's queries, per replica: coming back to the overview shows
 * them at once while the query runs again (GetDashboard takes seconds on a big replica), so
 * Loading is shown only the first time after the app opens.
 */
const lastAnswers = new WeakMap<HivekeepClient, Map<string, unknown>>();

function useLiveRemembered<R>(
  name: string,
  query: (client: HivekeepClient) => Promise<R>,
  deps: DependencyList,
): R | undefined {
  const client = useClient();
  const live = useLive(query, deps);
  let answers = lastAnswers.get(client);
  if (answers === undefined) {
    answers = new Map();
    lastAnswers.set(client, answers);
  }
  if (live !== undefined) answers.set(name, live);
  return live ?? (answers.get(name) as R | undefined);
}

export default function Dashboard() {
  const t = useWords();
  const data = useLiveRemembered(
    "dashboard",
    async (c) => {
      const d = await c.stats.getDashboard({ thresholdDays });
      // The dashboard names only the ids of the recent visits: their hive and what they hold.
      const recent = await Promise.all(
        d.recentInspections.map(async (r): Promise<Recent> => {
          const [hive, inspection] = await Promise.all([
            c.hives.getHive({ id: r.hiveId }).then(
              (x) => x.hive,
              () => undefined,
            ),
            c.inspections.getInspection({ id: r.id }).then(
              (x) => x.inspection,
              () => undefined,
            ),
          ]);
          return {
            id: r.id,
            hiveId: r.hiveId,
            date: toDate(r.date),
            hiveName: hive?.name,
            measurementOnly: inspection !== undefined && isMeasurementOnly(inspection),
            readings: inspection ? readingsOf(inspection) : [],
            note: inspection?.note.trim() ?? "",
          };
        }),
      );
      return { d, recent };
    },
    [],
  );

  if (data === undefined) {
    return (
      <Page title={t("title")}>
        <Loading />
      </Page>
    );
  }
  const { d, recent } = data;
  const starting = d.apiaries === 0 || d.hives === 0;
  return (
    <Page title={t("title")}>
      {starting && <GetStarted t={t} apiaries={d.apiaries} />}
      {d.hives > 0 && <Figures t={t} d={d} />}
      <div className="dash__grid">
        {d.hives > 0 && <Due t={t} d={d} />}
        <div className="dash__col">
          {(d.hives > 0 || d.nextTasks.length > 0) && <Tasks t={t} d={d} />}
          {(d.hives > 0 || recent.length > 0) && <RecentInspections t={t} recent={recent} />}
        </div>
      </div>
      {(d.hives > 0 || d.honeyHistory.length > 0) && <Honey t={t} history={d.honeyHistory} />}
    </Page>
  );
}

function GetStarted(props: { readonly t: T; readonly apiaries: number }) {
  const { t } = props;
  const readOnly = useReadOnly();
  const hasApiary = props.apiaries > 0;
  return (
    <Card title={t("startTitle")} className="dash__start">
      <p>{t("startIntro")}</p>
      <ol className="dash__steps">
        <li className="dash__step">
          {hasApiary ? (
            <p className="dash__step-title">
              <span className="badge badge--ok">✓ {t("done")}</span> {t("startApiaryDone")}
            </p>
          ) : (
            <>
              {readOnly ? (
                <p className="dash__step-title">{t("startApiary")}</p>
              ) : (
                <Link href={paths.newApiary} className="button button--primary button--big">
                  {t("startApiary")}
                </Link>
              )}
              <p className="muted">{t("startApiaryText")}</p>
            </>
          )}
        </li>
        <li className="dash__step">
          {hasApiary && !readOnly ? (
            <Link href={paths.newHive()} className="button button--primary button--big">
              {t("startHive")}
            </Link>
          ) : (
            <p className="dash__step-title">{t("startHive")}</p>
          )}
          <p className="muted">{hasApiary ? t("startHiveText") : t("startHiveWaiting")}</p>
        </li>
        <li className="dash__step">
          <p className="dash__step-title">{t("startInspect")}</p>
          <p className="muted">{t("startInspectText")}</p>
        </li>
      </ol>
    </Card>
  );
}

function Figures(props: { readonly t: T; readonly d: GetDashboardResponse }) {
  const { t, d } = props;
  const fmt = useFormat();
  const tiles: { key: string; label: string; value: string; bad?: boolean }[] = [
    { key: "apiaries", label: t("apiaries"), value: fmt.number(d.apiaries, 0) },
    { key: "hives", label: t("hives"), value: fmt.number(d.hives, 0) },
    { key: "queens", label: t("activeQueens"), value: fmt.number(d.activeQueens, 0) },
    { key: "open", label: t("openTasks"), value: fmt.number(d.openTasks, 0) },
    {
      key: "overdue",
      label: t("overdueTasks"),
      value: fmt.number(d.overdueTasks, 0),
      bad: d.overdueTasks > 0,
    },
    { key: "honey", label: t("honeySeason"), value: fmt.kg(d.honeyKgSeason) },
  ];
  return (
    <section aria-label={t("figures")}>
      <dl className="stats dash__stats">
        {tiles.map((tile) => (
          <div key={tile.key} className={tile.bad ? "stat dash__stat--bad" : "stat"}>
            <dt className="stat__label">{tile.label}</dt>
            <dd className="stat__value">{tile.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Due(props: { readonly t: T; readonly d: GetDashboardResponse }) {
  const { t, d } = props;
  const [all, setAll] = useState(false);
  const due = d.dueInspections;
  const shown = all ? due : due.slice(0, dueShown);
  return (
    <Card title={t("dueTitle")} className="dash__due">
      <p className="muted">{t("dueHint", { days: thresholdDays })}</p>
      {due.length === 0 ? (
        <Empty>{t("dueNone")}</Empty>
      ) : (
        <ul className="list" id="dash-due-list">
          {shown.map((h) => (
            <li key={h.hiveId} className="list__item dash__due-item">
              <Link href={paths.hive(h.hiveId)} className="list__link">
                <span className="list__title">{h.hiveName}</span>
                <span className="list__meta">
                  {h.apiaryName && <span>{h.apiaryName}</span>}
                  {h.daysSinceLast < 0 ? (
                    <span className="badge badge--warn">{t("never")}</span>
                  ) : (
                    <span>{t("lastVisit", { count: h.daysSinceLast })}</span>
                  )}
                </span>
              </Link>
              <Writable>
                <Link
                  href={paths.inspect(h.hiveId)}
                  className="button dash__inspect"
                  aria-label={t("inspectHive", { hive: h.hiveName })}
                >
                  {t("inspect")}
                </Link>
              </Writable>
            </li>
          ))}
        </ul>
      )}
      {due.length > dueShown && (
        <div className="form__actions">
          <button
            type="button"
            className="button button--secondary"
            aria-expanded={all}
            aria-controls="dash-due-list"
            onClick={() => setAll(!all)}
          >
            {all ? t("showFewerDue") : t("showAllDue", { count: due.length })}
          </button>
        </div>
      )}
    </Card>
  );
}

function Tasks(props: { readonly t: T; readonly d: GetDashboardResponse }) {
  const { t, d } = props;
  const fmt = useFormat();
  const now = new Date();
  return (
    <Card title={t("tasksTitle")}>
      {d.nextTasks.length === 0 ? (
        <Empty>{t("tasksNone")}</Empty>
      ) : (
        <ul className="list">
          {d.nextTasks.map((task) => {
            const due = toDate(task.dueAt);
            return (
              <li key={task.id} className="list__item">
                <Link href={paths.tasks} className="list__link">
                  <span className="list__title">{task.title}</span>
                  <span className="list__meta">
                    {dueState({ done: false, dueAt: task.dueAt }, now) === "overdue" && (
                      <span className="badge badge--bad">{t("overdue")}</span>
                    )}
                    <span>
                      {due === undefined
                        ? t("noDue")
                        : t("due", { when: `${fmt.date(due)} (${fmt.relativeDays(due)})` })}
                    </span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <div className="form__actions">
        <Link href={paths.tasks} className="button button--secondary">
          {t("allTasks")}
        </Link>
        <Writable>
          <Link href={paths.newTask()} className="button button--secondary">
            {t("addTask")}
          </Link>
        </Writable>
      </div>
    </Card>
  );
}

function readingText(t: T, fmt: Format, r: Reading): string {
  const value =
    r.kind === "weight"
      ? fmt.kg(r.value)
      : r.kind === "temperature"
        ? fmt.celsius(r.value)
        : fmt.percent(r.value);
  // Kept on one line: "67 %" does not break between number and unit.
  return (r.place === "outside" ? t("outsideValue", { value }) : value).replace(/ /g, "\u00a0");
}

function RecentInspections(props: { readonly t: T; readonly recent: readonly Recent[] }) {
  const { t, recent } = props;
  const fmt = useFormat();
  const readings = (r: Recent) =>
    r.readings.length > 0 && (
      <span>{r.readings.map((x) => readingText(t, fmt, x)).join(" · ")}</span>
    );
  return (
    <Card title={t("recentTitle")}>
      {recent.length === 0 ? (
        <Empty>{t("recentNone")}</Empty>
      ) : (
        <ul className="list">
          {groupRecent(recent).map((row) => {
            if (row.kind === "measurements") {
              // A scale's run of readings: the hive's page has them as charts.
              const [latest] = row.items;
              const oldest = row.items[row.items.length - 1];
              if (latest === undefined || oldest === undefined) return null;
              return (
                <li key={latest.id} className="list__item">
                  <Link href={paths.hive(latest.hiveId)} className="list__link">
                    <span className="list__title">{latest.hiveName ?? t("removedHive")}</span>
                    <span className="list__meta">
                      <span className="badge">
                        {t("measurements", { count: row.items.length })}
                      </span>
                      <span>
                        {fmt.dateTime(oldest.date)} – {fmt.dateTime(latest.date)}
                      </span>
                      {readings(latest)}
                    </span>
                  </Link>
                </li>
              );
            }
            const r = row.item;
            return (
              <li key={r.id} className="list__item">
                <Link href={paths.inspection(r.id)} className="list__link">
                  <span className="list__title">{r.hiveName ?? t("removedHive")}</span>
                  <span className="list__meta">
                    <span>{fmt.dateTime(r.date)}</span>
                    {r.measurementOnly && <span className="badge">{t("measurement")}</span>}
                    {readings(r)}
                    {!r.measurementOnly && r.note !== "" && (
                      <span className="dash__note">{r.note}</span>
                    )}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

interface QueenHoney {
  readonly key: string;
  readonly kg: number;
  readonly year: number | undefined;
  readonly marking: MarkingColor | undefined;
  readonly hiveName: string | undefined;
}

function Honey(props: { readonly t: T; readonly history: readonly MonthKg[] }) {
  const { t, history } = props;
  const fmt = useFormat();
  const year = new Date().getUTCFullYear();
  // The season's honey per apiary and per queen (GetHoneyStats); the queens' labels in the
  // reader's language from their rows.
  const season = useLiveRemembered(
    `honey-${year}`,
    async (c) => {
      const h = await c.stats.getHoneyStats({ year });
      const queens = await Promise.all(
        h.perQueen.slice(0, 5).map(async (q): Promise<QueenHoney> => {
          const queen =
            q.key === ""
              ? undefined
              : await c.queens.getQueen({ id: q.key }).then(
                  (r) => r.queen,
                  () => undefined,
                );
          const hive = queen
            ? await c.hives.getHive({ id: queen.hiveId }).then(
                (r) => r.hive,
                () => undefined,
              )
            : undefined;
          return {
            key: q.key,
            kg: q.kg,
            year: queen?.year,
            marking: queen?.marking,
            hiveName: hive?.name,
          };
        }),
      );
      return { perApiary: h.perApiary, queens };
    },
    [year],
  );
  const bars = useMemo(() => honeyBars(history, new Date()), [history]);
  const years = useMemo(() => honeyByYear(history), [history]);

  if (history.length === 0) {
    return (
      <Card title={t("honeyTitle")}>
        <Empty>{t("honeyNone")}</Empty>
      </Card>
    );
  }
  const monthName = new Intl.DateTimeFormat(fmt.locale, {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  const labels = bars.map((b) => monthName.format(new Date(Date.UTC(b.year, b.month - 1, 15))));
  const values = bars.map((b) => b.kg);
  const total = values.reduce((a, b) => a + b, 0);
  const most = values.indexOf(Math.max(...values));
  const summary =
    total > 0
      ? t("honeyMonths", {
          count: bars.length,
          total: fmt.kg(total),
          month: labels[most] ?? "",
          most: fmt.kg(values[most]),
        })
      : t("honeyMonthsNone", { count: bars.length });
  const older = monthsBefore(history, bars);
  const queenLabel = (q: QueenHoney) =>
    q.key === ""
      ? t("noQueen")
      : q.year === undefined
        ? t("queenUnknown")
        : t("queenOf", { year: q.year, hive: q.hiveName ?? t("removedHive") });

  return (
    <Card title={t("honeyTitle")} className="dash__honey">
      <BarChart
        title={t("honeyByMonth")}
        summary={summary}
        seriesLabel={t("harvested")}
        categoryLabel={t("month")}
        labels={labels}
        values={values}
        ticks={monthTicks(fmt.locale, bars)}
        formatY={fmt.kg}
        formatBarValue={(v) => fmt.number(v, 1)}
      />
      {older > 0 && <p className="muted">{t("honeyOlder", { count: older })}</p>}
      <div className="dash__honey-tables">
        {years.length > 1 && (
          <HoneyTable
            title={t("byYear")}
            keyLabel={t("year")}
            amountLabel={t("amount")}
            rows={years.map((y) => ({ key: String(y.year), label: String(y.year), kg: y.kg }))}
          />
        )}
        {season !== undefined && season.perApiary.length > 0 && (
          <HoneyTable
            title={t("byApiary", { year })}
            keyLabel={t("apiary")}
            amountLabel={t("amount")}
            rows={season.perApiary.map((a) => ({ key: a.key, label: a.label, kg: a.kg }))}
          />
        )}
        {season !== undefined && season.queens.length > 0 && (
          <HoneyTable
            title={t("byQueen", { year })}
            keyLabel={t("queen")}
            amountLabel={t("amount")}
            rows={season.queens.map((q) => ({
              key: q.key,
              label: queenLabel(q),
              kg: q.kg,
              ...(q.marking === undefined ? {} : { marking: q.marking }),
            }))}
          />
        )}
      </div>
    </Card>
  );
}

function HoneyTable(props: {
  readonly title: string;
  readonly keyLabel: string;
  readonly amountLabel: string;
  readonly rows: readonly { key: string; label: string; kg: number; marking?: MarkingColor }[];
}) {
  const fmt = useFormat();
  return (
    <table className="dash__table">
      <caption>{props.title}</caption>
      <thead>
        <tr>
          <th scope="col">{props.keyLabel}</th>
          <th scope="col" className="dash__num">
            {props.amountLabel}
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">
              {r.marking !== undefined && <MarkingDot marking={r.marking} />} {r.label}
            </th>
            <td className="dash__num">{fmt.kg(r.kg)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The honey: harvests per month as a bar chart (with a sentence for screen readers), then tables
 * per year, per apiary and for the best queens of the season.
 */
import type { HoneyStat, MarkingColor } from "@hivekeep/proto";
import { useNow } from "../../app/now.tsx";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { BarChart } from "../../ui/charts/Chart.tsx";
import { monthTicks } from "../../ui/charts/ticks.ts";
import { Card, Empty, MarkingDot } from "../../ui/page.tsx";
import { honeyByYear, type MonthKg } from "./honey.ts";
import { dashboardMessages } from "./messages.ts";
import { honeyChart, type QueenHoney } from "./present.ts";

export function HoneyCard(props: {
  readonly history: readonly MonthKg[];
  /** The season of the tables per apiary and per queen. */
  readonly year: number;
  readonly perApiary: readonly HoneyStat[];
  readonly queens: readonly QueenHoney[];
}) {
  const t = useMessages(dashboardMessages);
  const fmt = useFormat();
  const now = useNow();
  const { history, year } = props;
  const chart = honeyChart(fmt.locale, history, now);
  const years = honeyByYear(history);

  if (history.length === 0) {
    return (
      <Card title={t("honeyTitle")}>
        <Empty>{t("honeyNone")}</Empty>
      </Card>
    );
  }
  const summary =
    chart.most !== undefined
      ? t("honeyMonths", {
          count: chart.bars.length,
          total: fmt.kg(chart.total),
          month: chart.most.label,
          most: fmt.kg(chart.most.kg),
        })
      : t("honeyMonthsNone", { count: chart.bars.length });
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
        labels={chart.labels}
        values={chart.values}
        ticks={monthTicks(fmt.locale, chart.bars)}
        formatY={fmt.kg}
        formatBarValue={(v) => fmt.number(v, 1)}
      />
      {chart.older > 0 && <p className="muted">{t("honeyOlder", { count: chart.older })}</p>}
      <div className="dash__honey-tables">
        {years.length > 1 && (
          <HoneyTable
            title={t("byYear")}
            keyLabel={t("year")}
            rows={years.map((y) => ({ key: String(y.year), label: String(y.year), kg: y.kg }))}
          />
        )}
        {props.perApiary.length > 0 && (
          <HoneyTable
            title={t("byApiary", { year })}
            keyLabel={t("apiary")}
            rows={props.perApiary.map((a) => ({ key: a.key, label: a.label, kg: a.kg }))}
          />
        )}
        {props.queens.length > 0 && (
          <HoneyTable
            title={t("byQueen", { year })}
            keyLabel={t("queen")}
            rows={props.queens.map((q) => ({
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
  readonly rows: readonly { key: string; label: string; kg: number; marking?: MarkingColor }[];
}) {
  const t = useMessages(dashboardMessages);
  const fmt = useFormat();
  return (
    <table className="dash__table">
      <caption>{props.title}</caption>
      <thead>
        <tr>
          <th scope="col">{props.keyLabel}</th>
          <th scope="col" className="dash__num">
            {t("amount")}
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

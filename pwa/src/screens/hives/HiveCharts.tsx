/**
 * A hive's measurements over time, from its inspections (a hive scale or climate sensor sends
 * inspections with measurement fields only): weight, temperatures (inside the hive and outside)
 * and humidity, each unit on its own chart. A field holding 0 was not measured: it is never
 * drawn, and a long pause breaks the line. Rendered lazily by the hive page, in a card of its own,
 * from the inspections the page has read already.
 */
import type { Inspection } from "@hivekeep/proto";
import { useMemo, useState } from "react";
import { useNow } from "../../app/now.tsx";
import { type Format, toDate, useFormat } from "../../format.ts";
import { useMessages, type Words } from "../../i18n.ts";
import { type ChartSeries, lineStyles, TimeChart } from "../../ui/charts/Chart.tsx";
import { chartMessages } from "../../ui/charts/messages.ts";
import { measured, measurementSeries, summarize, type TimeSeries } from "../../ui/charts/series.ts";
import { Choice } from "../../ui/forms.tsx";
import { Card } from "../../ui/page.tsx";

type T = Words<typeof chartMessages>;

/** The measurement fields of one inspection: what the charts draw. */
interface Reading {
  readonly date: Date | undefined;
  readonly weight: number;
  readonly tempHive: number;
  readonly tempOutside: number;
  readonly humidityHive: number;
  readonly humidityOutside: number;
}

type Period = "30" | "365" | "all";
const dayMs = 86_400_000;

/**
 * The span a period shows (Unix seconds): its days up to the end of today (the same all day,
 * so a chart is not redrawn for a clock that moved); "all" is the data's own.
 */
function periodRange(period: Period, now: Date): readonly [number, number] | undefined {
  if (period === "all") return undefined;
  const end = new Date(now);
  end.setHours(24, 0, 0, 0);
  const to = end.getTime() / 1000;
  return [to - Number(period) * 86_400, to];
}

function summaryOf(
  t: T,
  fmt: Format,
  data: TimeSeries,
  labels: readonly string[],
  formatY: (v: number) => string,
): string {
  return labels
    .map((series, k) => {
      const s = summarize(data.x, data.ys[k] ?? []);
      if (s === undefined) return t("seriesNone", { series });
      const day = (x: number) => fmt.date(new Date(x * 1000));
      return t("seriesSummary", {
        series,
        count: s.count,
        from: day(s.first.x),
        to: day(s.last.x),
        min: formatY(s.min),
        max: formatY(s.max),
        last: formatY(s.last.value),
      });
    })
    .join(" ");
}

function Measure(props: {
  readonly title: string;
  readonly readings: readonly Reading[];
  readonly fields: readonly { label: string; of: (r: Reading) => number }[];
  readonly formatY: (v: number) => string;
  readonly xRange: readonly [number, number] | undefined;
}) {
  const t = useMessages(chartMessages);
  const fmt = useFormat();
  const data = useMemo(
    () =>
      measurementSeries(
        props.readings,
        (r) => r.date,
        props.fields.map((f) => f.of),
      ),
    [props.readings, props.fields],
  );
  if (data.x.length === 0) return null;
  const labels = props.fields.map((f) => f.label);
  const series: ChartSeries[] = props.fields.map((f, k) => ({
    label: f.label,
    values: data.ys[k] ?? [],
    ...(lineStyles[k % lineStyles.length] ?? lineStyles[0]),
  }));
  return (
    <TimeChart
      title={props.title}
      summary={summaryOf(t, fmt, data, labels, props.formatY)}
      x={data.x}
      xRange={props.xRange}
      series={series}
      formatY={props.formatY}
    />
  );
}

/** The measurements of inspections with a date and at least one reading. */
function chartReadings(inspections: readonly Inspection[]): Reading[] {
  return inspections
    .map(
      (i): Reading => ({
        date: toDate(i.date),
        weight: i.weightKg,
        tempHive: i.tempHive,
        tempOutside: i.tempOutside,
        humidityHive: i.humidityHive,
        humidityOutside: i.humidityOutside,
      }),
    )
    .filter(
      (r) =>
        r.date !== undefined &&
        [r.weight, r.tempHive, r.tempOutside, r.humidityHive, r.humidityOutside].some(measured),
    );
}

export default function HiveCharts(props: { readonly inspections: readonly Inspection[] }) {
  const t = useMessages(chartMessages);
  const fmt = useFormat();
  const now = useNow();
  const [chosen, setChosen] = useState<Period | undefined>(undefined);
  const readings = useMemo(() => chartReadings(props.inspections), [props.inspections]);

  const recent = readings.some((r) => (r.date?.getTime() ?? 0) >= now.getTime() - 365 * dayMs);
  const period: Period = chosen ?? (recent ? "365" : "all");
  const xRange = periodRange(period, now);
  const from = xRange?.[0];
  const shown = useMemo(() => {
    if (from === undefined) return readings;
    return readings.filter((r) => (r.date?.getTime() ?? 0) >= from * 1000);
  }, [readings, from]);

  const fields = useMemo(
    () => ({
      weight: [{ label: t("hiveWeight"), of: (r: Reading) => r.weight }],
      temperature: [
        { label: t("inside"), of: (r: Reading) => r.tempHive },
        { label: t("outside"), of: (r: Reading) => r.tempOutside },
      ],
      humidity: [
        { label: t("inside"), of: (r: Reading) => r.humidityHive },
        { label: t("outside"), of: (r: Reading) => r.humidityOutside },
      ],
    }),
    [t],
  );

  return (
    <Card title={t("measurementsTitle")} className="hive-charts">
      {readings.length === 0 ? (
        <p className="muted">{t("noMeasurements")}</p>
      ) : (
        <>
          <Choice<Period>
            label={t("period")}
            value={period}
            options={[
              { value: "30", label: t("period30") },
              { value: "365", label: t("period365") },
              { value: "all", label: t("periodAll") },
            ]}
            onChange={(v) => setChosen(v)}
          />
          {shown.length === 0 ? (
            <p className="muted">{t("noneInPeriod")}</p>
          ) : (
            <>
              <Measure
                title={t("weight")}
                readings={shown}
                fields={fields.weight}
                xRange={xRange}
                formatY={fmt.kg}
              />
              <Measure
                title={t("temperature")}
                readings={shown}
                fields={fields.temperature}
                xRange={xRange}
                formatY={fmt.celsius}
              />
              <Measure
                title={t("humidity")}
                readings={shown}
                fields={fields.humidity}
                xRange={xRange}
                formatY={fmt.percent}
              />
            </>
          )}
        </>
      )}
    </Card>
  );
}

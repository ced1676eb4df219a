/**
 * A hive's measurements over time, from its readings (what a hive scale or climate sensor sends:
 * measurement fields only; a visit's hand-taken values are on the visit): weight, temperatures
 * (inside the hive and outside) and humidity, each unit on its own chart. A field holding 0 was
 * not measured: it is never drawn, and a long pause breaks the line. Years of 15-minute readings
 * are thinned to the chart's width first (client-core's min/max `downsample`), so the chart keeps
 * every peak and drop and the newest value. Rendered lazily by the hive page, in a card of its
 * own, from the readings the page has read already.
 *
 * Every period (30 days, 12 months, "All": up to ten years) draws the days before the device's
 * readings window (two weeks by default) from `client.readings.series` (issue 29: the server's
 * day buckets, cached on the device for offline use) as each day's lowest and highest value
 * (chart-data.ts), and the window's days from the readings themselves. The page reads the
 * series once, over the longest period (the cache: about 10 ms for three years), and each
 * period is cut from it: a choice draws at once, with no read (issue 29: a read per choice was
 * a third of the time from the tap on "All" to its chart). Until the series is read, no chart is
 * drawn (not the window's readings alone over the period, then again with the series).
 */
import { chartSeriesSpan, type SeriesColumn } from "@hivekeep/client-core/core";
import type { ReadingColumns } from "@hivekeep/client-core/ops";
import { useMemo, useState } from "react";
import { useLiveQuery } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { type Format, useFormat } from "../../format.ts";
import { useMessages, type Words } from "../../i18n.ts";
import { type ChartSeries, lineStyles, TimeChart } from "../../ui/charts/Chart.tsx";
import { chartMessages } from "../../ui/charts/messages.ts";
import { measurementSeries, summarize, type TimeSeries } from "../../ui/charts/series.ts";
import { Choice } from "../../ui/forms.tsx";
import { Card } from "../../ui/page.tsx";
import {
  type ChartData,
  chartBuckets,
  chartData,
  type Reading,
  rowsAt,
  thinned,
} from "./chart-data.ts";

type T = Words<typeof chartMessages>;

type Period = "30" | "365" | "all";
const dayMs = 86_400_000;

/**
 * The span a period shows (Unix seconds): its days up to the end of today (the same all day,
 * so a chart is not redrawn for a clock that moved); "all" is the data's own.
 */
function periodRange(period: Period, now: Date): readonly [number, number] | undefined {
  if (period === "all") return undefined;
  // The end of the series' span: the end of today.
  const to = chartSeriesSpan(now.getTime())[1] / 1000;
  return [to - Number(period) * 86_400, to];
}

/**
 * What a chart shows, in words. The thinned points keep each series' first, newest, lowest and
 * highest value; `counts` are the values of the period before thinning.
 */
function summaryOf(
  t: T,
  fmt: Format,
  data: TimeSeries,
  labels: readonly string[],
  counts: readonly number[],
  formatY: (v: number) => string,
): string {
  return labels
    .map((series, k) => {
      const s = summarize(data.x, data.ys[k] ?? []);
      if (s === undefined) return t("seriesNone", { series });
      const day = (x: number) => fmt.date(new Date(x * 1000));
      return t("seriesSummary", {
        series,
        count: counts[k] ?? s.count,
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
  readonly data: ChartData;
  readonly fields: readonly {
    label: string;
    key: SeriesColumn;
    of: (r: Reading) => number;
    column: (r: ReadingColumns) => readonly number[];
  }[];
  readonly formatY: (v: number) => string;
  readonly xRange: readonly [number, number] | undefined;
  /** Unix ms: the period's start (undefined: every reading). */
  readonly from: number | undefined;
}) {
  const t = useMessages(chartMessages);
  const fmt = useFormat();
  const { data, counts } = useMemo(() => {
    const { columns, fromBuckets, bucketCounts } = props.data;
    const { indices, counts } = thinned(
      columns,
      props.fields.map((f) => f.column(columns)),
      props.from,
      chartBuckets(),
      fromBuckets,
    );
    const rows = rowsAt(columns, indices);
    const data = measurementSeries(
      rows,
      (r) => r.date,
      props.fields.map((f) => f.of),
    );
    // A bucket's two points stand for the measurements of its day.
    return {
      data,
      counts: counts.map((n, k) => n + bucketCounts[props.fields[k]?.key ?? "weight_kg"]),
    };
  }, [props.data, props.fields, props.from]);
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
      summary={summaryOf(t, fmt, data, labels, counts, props.formatY)}
      x={data.x}
      xRange={props.xRange}
      series={series}
      formatY={props.formatY}
    />
  );
}

/**
 * `value` when there is one, else the last one there was: state adjusted while rendering (the
 * React way to keep something of an earlier render), so no extra commit draws in between.
 */
function useHeld<T>(value: T | undefined): T | undefined {
  const [held, setHeld] = useState<T | undefined>(value);
  if (value !== undefined && value !== held) setHeld(value);
  return value ?? held;
}

export default function HiveCharts(props: {
  readonly hiveId: string;
  readonly readings: ReadingColumns;
}) {
  const t = useMessages(chartMessages);
  const fmt = useFormat();
  const now = useNow();
  const [chosen, setChosen] = useState<Period | undefined>(undefined);
  const { readings, hiveId } = props;
  const localNewest = readings.at.at(-1);

  const recent = localNewest !== undefined && localNewest >= now.getTime() - 365 * dayMs;
  const period: Period = chosen ?? (recent ? "365" : "all");
  // Every period's days, read once (module comment), over the span the device fetches ahead.
  const [spanFrom, spanTo] = chartSeriesSpan(now.getTime());
  const series = useLiveQuery(
    async (c) => c.readings.series(hiveId, spanFrom, spanTo, { beforeWindow: true }),
    [hiveId, spanFrom, spanTo],
  );
  const answer = series.status === "ready" ? series.value : undefined;
  // Read anew (the next day), the charts keep what they drew until the answer is there.
  const view = useMemo(() => answer && { hiveId, answer }, [hiveId, answer]);
  const held = useHeld(view);
  const shown = held?.hiveId === hiveId ? held : undefined;
  const xRange = shown && periodRange(period, now);
  const from = xRange === undefined ? undefined : xRange[0] * 1000;
  const data = useMemo(
    () => chartData(readings, shown?.answer.buckets, shown?.answer.cutoff ?? 0, from),
    [readings, shown, from],
  );
  const newest = data.columns.at.at(-1);
  const anyShown = newest !== undefined && (from === undefined || newest >= from);
  // Nothing held on the device: wait for the series before saying there is nothing.
  const waiting = newest === undefined && series.status === "loading";

  const fields = useMemo(
    () => ({
      weight: [
        {
          label: t("hiveWeight"),
          key: "weight_kg" as const,
          of: (r: Reading) => r.weight,
          column: (c: ReadingColumns) => c.weightKg,
        },
      ],
      temperature: [
        {
          label: t("inside"),
          key: "temp_hive" as const,
          of: (r: Reading) => r.tempHive,
          column: (c: ReadingColumns) => c.tempHive,
        },
        {
          label: t("outside"),
          key: "temp_outside" as const,
          of: (r: Reading) => r.tempOutside,
          column: (c: ReadingColumns) => c.tempOutside,
        },
      ],
      humidity: [
        {
          label: t("inside"),
          key: "humidity_hive" as const,
          of: (r: Reading) => r.humidityHive,
          column: (c: ReadingColumns) => c.humidityHive,
        },
        {
          label: t("outside"),
          key: "humidity_outside" as const,
          of: (r: Reading) => r.humidityOutside,
          column: (c: ReadingColumns) => c.humidityOutside,
        },
      ],
    }),
    [t],
  );

  return (
    <Card title={t("measurementsTitle")} className="hive-charts">
      {waiting ? null : newest === undefined && localNewest === undefined ? (
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
          {shown === undefined ? (
            <p className="muted chart__loading">{t("chartLoading")}</p>
          ) : !anyShown ? (
            <p className="muted">{t("noneInPeriod")}</p>
          ) : (
            <>
              <Measure
                title={t("weight")}
                data={data}
                fields={fields.weight}
                xRange={xRange}
                from={from}
                formatY={fmt.kg}
              />
              <Measure
                title={t("temperature")}
                data={data}
                fields={fields.temperature}
                xRange={xRange}
                from={from}
                formatY={fmt.celsius}
              />
              <Measure
                title={t("humidity")}
                data={data}
                fields={fields.humidity}
                xRange={xRange}
                from={from}
                formatY={fmt.percent}
              />
            </>
          )}
        </>
      )}
    </Card>
  );
}

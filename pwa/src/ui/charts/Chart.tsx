/**
 * Charts with a text alternative. Each chart is a figure: its title, a sentence that says what
 * it shows (for everyone, and what a screen reader reads instead of the canvas), the canvas
 * (uPlot, loaded lazily with its CSS the first time a chart is shown), and a button that opens
 * a table of the values.
 *
 *   <TimeChart title="Weight" summary="…" x={seconds} series={[{ label, values, color }]}
 *     formatY={fmt.kg} xRange={[from, to]} />
 *   <BarChart title="Honey by month" summary="…" labels={["June 2026", …]} values={[12, …]}
 *     ticks={(indices) => …} formatY={fmt.kg} />
 */
import "./chart.css";
import {
  lazy,
  type ReactNode,
  type RefObject,
  Suspense,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { chartMessages } from "./messages.ts";
import type { PlotSeries } from "./Plot.tsx";
import { tableRows, type Value } from "./series.ts";

const Plot = lazy(() => import("./Plot.tsx"));

export type ChartSeries = PlotSeries;

/** Colours and dashes of a chart's lines, in order (dark enough on white, and told apart by dash). */
export const lineStyles = [
  { color: "#8a5700" },
  { color: "#1565c0", dash: [7, 5] },
  { color: "#2e7d32", dash: [2, 4] },
] as const;

const tableLimit = 500;

/** How near the screen a chart is drawn (the observer's margin, and the first look's). */
const nearPx = 300;

/**
 * Whether the element has come near the screen (once it has, it stays so): a chart below the
 * fold loads uPlot only when the reader scrolls towards it. A chart that is near when it first
 * lays out is drawn in that same frame (measured before the paint), not a frame or two later
 * when the observer first reports: a period chosen on a hive page is drawn at once.
 */
function useNearViewport<E extends Element>(): { ref: RefObject<E | null>; seen: boolean } {
  const ref = useRef<E>(null);
  const [seen, setSeen] = useState(typeof IntersectionObserver === "undefined");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first layout only.
  useLayoutEffect(() => {
    const box = ref.current?.getBoundingClientRect();
    // A box of no size is not laid out (hidden, or a DOM without layout): the observer decides.
    const laidOut = box !== undefined && box.height > 0;
    if (!seen && laidOut && box.top < window.innerHeight + nearPx && box.bottom > -nearPx) {
      setSeen(true);
    }
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (seen || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: `${nearPx}px 0px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen]);
  return { ref, seen };
}

function Figure(props: {
  readonly title: string;
  readonly summary: string;
  readonly height: number;
  readonly plot: ReactNode;
  readonly table: () => ReactNode;
}) {
  const t = useMessages(chartMessages);
  const [open, setOpen] = useState(false);
  const id = useId();
  const near = useNearViewport<HTMLDivElement>();
  return (
    <figure className="chart" aria-labelledby={`${id}-title`} aria-describedby={`${id}-summary`}>
      <figcaption className="chart__caption">
        <h3 className="chart__title" id={`${id}-title`}>
          {props.title}
        </h3>
        <p className="chart__summary" id={`${id}-summary`}>
          {props.summary}
        </p>
      </figcaption>
      <div
        ref={near.ref}
        className="chart__plot"
        aria-hidden="true"
        style={{ minHeight: props.height }}
      >
        {near.seen && (
          <Suspense fallback={<p className="muted chart__loading">{t("chartLoading")}</p>}>
            {props.plot}
          </Suspense>
        )}
      </div>
      <button
        type="button"
        className="button button--small button--secondary chart__toggle"
        aria-expanded={open}
        aria-controls={`${id}-table`}
        aria-label={t("tableFor", { title: props.title })}
        onClick={() => setOpen(!open)}
      >
        {t("table")}
      </button>
      {/* Scrolls when long: focusable, so a keyboard can scroll it too. */}
      <section
        id={`${id}-table`}
        className="chart__table"
        hidden={!open}
        aria-label={t("tableCaption", { title: props.title })}
        tabIndex={open ? 0 : -1}
      >
        {open && props.table()}
      </section>
    </figure>
  );
}

/** Lines over time; x in Unix seconds; a null value breaks the line, undefined is skipped. */
export function TimeChart(props: {
  readonly title: string;
  readonly summary: string;
  readonly x: readonly number[];
  /** The period shown (Unix seconds); else the span of the data. */
  readonly xRange?: readonly [number, number];
  readonly series: readonly ChartSeries[];
  readonly formatY: (v: number) => string;
  readonly height?: number;
}) {
  const t = useMessages(chartMessages);
  const fmt = useFormat();
  const height = props.height ?? 220;
  const formatX = (x: number) => fmt.dateTime(new Date(x * 1000));
  const cell = (v: Value) => (typeof v === "number" ? props.formatY(v) : "—");
  return (
    <Figure
      title={props.title}
      summary={props.summary}
      height={height}
      plot={
        <Plot
          kind="time"
          x={props.x}
          xRange={props.xRange}
          series={props.series}
          height={height}
          locale={fmt.locale}
          xLabel={t("tableDate")}
          formatY={props.formatY}
          formatX={formatX}
        />
      }
      table={() => {
        const { rows, total } = tableRows(
          { x: props.x, ys: props.series.map((s) => s.values) },
          tableLimit,
        );
        return (
          <>
            {total > rows.length && (
              <p className="muted">{t("tableNewest", { shown: rows.length, total })}</p>
            )}
            <table className="chart__values">
              <caption className="chart__sr">{t("tableCaption", { title: props.title })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("tableDate")}</th>
                  {props.series.map((s) => (
                    <th scope="col" key={s.label}>
                      {s.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.x}>
                    <th scope="row">{formatX(r.x)}</th>
                    {r.values.map((v, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed.
                      <td key={i} aria-label={typeof v === "number" ? undefined : t("notMeasured")}>
                        {cell(v)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        );
      }}
    />
  );
}

/** Bars by category (months); `labels` name each bar in the table, `ticks` on the axis. */
export function BarChart(props: {
  readonly title: string;
  readonly summary: string;
  readonly seriesLabel: string;
  readonly labels: readonly string[];
  readonly values: readonly number[];
  readonly ticks: (indices: readonly number[]) => string[];
  readonly formatY: (v: number) => string;
  readonly formatBarValue?: (v: number) => string;
  readonly categoryLabel: string;
  readonly height?: number;
}) {
  const fmt = useFormat();
  const t = useMessages(chartMessages);
  const height = props.height ?? 220;
  const x = props.values.map((_, i) => i);
  return (
    <Figure
      title={props.title}
      summary={props.summary}
      height={height}
      plot={
        <Plot
          kind="bars"
          x={x}
          series={[{ label: props.seriesLabel, values: props.values, color: "#e09b14" }]}
          height={height}
          locale={fmt.locale}
          xLabel={props.categoryLabel}
          formatY={props.formatY}
          formatBarValue={props.formatBarValue}
          barTicks={props.ticks}
        />
      }
      table={() => (
        <table className="chart__values">
          <caption className="chart__sr">{t("tableCaption", { title: props.title })}</caption>
          <thead>
            <tr>
              <th scope="col">{props.categoryLabel}</th>
              <th scope="col">{props.seriesLabel}</th>
            </tr>
          </thead>
          <tbody>
            {props.labels.map((label, i) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{props.formatY(props.values[i] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}

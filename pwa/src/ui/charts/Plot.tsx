/**
 * The uPlot canvas: the only module that imports uPlot and its CSS, loaded lazily by Chart.tsx,
 * so uPlot is never part of the first visit. It draws lines over time or bars by index, labels
 * the axes in the reader's language, and follows its container's width (phone and desktop).
 */
import "uplot/dist/uPlot.min.css";
import "./plot.css";
import { useLayoutEffect, useMemo, useRef } from "react";
import uPlot from "uplot";
import type { Value } from "./series.ts";
import {
  barScaleTop,
  barTickIndices,
  placeBarLabels,
  timeTicks,
  type ValueAxis,
  valueAxis,
  valueTicks,
} from "./ticks.ts";

export interface PlotSeries {
  readonly label: string;
  readonly values: readonly Value[];
  readonly color: string;
  /** A dash pattern: lines differ by more than colour. */
  readonly dash?: readonly number[];
}

export interface PlotProps {
  readonly kind: "time" | "bars";
  /** Unix seconds (time) or 0…n-1 (bars). */
  readonly x: readonly number[];
  /** The time axis's span (Unix seconds): the period chosen; else the data's own. */
  readonly xRange?: readonly [number, number];
  readonly series: readonly PlotSeries[];
  readonly height: number;
  readonly locale: string;
  /** The x series' name in the legend ("Date"). */
  readonly xLabel: string;
  /** A value with its unit, for the y axis and the legend ("41.5 kg"). */
  readonly formatY: (v: number) => string;
  /** A value without its unit, written above a bar where it fits. */
  readonly formatBarValue?: (v: number) => string;
  /** The legend's x value (time charts). */
  readonly formatX?: (x: number) => string;
  /** Labels of the bars at the given indices (bar charts). */
  readonly barTicks?: (indices: readonly number[]) => string[];
}

const font = "14px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const ink = "#1f1606";
const grid = "#eadcb8";
const daySec = 86_400;
/** The x axis's height; the bar labels' room above the tallest bar (CSS pixels). */
const xAxisPx = 56;
const barLabelPx = 22;

let measureCtx: CanvasRenderingContext2D | null | undefined;
function textWidth(text: string): number {
  if (measureCtx === undefined) measureCtx = document.createElement("canvas").getContext("2d");
  if (!measureCtx) return text.length * 8;
  measureCtx.font = font;
  return Math.max(...text.split("\n").map((line) => measureCtx?.measureText(line).width ?? 0));
}

function options(p: PlotProps, width: number, latest: { current: PlotProps }): uPlot.Options {
  const axis = { font, stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  const valueAxisStyle: uPlot.Axis = {
    ...axis,
    values: (_u, splits) => splits.map((v) => latest.current.formatY(v)),
    size: (_u, values) => (values ? Math.ceil(Math.max(0, ...values.map(textWidth))) + 20 : 48),
  };
  const count = p.series[0]?.values.filter((v) => typeof v === "number").length ?? 0;
  const lines: uPlot.Series[] = p.series.map((s) => ({
    label: s.label,
    stroke: s.color,
    width: 2.5,
    dash: s.dash ? [...s.dash] : undefined,
    spanGaps: false,
    points: count <= 40 ? { show: true, size: 7, fill: s.color } : { size: 7 },
    value: (_u, v) => (v == null ? "—" : latest.current.formatY(v)),
  }));

  if (p.kind === "time") {
    const ticks = timeTicks(p.locale);
    // The value axis ends on ticks, so every point lies between two labelled gridlines.
    const maxIntervals = Math.max(2, Math.floor((p.height - xAxisPx - 16) / 36));
    let yAxis: ValueAxis = { min: 0, max: 1, step: 1 };
    return {
      width,
      height: p.height,
      scales: {
        // One measurement: a day either side (uPlot's own single-point range is far too wide).
        x: {
          time: true,
          range: (u, min, max) => {
            const chosen = latest.current.xRange;
            if (chosen) return [chosen[0], chosen[1]];
            const xs = u.data[0];
            const only = xs.length === 1 ? xs[0] : min === max ? min : undefined;
            return only === undefined ? [min, max] : [only - daySec, only + daySec];
          },
        },
        y: {
          range: (_u, min, max) => {
            if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
            yAxis = valueAxis(min, max, maxIntervals);
            return [yAxis.min, yAxis.max];
          },
        },
      },
      axes: [
        {
          ...axis,
          space: 64,
          size: xAxisPx,
          values: (_u, splits, _i, _space, step) => ticks(splits, step),
        },
        { ...valueAxisStyle, splits: () => valueTicks(yAxis) },
      ],
      series: [
        {
          label: p.xLabel,
          value: (_u, v) => (v == null ? "" : (latest.current.formatX?.(v) ?? "")),
        },
        ...lines,
      ],
      // The series' names with their markers; no values (nothing to read on a still screen:
      // the table has them).
      legend: {
        show: true,
        live: false,
        // A dashed line has a dashed marker: the key does not rest on colour alone.
        markers: { width: 3, dash: (_u, i) => (p.series[i - 1]?.dash ? "dashed" : "solid") },
      },
      cursor: { drag: { x: true, y: false } },
    };
  }

  const n = p.x.length;
  return {
    width,
    height: p.height,
    scales: {
      x: { time: false, range: () => [-0.5, n - 0.5] },
      // Room above the tallest bar for its value.
      y: {
        range: (_u, _min, max) => {
          const least = barScaleTop(max, p.height - xAxisPx - 8, barLabelPx);
          const [, top] = uPlot.rangeNum(0, least, 0, true);
          return [0, top];
        },
      },
    },
    axes: [
      {
        ...axis,
        grid: { show: false },
        size: xAxisPx,
        splits: (u) => barTickIndices(n, u.bbox.width / uPlot.pxRatio, 48),
        values: (_u, splits) => latest.current.barTicks?.(splits) ?? splits.map(String),
      },
      valueAxisStyle,
    ],
    series: [
      { label: p.xLabel },
      ...p.series.map((s) => ({
        label: s.label,
        stroke: "#8a5700",
        fill: s.color,
        width: 1.5,
        points: { show: false },
        paths: uPlot.paths.bars?.({ size: [0.7, 56] }),
      })),
    ],
    legend: { show: false },
    cursor: { show: false },
    hooks: {
      // Each bar's value above it: the tallest first, each where it stays clear of the others
      // (a wide value may reach over an empty month beside it).
      draw: [
        (u) => {
          const format = latest.current.formatBarValue;
          const values = u.data[1];
          if (!format || !values) return;
          const ctx = u.ctx;
          const ratio = uPlot.pxRatio;
          ctx.save();
          ctx.font = font.replace("14px", `${Math.round(13 * ratio)}px`);
          ctx.fillStyle = ink;
          ctx.textAlign = "center";
          ctx.textBaseline = "bottom";
          const labels = Array.from(values, (v, i) => {
            const value = typeof v === "number" ? v : 0;
            const text = value > 0 ? format(value) : "";
            return {
              text,
              value,
              center: u.valToPos(i, "x", true),
              width: text === "" ? 0 : ctx.measureText(text).width,
            };
          });
          const { left, width } = u.bbox;
          for (const i of placeBarLabels(labels, left, left + width, 4 * ratio)) {
            const l = labels[i];
            if (l) ctx.fillText(l.text, l.center, u.valToPos(l.value, "y", true) - 3 * ratio);
          }
          ctx.restore();
        },
      ],
    },
  };
}

export default function Plot(props: PlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  // Charts are redrawn only when what they show changes (a live query answers anew on every
  // change of the replica, mostly with the same values).
  const key = useMemo(
    () =>
      JSON.stringify([
        props.x,
        props.xRange,
        props.series.map((s) => [s.label, s.color, s.values]),
      ]),
    [props.x, props.xRange, props.series],
  );

  // Drawn before the browser paints (a layout effect): the summary above and the canvas appear in
  // the same frame, and a new period replaces the old chart without a frame of the old one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for x and series.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const p = latest.current;
    const data = [p.x, ...p.series.map((s) => s.values)] as unknown as uPlot.AlignedData;
    const width = Math.max(el.clientWidth, 200);
    const plot = new uPlot(options(p, width, latest), data, el);
    let lastWidth = width;
    const observer = new ResizeObserver(() => {
      const w = Math.max(el.clientWidth, 200);
      if (w !== lastWidth) {
        lastWidth = w;
        plot.setSize({ width: w, height: p.height });
      }
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [key, props.kind, props.height, props.locale]);

  return <div ref={box} className="chart__canvas" />;
}

/**
 * The uPlot canvas: the only module that imports uPlot and its CSS, loaded lazily by Chart.tsx,
 * so uPlot is never part of the first visit. It draws lines over time or bars by index, labels
 * the axes in the reader's language, and follows its container's width (phone and desktop).
 */
import "uplot/dist/uPlot.min.css";
import { useEffect, useMemo, useRef } from "react";
import uPlot from "uplot";
import type { Value } from "./series.ts";
import { barTickIndices, timeTicks } from "./ticks.ts";

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

let measureCtx: CanvasRenderingContext2D | null | undefined;
function textWidth(text: string): number {
  if (measureCtx === undefined) measureCtx = document.createElement("canvas").getContext("2d");
  if (!measureCtx) return text.length * 8;
  measureCtx.font = font;
  return Math.max(...text.split("\n").map((line) => measureCtx?.measureText(line).width ?? 0));
}

function options(p: PlotProps, width: number, latest: { current: PlotProps }): uPlot.Options {
  const axis = { font, stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  const yAxis: uPlot.Axis = {
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
    return {
      width,
      height: p.height,
      scales: {
        // One measurement: a day either side (uPlot's own single-point range is far too wide).
        x: {
          time: true,
          range: (u, min, max) => {
            const xs = u.data[0];
            const only = xs.length === 1 ? xs[0] : min === max ? min : undefined;
            return only === undefined ? [min, max] : [only - daySec, only + daySec];
          },
        },
        y: {
          range: (_u, min, max) =>
            min === max
              ? [min - Math.max(1, Math.abs(min) * 0.1), max + Math.max(1, Math.abs(max) * 0.1)]
              : uPlot.rangeNum(min, max, 0.1, true),
        },
      },
      axes: [
        {
          ...axis,
          space: 64,
          size: 56,
          values: (_u, splits, _i, _space, step) => ticks(splits, step),
        },
        yAxis,
      ],
      series: [
        {
          label: p.xLabel,
          value: (_u, v) => (v == null ? "" : (latest.current.formatX?.(v) ?? "")),
        },
        ...lines,
      ],
      legend: {
        show: true,
        live: true,
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
      y: {
        range: (_u, _min, max) => {
          const [, top] = uPlot.rangeNum(0, max > 0 ? max : 1, 0.1, true);
          return [0, top];
        },
      },
    },
    axes: [
      {
        ...axis,
        grid: { show: false },
        size: 56,
        splits: (u) => barTickIndices(n, u.bbox.width / uPlot.pxRatio, 48),
        values: (_u, splits) => latest.current.barTicks?.(splits) ?? splits.map(String),
      },
      yAxis,
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
      // Each bar's value above it, where the text fits in the bar's slot.
      draw: [
        (u) => {
          const format = latest.current.formatBarValue;
          const values = u.data[1];
          if (!format || !values) return;
          const ctx = u.ctx;
          const ratio = uPlot.pxRatio;
          const slot = u.bbox.width / n;
          ctx.save();
          ctx.font = font.replace("14px", `${Math.round(13 * ratio)}px`);
          ctx.fillStyle = ink;
          ctx.textAlign = "center";
          ctx.textBaseline = "bottom";
          values.forEach((v, i) => {
            if (typeof v !== "number" || v <= 0) return;
            const text = format(v);
            if (ctx.measureText(text).width + 4 * ratio > slot) return;
            ctx.fillText(text, u.valToPos(i, "x", true), u.valToPos(v, "y", true) - 3 * ratio);
          });
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
    () => JSON.stringify([props.x, props.series.map((s) => [s.label, s.color, s.values])]),
    [props.x, props.series],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for x and series.
  useEffect(() => {
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

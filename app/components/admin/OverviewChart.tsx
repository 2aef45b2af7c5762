/**
 * One chart of the Overview (decision 060), drawn by uPlot, which is loaded only here, once the
 * console's page runs (a chunk of its own: no public page loads it). The chart is a picture for
 * the eye; its figures are in the table under it, which screen readers always read and anyone
 * can show ("Show the figures").
 */
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import type uPlot from "uplot";

export interface ChartSeries {
  label: string;
  values: number[];
  /** A colour of the style guide's palette. */
  color: string;
}

const HEIGHT = 220;

/** The day a row stands for, at noon UTC (uPlot's x axis is in seconds). */
const dayToSeconds = (day: string) => Date.parse(`${day}T12:00:00Z`) / 1000;

export function OverviewChart({
  title,
  days,
  series,
  kind,
  format = (n) => String(n),
  table,
  testId,
}: {
  title: string;
  /** The x axis: one day (YYYY-MM-DD) per point or bar. */
  days: string[];
  series: ChartSeries[];
  kind: "line" | "bars";
  format?: (n: number) => string;
  /** The same figures as a table. */
  table: ReactNode;
  testId: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  const tableId = useId();
  // One key for the figures, so a new render with the same figures draws nothing again.
  const figures = JSON.stringify([days, series, kind]);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let plot: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    const [xs, lines, chartKind] = JSON.parse(figures) as [string[], ChartSeries[], "line" | "bars"];
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([{ default: UPlot }]) => {
      if (cancelled) return;
      const bars = UPlot.paths.bars;
      const seriesOptions: uPlot.Series[] = lines.map((s, i) => ({
        label: s.label,
        stroke: s.color,
        fill: chartKind === "bars" ? s.color : undefined,
        width: chartKind === "bars" ? 0 : 2,
        points: { show: chartKind === "line" && xs.length <= 31 },
        paths: chartKind === "bars" && bars ? bars({ size: [lines.length > 1 ? 0.4 : 0.7, 48], align: lines.length > 1 ? (i === 0 ? -1 : 1) : 0 }) : undefined,
        value: (_u, v) => (v === null ? "" : format(v)),
      }));
      plot = new UPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          series: [{ value: (_u, v) => (v === null ? "" : new Date(v * 1000).toISOString().slice(0, 10)) }, ...seriesOptions],
          scales: { x: { time: true, range: chartKind === "bars" ? (_u, min, max) => [min - 3.5 * 86400, max + 3.5 * 86400] : undefined }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
          axes: [{}, { values: (_u, ticks) => ticks.map(format), size: 60 }],
        },
        [xs.map(dayToSeconds), ...lines.map((s) => s.values)],
        element,
      );
      observer = new ResizeObserver(() => plot?.setSize({ width: element.clientWidth, height: HEIGHT }));
      observer.observe(element);
      element.dataset.drawn = "true";
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [figures, format]);
  return (
    <figure className="mb-8 min-w-0" data-testid={testId}>
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-lg font-bold">{title}</h3>
        <button type="button" className="text-sm font-semibold text-blue-800 underline" aria-expanded={shown} aria-controls={tableId} onClick={() => setShown((s) => !s)}>
          {shown ? "Hide the figures" : "Show the figures"}
        </button>
      </figcaption>
      {/* The picture only; the table below says the same to a screen reader. */}
      <div ref={box} aria-hidden="true" className="w-full overflow-hidden" data-chart={testId} />
      <div id={tableId} className={shown ? "mt-2 max-h-96 overflow-auto" : "sr-only"} data-testid={`${testId}-table`}>
        {table}
      </div>
    </figure>
  );
}

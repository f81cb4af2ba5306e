/**
 * One meter's usage over a range as a bar chart drawn on the server: plain SVG, no script
 * and no inline style (the CSP allows neither). One bar per time bucket of the range, empty
 * buckets included as gaps, so the time axis is even; with several series (usage grouped by
 * workspace or key) each bar is a stack, one colour per series, with a legend below. Every
 * segment names its series, bucket and value in a `<title>`.
 *
 * An SVG scales its text with its width, so one drawing cannot be readable both across a
 * desktop page and on a phone. The chart is drawn twice, wide and narrow, and the stylesheet
 * shows the one that fits (the hidden one is `display: none`, out of the accessibility tree
 * too). Hand-drawn rather than a chart library: a library would need client-side script,
 * and these are bars on an even axis, a few dozen lines.
 */
import type { Granularity } from "../../../../tenants/account/usage.ts";
import { GRANULARITY_MS } from "../../routes/usageShared.ts";
import { date, dateTime, meterLabel, quantity } from "../format.ts";

export interface ChartSeries {
  /** Tells the series apart in `data-series`: a workspace or key id, or the meter. */
  key: string;
  label: string;
  /** Buckets with usage, as `GET /v1/usage` answers them (sparse, oldest first). */
  points: readonly { start: string; quantity: number }[];
}

export interface ChartProps {
  meter: string;
  granularity: Granularity;
  /** The range the points were summed over, aligned to the granularity; `toIso` is exclusive. */
  fromIso: string;
  toIso: string;
  /** Stacked bottom to top in this order. */
  series: readonly ChartSeries[];
  /** Usage broken down by workspace or key: a legend names each series' colour, even a lone one. */
  grouped?: boolean;
}

/** A drawing's own units; the CSS scales each to the width it gets. */
interface Frame {
  name: "wide" | "narrow";
  width: number;
  height: number;
  left: number;
}

/** Wide fills a desktop page's 72rem column at about 1.2×; narrow fills a phone at about 0.9×. */
const FRAMES: Frame[] = [
  { name: "wide", width: 960, height: 220, left: 72 },
  { name: "narrow", width: 400, height: 200, left: 64 },
];
const PLOT_RIGHT_MARGIN = 8;
const PLOT_TOP = 10;
const AXIS_HEIGHT = 26;
/** A y axis of at most this many steps above zero keeps its labels apart. */
const Y_STEPS_MAX = 4;
/** Series colours in the stylesheet (`.series-0` …); a chart draws at most this many, the rest summed as "others". */
export const CHART_COLOURS = 7;

/** A round step (1, 2 or 5 times a power of ten, at least 1) giving at most `Y_STEPS_MAX` steps up to `max`. */
export function tickStep(max: number): number {
  const rough = max / Y_STEPS_MAX;
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
  for (const multiple of [1, 2, 5, 10]) {
    if (multiple * magnitude >= rough) return multiple * magnitude;
  }
  return 10 * magnitude;
}

const bucketLabel = (granularity: Granularity, iso: string) => (granularity === "day" ? date(iso) : dateTime(iso));
const fixed = (value: number) => Number(value.toFixed(2));

/** Each bucket's segments, bottom to top: series index, start and height in units. */
interface Bucket {
  index: number;
  start: string;
  segments: { series: number; base: number; quantity: number }[];
  total: number;
}

function buckets(series: readonly ChartSeries[], fromMs: number, stepMs: number): Bucket[] {
  const byIndex = new Map<number, Bucket>();
  series.forEach((one, seriesIndex) => {
    for (const point of one.points) {
      if (point.quantity === 0) continue;
      const index = Math.floor((Date.parse(point.start) - fromMs) / stepMs);
      const bucket = byIndex.get(index) ?? { index, start: point.start, segments: [], total: 0 };
      bucket.segments.push({ series: seriesIndex, base: bucket.total, quantity: point.quantity });
      bucket.total += point.quantity;
      byIndex.set(index, bucket);
    }
  });
  return [...byIndex.values()];
}

export function Chart({ meter, granularity, fromIso, toIso, series, grouped = false }: ChartProps) {
  const stepMs = GRANULARITY_MS[granularity];
  const fromMs = Date.parse(fromIso);
  const bars = buckets(series, fromMs, stepMs);
  if (bars.length === 0) return <p class="muted usage-empty">No usage in this range.</p>;
  const slots = Math.max(1, Math.round((Date.parse(toIso) - fromMs) / stepMs));
  const lastIso = new Date(fromMs + (slots - 1) * stepMs).toISOString();
  const total = bars.reduce((sum, bar) => sum + bar.total, 0);
  const max = Math.max(...bars.map((bar) => bar.total));
  const label = meterLabel(meter);
  const first = bucketLabel(granularity, fromIso);
  const last = bucketLabel(granularity, lastIso);
  const description =
    `${label} by ${granularity}${grouped ? `, stacked by ${series.length} ${series.length === 1 ? "group" : "groups"}` : ""}, ${first} to ${last}: ` +
    `${quantity(meter, total)} in total, at most ${quantity(meter, max)} in one ${granularity}.`;
  return (
    <figure class="chart-figure" data-meter={meter} data-series-count={series.length}>
      {FRAMES.map((frame) => (
        <Drawing
          frame={frame}
          meter={meter}
          granularity={granularity}
          series={series}
          bars={bars}
          slots={slots}
          max={max}
          first={first}
          last={last}
          description={description}
          grouped={grouped}
        />
      ))}
      {grouped && (
        <figcaption>
          <ul class="chart-legend" aria-label={`${label}: colours of the groups`}>
            {series.map((one, i) => (
              <li data-series={one.key}>
                <span class={`swatch series-${i}`} aria-hidden="true" />
                {one.label}
              </li>
            ))}
          </ul>
        </figcaption>
      )}
    </figure>
  );
}

interface DrawingProps {
  frame: Frame;
  meter: string;
  granularity: Granularity;
  series: readonly ChartSeries[];
  bars: Bucket[];
  slots: number;
  max: number;
  first: string;
  last: string;
  description: string;
  grouped: boolean;
}

function Drawing(props: DrawingProps) {
  const { frame, meter, granularity, series, bars, slots, max, first, last, description, grouped } = props;
  const plotRight = frame.width - PLOT_RIGHT_MARGIN;
  const plotBottom = frame.height - AXIS_HEIGHT;
  const step = tickStep(max);
  const top = Math.ceil(max / step) * step;
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  const slot = (plotRight - frame.left) / slots;
  // Thin slots (hours over a month) are drawn edge to edge; wider ones keep a gap between bars.
  const barWidth = slot > 3 ? slot * 0.8 : slot;
  const yOf = (value: number) => plotBottom - (value / top) * (plotBottom - PLOT_TOP);
  return (
    <svg
      class={`chart usage-chart chart-${frame.name}`}
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      role="img"
      aria-label={description}
      data-meter={meter}
      data-buckets={slots}
      data-frame={frame.name}
    >
      {ticks.map((tick) => (
        <g>
          <line
            class={tick === 0 ? "axis" : "grid"}
            x1={frame.left}
            x2={plotRight}
            y1={fixed(yOf(tick))}
            y2={fixed(yOf(tick))}
          />
          <text x={frame.left - 6} y={fixed(yOf(tick) + 4)} text-anchor="end">
            {quantity(meter, tick)}
          </text>
        </g>
      ))}
      {bars.map((bar) =>
        bar.segments.map((segment) => {
          const y = yOf(segment.base + segment.quantity);
          const one = series[segment.series];
          const when = bucketLabel(granularity, bar.start);
          return (
            <rect
              class={`value series-${segment.series}`}
              x={fixed(frame.left + bar.index * slot + (slot - barWidth) / 2)}
              y={fixed(y)}
              width={fixed(barWidth)}
              height={fixed(yOf(segment.base) - y)}
              data-start={bar.start}
              data-series={one?.key}
              data-quantity={segment.quantity}
            >
              <title>
                {grouped
                  ? `${one?.label}, ${when}: ${quantity(meter, segment.quantity)}`
                  : `${when}: ${quantity(meter, segment.quantity)}`}
              </title>
            </rect>
          );
        }),
      )}
      <text x={frame.left} y={frame.height - 6} text-anchor="start">
        {first}
      </text>
      {slots > 1 && (
        <text x={plotRight} y={frame.height - 6} text-anchor="end">
          {last}
        </text>
      )}
    </svg>
  );
}

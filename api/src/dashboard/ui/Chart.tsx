/**
 * One meter's usage over a range as a bar chart drawn on the server: plain SVG, no script
 * and no inline style (the CSP allows neither), sized by its viewBox so it shrinks to phone
 * width. One bar per time bucket of the range, empty buckets included as gaps, so the time
 * axis is even; each bar names its bucket and value in a `<title>`.
 */
import type { Granularity } from "../../../../tenants/account/usage.ts";
import { GRANULARITY_MS } from "../../routes/usageShared.ts";
import { date, dateTime, meterLabel, quantity } from "../format.ts";

export interface ChartProps {
  meter: string;
  granularity: Granularity;
  /** The range the points were summed over, aligned to the granularity; `toIso` is exclusive. */
  fromIso: string;
  toIso: string;
  /** Buckets with usage, as `GET /v1/usage` answers them (sparse, oldest first). */
  points: readonly { start: string; quantity: number }[];
}

/** The drawing's own units; the CSS scales the whole picture to the width it gets. */
const VIEW_WIDTH = 400;
const VIEW_HEIGHT = 180;
const PLOT_LEFT = 64;
const PLOT_RIGHT = VIEW_WIDTH - 8;
const PLOT_TOP = 10;
const PLOT_BOTTOM = VIEW_HEIGHT - 26;
/** A y axis of at most this many steps above zero keeps its labels apart. */
const Y_STEPS_MAX = 4;

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

export function Chart({ meter, granularity, fromIso, toIso, points }: ChartProps) {
  const label = meterLabel(meter);
  const total = points.reduce((sum, point) => sum + point.quantity, 0);
  if (points.length === 0 || total === 0) {
    return <p class="muted usage-empty">No usage in this range.</p>;
  }
  const stepMs = GRANULARITY_MS[granularity];
  const fromMs = Date.parse(fromIso);
  const buckets = Math.max(1, Math.round((Date.parse(toIso) - fromMs) / stepMs));
  const lastIso = new Date(fromMs + (buckets - 1) * stepMs).toISOString();
  const max = Math.max(...points.map((point) => point.quantity));
  const step = tickStep(max);
  const top = Math.ceil(max / step) * step;
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  const slot = (PLOT_RIGHT - PLOT_LEFT) / buckets;
  // Thin slots (hours over a month) are drawn edge to edge; wider ones keep a gap between bars.
  const barWidth = slot > 3 ? slot * 0.8 : slot;
  const yOf = (value: number) => PLOT_BOTTOM - (value / top) * (PLOT_BOTTOM - PLOT_TOP);
  const first = bucketLabel(granularity, fromIso);
  const last = bucketLabel(granularity, lastIso);
  return (
    <svg
      class="chart usage-chart"
      viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
      role="img"
      aria-label={`${label} by ${granularity}, ${first} to ${last}: ${quantity(meter, total)} in total, at most ${quantity(meter, max)} in one ${granularity}.`}
      data-meter={meter}
      data-buckets={buckets}
    >
      {ticks.map((tick) => (
        <g>
          <line
            class={tick === 0 ? "axis" : "grid"}
            x1={PLOT_LEFT}
            x2={PLOT_RIGHT}
            y1={fixed(yOf(tick))}
            y2={fixed(yOf(tick))}
          />
          <text x={PLOT_LEFT - 6} y={fixed(yOf(tick) + 4)} text-anchor="end">
            {quantity(meter, tick)}
          </text>
        </g>
      ))}
      {points.map((point) => {
        const index = Math.floor((Date.parse(point.start) - fromMs) / stepMs);
        const y = yOf(point.quantity);
        return (
          <rect
            class="value"
            x={fixed(PLOT_LEFT + index * slot + (slot - barWidth) / 2)}
            y={fixed(y)}
            width={fixed(barWidth)}
            height={fixed(PLOT_BOTTOM - y)}
            data-start={point.start}
            data-quantity={point.quantity}
          >
            <title>{`${bucketLabel(granularity, point.start)}: ${quantity(meter, point.quantity)}`}</title>
          </rect>
        );
      })}
      <text x={PLOT_LEFT} y={VIEW_HEIGHT - 6} text-anchor="start">
        {first}
      </text>
      {buckets > 1 && (
        <text x={PLOT_RIGHT} y={VIEW_HEIGHT - 6} text-anchor="end">
          {last}
        </text>
      )}
    </svg>
  );
}

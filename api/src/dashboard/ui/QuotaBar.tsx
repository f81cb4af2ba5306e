/** One meter's use against its limit: a bar that turns amber at 80% and red at the limit, with the numbers in words. */
import { meterLabel, quantity } from "../format.ts";

export interface QuotaBarProps {
  meter: string;
  used: number;
  limit: number | null;
}

export function QuotaBar({ meter, used, limit }: QuotaBarProps) {
  const label = meterLabel(meter);
  if (limit === null) {
    return (
      <tr data-meter={meter}>
        <th scope="row">{label}</th>
        <td class="num" data-used={used}>
          {quantity(meter, used)}
        </td>
        <td class="muted">no limit</td>
        <td />
      </tr>
    );
  }
  if (limit === 0) {
    // A meter the plan does not include (egress on the free plan): nothing to fill.
    return (
      <tr data-meter={meter}>
        <th scope="row">{label}</th>
        <td class="num" data-used={used}>
          {quantity(meter, used)}
        </td>
        <td class="muted" data-limit={0}>
          not included
        </td>
        <td class="muted">upgrade the plan to use it</td>
      </tr>
    );
  }
  const share = used / limit;
  const percent = Math.min(100, Math.round(share * 100));
  const level = share >= 1 ? "bad" : share >= 0.8 ? "warn" : "ok";
  return (
    <tr data-meter={meter}>
      <th scope="row">{label}</th>
      <td class="num" data-used={used}>
        {quantity(meter, used)}
      </td>
      <td class="num" data-limit={limit}>
        of {quantity(meter, limit)}
      </td>
      <td>
        {/* A native meter: low/high/optimum make the browser draw it green, amber or red. */}
        <meter
          class="bar"
          min={0}
          max={100}
          low={80}
          high={99.9}
          optimum={0}
          value={percent}
          aria-label={`${label}: ${percent}% of the limit`}
          data-level={level}
        >
          {percent}%
        </meter>
        {level !== "ok" && (
          <span class={level === "bad" ? "status-bad" : "status-warn"}>
            {level === "bad" ? "limit reached" : `${percent}% used`}
          </span>
        )}
      </td>
    </tr>
  );
}

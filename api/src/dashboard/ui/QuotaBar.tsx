/** One meter's use against its limit: a bar that turns amber at 80% and red at 100%, with the numbers in words. */
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
  const share = limit === 0 ? 1 : used / limit;
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
        <div
          class={`bar ${level}`}
          role="meter"
          aria-label={`${label}: ${percent}% of the limit`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          data-level={level}
        >
          {/* SVG, not a styled span: the CSP allows no inline styles. */}
          <svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
            <rect class="track" width="100" height="10" />
            <rect class="fill" width={percent} height="10" />
          </svg>
        </div>
        {level !== "ok" && (
          <span class={level === "bad" ? "status-bad" : "status-warn"}>
            {level === "bad" ? "limit reached" : `${percent}% used`}
          </span>
        )}
      </td>
    </tr>
  );
}

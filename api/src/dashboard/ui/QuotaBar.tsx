/**
 * One meter's use this period, in one table row. On a plan with hard limits it is use
 * against the limit: a bar that turns amber at 80% and red at the limit. On a plan that
 * bills overage it is use against the included units, and past them the overage so far in
 * units and dollars (the upcoming invoice's own line, so the amount equals the invoice's).
 */
import { meterLabel, money, quantity } from "../format.ts";

export interface QuotaBarProps {
  meter: string;
  used: number;
  /** A hard cap; null on plans that bill overage instead. */
  limit: number | null;
  /** Units included in the plan's fee (for hard-capped meters, the cap itself). */
  included?: number | undefined;
  /** The invoice's overage for this meter so far; absent where nothing is billed (hard caps, stored bytes). */
  overage?: { units: number; amountMicros: number } | undefined;
  /** Whether the table has an overage column (plans that bill overage); hard-limit plans leave it out. */
  overageColumn?: boolean;
}

function ShareMeter({ label, percent, of }: { label: string; percent: number; of: string }) {
  // A native meter: low/high/optimum make the browser draw it green, amber or red.
  return (
    <meter
      class="bar"
      min={0}
      max={100}
      low={80}
      high={99.9}
      optimum={0}
      value={percent}
      aria-label={`${label}: ${percent}% of ${of}`}
    >
      {percent}%
    </meter>
  );
}

export function QuotaBar({ meter, used, limit, included, overage, overageColumn = false }: QuotaBarProps) {
  const label = meterLabel(meter);
  const usedCell = (
    <td class="num" data-used={used}>
      {quantity(meter, used)}
    </td>
  );
  if (limit === null) return <IncludedRow meter={meter} used={used} included={included ?? 0} overage={overage} />;
  if (limit === 0) {
    // A meter the plan does not include (egress on the free plan): nothing to fill.
    return (
      <tr data-meter={meter}>
        <th scope="row">{label}</th>
        {usedCell}
        <td class="muted" data-limit={0}>
          not included
        </td>
        <td class="muted">upgrade the plan to use it</td>
        {overageColumn && <td class="muted">—</td>}
      </tr>
    );
  }
  const share = used / limit;
  const percent = Math.min(100, Math.round(share * 100));
  const level = share >= 1 ? "bad" : share >= 0.8 ? "warn" : "ok";
  return (
    <tr data-meter={meter} data-level={level}>
      <th scope="row">{label}</th>
      {usedCell}
      <td class="num" data-limit={limit}>
        of {quantity(meter, limit)}
      </td>
      <td>
        <ShareMeter label={label} percent={percent} of="the limit" />
        {level !== "ok" && (
          <span class={level === "bad" ? "status-bad" : "status-warn"}>
            {level === "bad" ? "limit reached" : `${percent}% used`}
          </span>
        )}
      </td>
      {overageColumn && <td class="muted">— (a hard limit)</td>}
    </tr>
  );
}

function IncludedRow(props: { meter: string; used: number; included: number; overage: QuotaBarProps["overage"] }) {
  const { meter, used, included, overage } = props;
  const label = meterLabel(meter);
  const units = overage?.units ?? Math.max(0, used - included);
  const percent = included === 0 ? 100 : Math.min(100, Math.round((used / included) * 100));
  return (
    <tr data-meter={meter} data-included={included} data-overage={units}>
      <th scope="row">{label}</th>
      <td class="num" data-used={used}>
        {quantity(meter, used)}
      </td>
      <td class="num">{included === 0 ? "none included" : `of ${quantity(meter, included)} included`}</td>
      <td>
        {included > 0 && <ShareMeter label={label} percent={percent} of="the included units" />}
        {units > 0 && <span class="status-warn">included units used up</span>}
      </td>
      <td class="num" data-overage-micros={overage?.amountMicros ?? 0}>
        {units === 0 ? (
          <span class="muted">none yet</span>
        ) : (
          `${quantity(meter, units)} · ${money(overage?.amountMicros ?? 0)}`
        )}
      </td>
    </tr>
  );
}

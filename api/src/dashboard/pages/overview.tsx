/**
 * The overview: plan and period, cost so far against the spend cap, API requests over the
 * same default range as `GET /v1/usage`, and a row per meter from `GET /v1/quotas`'s own
 * service call: use against the limit, or on a plan that bills overage, use against the
 * included units and the overage so far from the upcoming invoice.
 */
import type { Tenant } from "../../../../tenants/account/accounts.ts";
import type { DashboardData } from "../data.ts";
import { date, money, quantity } from "../format.ts";
import { Layout } from "../ui/Layout.tsx";
import { QuotaBar } from "../ui/QuotaBar.tsx";
import { TableHead } from "../ui/TableHead.tsx";
import { TableWrap } from "../ui/TableWrap.tsx";

export interface OverviewProps {
  account: Tenant;
  csrf: string;
  billing: DashboardData["billing"];
  quotas: DashboardData["quotas"];
  upcoming: DashboardData["upcoming"];
  requests: { total: number; fromIso: string; toIso: string };
}

export function OverviewPage({ account, csrf, billing, quotas, upcoming, requests }: OverviewProps) {
  const capped = billing.spendCapMicros !== null;
  const invoiceLine = (meter: string) => upcoming.lines.find((line) => line.meter === meter);
  const billsOverage = quotas.meters.some((row) => row.limit === null);
  return (
    <Layout title="Overview" section="overview" account={account} csrf={csrf}>
      <div class="cards">
        <section class="card" aria-labelledby="plan-label">
          <div class="label" id="plan-label">
            Plan
          </div>
          <div class="value" data-plan={billing.plan}>
            {billing.plan}
          </div>
          {billing.pendingPlan && <div class="muted">changes to {billing.pendingPlan} at the period's end</div>}
        </section>
        <section class="card" aria-labelledby="period-label">
          <div class="label" id="period-label">
            Billing period
          </div>
          <div class="value">{date(billing.period.start)}</div>
          <div class="muted">until {date(billing.period.end)}</div>
        </section>
        <section class="card" aria-labelledby="cost-label">
          <div class="label" id="cost-label">
            Cost so far
          </div>
          <div class="value" data-cost-micros={billing.costSoFarMicros}>
            {money(billing.costSoFarMicros)}
          </div>
          <div class="muted">
            {capped
              ? `of a ${money(billing.spendCapMicros ?? 0)} spend cap`
              : billing.spendCapAvailable
                ? "no spend cap set"
                : "hard limits, no overage charges"}
          </div>
        </section>
        <section class="card" aria-labelledby="requests-label">
          <div class="label" id="requests-label">
            API requests, {date(requests.fromIso)} to {date(requests.toIso)}
          </div>
          <div class="value" data-requests={requests.total} data-from={requests.fromIso} data-to={requests.toIso}>
            {quantity("api_requests", requests.total)}
          </div>
          <div class="muted">
            <a href="/dashboard/usage">Usage by day</a>
          </div>
        </section>
      </div>
      <h2 id="quotas">Quotas this period</h2>
      <p class="muted">
        Resets {date(quotas.period.end)}.{" "}
        {billsOverage
          ? "Use past a meter's included units is billed as overage, shown here as it stands."
          : "Bars turn amber at 80% and red at the limit."}
      </p>
      <TableWrap label="Quotas">
        <table aria-labelledby="quotas" id="quota-table">
          <TableHead
            columns={[
              "Meter",
              { label: "Used", num: true },
              { label: billsOverage ? "Included" : "Limit", num: true },
              "Share",
              ...(billsOverage ? [{ label: "Overage so far", num: true }] : []),
            ]}
          />
          <tbody>
            {quotas.meters.map((row) => {
              const line = invoiceLine(row.meter);
              return (
                <QuotaBar
                  meter={row.meter}
                  used={row.used}
                  limit={row.limit}
                  included={row.included}
                  overage={line && { units: line.overage, amountMicros: line.amountMicros }}
                  overageColumn={billsOverage}
                />
              );
            })}
            <QuotaBar
              meter="stored_bytes"
              used={quotas.storage.used}
              limit={quotas.storage.limit}
              overageColumn={billsOverage}
            />
          </tbody>
        </table>
      </TableWrap>
    </Layout>
  );
}

/**
 * Billing: the plan, the period, the spend cap and the cost so far; the upcoming invoice
 * line by line; closed invoices; and forms to change plan and spend cap. Every number and
 * every decision comes from the `Usage` service calls behind `/v1/billing…`, so the page's
 * cost equals `costSoFarMicros` and its total equals the upcoming invoice's `totalMicros`.
 */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Tenant } from "../../../../tenants/account/accounts.ts";
import type { ClosedInvoice, Usage } from "../../../../tenants/account/usage.ts";
import { PUBLIC_PLAN_IDS } from "../../routes/billingShared.ts";
import { Id } from "../../schemas.ts";
import { type DashboardContext, type DashboardEnv, hasScope } from "../context.ts";
import { accountOf, type DashboardData } from "../data.ts";
import { date, money } from "../format.ts";
import { dashboardLimits } from "../limits.ts";
import { Layout } from "../ui/Layout.tsx";
import { PastInvoices, UpcomingInvoice } from "./billingInvoices.tsx";

/** This page's form limits, each with its reason. */
const billingFormLimits = {
  /** Plan ids are short words; a longer value is not one and is not echoed back whole. */
  planIdLengthMax: 32,
  /** Whole-dollar digits of a spend cap: a billion dollars a period is past any real cap, and keeps micros exact. */
  capDollarDigitsMax: 9,
  /** A typed amount with its separators is under 20 characters; longer text is not one and is not echoed back whole. */
  capInputLengthMax: 32,
} as const;

const InvoiceId = Id("inv");
const CAP_PATTERN = new RegExp(`^(\\d{1,${billingFormLimits.capDollarDigitsMax}})(?:\\.(\\d{1,2}))?$`);

interface Notice {
  kind: "error" | "info";
  text: string;
}

const LACKS_BILLING_MANAGE: Notice = {
  kind: "info",
  text: "This session's API key lacks the billing:manage scope: it can read billing but not change the plan or the spend cap.",
};

export function registerBillingPages(dashboard: Hono<DashboardEnv>) {
  dashboard.get("/billing", (c) => renderBilling(c, 200, { after: c.req.query("after") }));

  dashboard.post("/billing/plan", async (c) => {
    if (!canManageBilling(c)) return renderBilling(c, 403, { notice: LACKS_BILLING_MANAGE });
    const form = await c.req.parseBody();
    const plan = typeof form.plan === "string" ? form.plan.slice(0, billingFormLimits.planIdLengthMax) : "";
    const result = await c.var.services.usage.changePlan(c.get("principal").tenantId, plan);
    if (!result.ok) return renderBilling(c, 400, { notice: { kind: "error", text: result.detail } });
    return c.redirect("/dashboard/billing", 303);
  });

  dashboard.post("/billing/spend-cap", async (c) => {
    if (!canManageBilling(c)) return renderBilling(c, 403, { notice: LACKS_BILLING_MANAGE });
    const form = await c.req.parseBody();
    const typed = typeof form.amount === "string" ? form.amount.slice(0, billingFormLimits.capInputLengthMax) : "";
    const amountMicros = form.clear === "1" ? null : dollarsToMicros(typed);
    if (amountMicros === undefined) {
      const text = "Write the spend cap in dollars and cents, like 50 or 50.00, or remove the cap.";
      return renderBilling(c, 400, { notice: { kind: "error", text }, capTyped: typed });
    }
    const result = await c.var.services.usage.setSpendCap(c.get("principal").tenantId, amountMicros);
    // Well formed but not for this account as it stands (its plan or its fee): the API's 409.
    if (!result.ok) return renderBilling(c, 409, { notice: { kind: "error", text: result.detail }, capTyped: typed });
    return c.redirect("/dashboard/billing", 303);
  });
}

function canManageBilling(c: DashboardContext): boolean {
  return hasScope(c, "billing:manage");
}

/** Dollars and cents as typed ("50", "50.5", "$1,200.00") in integer micro-dollars; undefined when not an amount. */
export function dollarsToMicros(typed: string): number | undefined {
  const match = CAP_PATTERN.exec(typed.trim().replace(/^\$/, "").replaceAll(",", ""));
  if (!match?.[1]) return undefined;
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? "").padEnd(2, "0")) * 10_000;
}

interface RenderOptions {
  after?: string | undefined;
  notice?: Notice;
  /** What was typed in a refused spend-cap form, to put back in the field. */
  capTyped?: string;
}

async function renderBilling(c: DashboardContext, status: ContentfulStatusCode, options: RenderOptions) {
  const { tenantId } = c.get("principal");
  const { usage } = c.var.services;
  // A cursor is the last invoice id of the page before; anything else starts from the first.
  const after = options.after && InvoiceId.safeParse(options.after).success ? options.after : undefined;
  const limit = dashboardLimits.pageRowsMax;
  const [account, billing, upcoming, rows] = await Promise.all([
    accountOf(c.var.services.accounts, tenantId),
    usage.billing(tenantId),
    usage.upcomingInvoice(tenantId),
    // One more than shown tells whether a later page exists, as `GET /v1/billing/invoices` does.
    usage.invoices(tenantId, limit + 1, after),
  ]);
  const invoices = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? (invoices.at(-1)?.id ?? null) : null;
  const canManage = canManageBilling(c);
  return c.html(
    <BillingPage
      account={account}
      csrf={c.get("csrf")}
      billing={billing}
      upcoming={upcoming}
      invoices={{ data: invoices, nextCursor }}
      canManage={canManage}
      notice={options.notice ?? (canManage ? undefined : LACKS_BILLING_MANAGE)}
      capTyped={options.capTyped}
    />,
    status,
  );
}

type Upcoming = Awaited<ReturnType<Usage["upcomingInvoice"]>>;

interface BillingPageProps {
  account: Tenant;
  csrf: string;
  billing: DashboardData["billing"];
  upcoming: Upcoming;
  invoices: { data: ClosedInvoice[]; nextCursor: string | null };
  canManage: boolean;
  notice?: Notice | undefined;
  capTyped?: string | undefined;
}

export function BillingPage(props: BillingPageProps) {
  const { account, csrf, billing, notice } = props;
  return (
    <Layout title="Billing" section="billing" account={account} csrf={csrf}>
      {notice && (
        <p
          class={notice.kind === "error" ? "notice error" : "notice"}
          role={notice.kind === "error" ? "alert" : "status"}
        >
          {notice.text}
        </p>
      )}
      <BillingCards billing={billing} />
      <UpcomingInvoice upcoming={props.upcoming} />
      {props.canManage && (
        <>
          <PlanForm csrf={csrf} billing={billing} />
          {billing.spendCapAvailable && (
            <SpendCapForm csrf={csrf} billing={billing} feeMicros={props.upcoming.feeMicros} typed={props.capTyped} />
          )}
        </>
      )}
      <PastInvoices invoices={props.invoices} />
    </Layout>
  );
}

function BillingCards({ billing }: { billing: DashboardData["billing"] }) {
  return (
    <div class="cards">
      <section class="card" aria-labelledby="plan-label">
        <div class="label" id="plan-label">
          Plan
        </div>
        <div class="value" data-plan={billing.plan}>
          {billing.plan}
        </div>
        {billing.pendingPlan && (
          <div class="muted" data-pending-plan={billing.pendingPlan}>
            changes to {billing.pendingPlan} on {date(billing.period.end)}
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="period-label">
        <div class="label" id="period-label">
          Billing period
        </div>
        <div class="value">{date(billing.period.start)}</div>
        <div class="muted">until {date(billing.period.end)}</div>
      </section>
      <section class="card" aria-labelledby="cap-label">
        <div class="label" id="cap-label">
          Spend cap
        </div>
        <div class="value" data-spend-cap-micros={billing.spendCapMicros ?? ""}>
          {billing.spendCapMicros === null ? "none" : money(billing.spendCapMicros)}
        </div>
        {!billing.spendCapAvailable && (
          <div class="muted" data-no-spend-cap>
            the {billing.plan} plan has hard limits, so there are no charges to cap
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="cost-label">
        <div class="label" id="cost-label">
          Cost so far
        </div>
        <div class="value" data-cost-micros={billing.costSoFarMicros}>
          {money(billing.costSoFarMicros)}
        </div>
      </section>
    </div>
  );
}

function PlanForm({ csrf, billing }: { csrf: string; billing: DashboardData["billing"] }) {
  return (
    <>
      <h2 id="change-plan">Change plan</h2>
      <form method="post" action="/dashboard/billing/plan" aria-labelledby="change-plan">
        <input type="hidden" name="_csrf" value={csrf} />
        <label for="plan">Plan</label>
        <select id="plan" name="plan" aria-describedby="plan-hint">
          {PUBLIC_PLAN_IDS.map((id) => (
            <option value={id} selected={id === billing.plan}>
              {id}
            </option>
          ))}
        </select>
        <p class="hint" id="plan-hint">
          An upgrade applies at once and adds the fee difference for the rest of the period. A downgrade waits for the
          period's end; choosing the current plan cancels a waiting downgrade.
        </p>
        <p>
          <button type="submit">Change plan</button>
        </p>
      </form>
    </>
  );
}

function capInputValue(spendCapMicros: number | null): string {
  if (spendCapMicros === null || spendCapMicros % 10_000 !== 0) return "";
  return (spendCapMicros / 1_000_000).toFixed(2);
}

interface SpendCapFormProps {
  csrf: string;
  billing: DashboardData["billing"];
  feeMicros: number;
  typed?: string | undefined;
}

function SpendCapForm({ csrf, billing, feeMicros, typed }: SpendCapFormProps) {
  return (
    <>
      <h2 id="spend-cap">Spend cap</h2>
      <form method="post" action="/dashboard/billing/spend-cap" aria-labelledby="spend-cap">
        <input type="hidden" name="_csrf" value={csrf} />
        <label for="cap-amount">Spend cap in US dollars</label>
        <input
          id="cap-amount"
          name="amount"
          type="text"
          inputmode="decimal"
          autocomplete="off"
          required
          pattern={`\\$?[0-9,]{1,${billingFormLimits.capDollarDigitsMax + 3}}(\\.[0-9]{1,2})?`}
          value={typed ?? capInputValue(billing.spendCapMicros)}
          aria-describedby="cap-hint"
        />
        <p class="hint" id="cap-hint">
          Dollars and cents, like 50.00. Once this period's charges reach the cap, API requests are refused until it is
          raised or the period ends. It cannot be below this period's plan fee ({money(feeMicros)}).
        </p>
        <p>
          <button type="submit">Set spend cap</button>
        </p>
      </form>
      {billing.spendCapMicros !== null && (
        <form method="post" action="/dashboard/billing/spend-cap" data-confirm="Remove the spend cap?">
          <input type="hidden" name="_csrf" value={csrf} />
          <input type="hidden" name="clear" value="1" />
          <button type="submit" class="secondary">
            Remove the spend cap
          </button>
        </form>
      )}
    </>
  );
}

/**
 * The tenant's account as its object keeps it (the `account` row, one per object): the plan
 * snapshot, a downgrade waiting for the period's end, the spend cap, the period anchor, and
 * how far periods are invoiced. Persistence here, and the plan and spend-cap rules as pure
 * changes to the value, so the object only loads, asks and saves.
 */

import { eq } from "drizzle-orm";
import type { Db } from "../../db.ts";
import { PLANS, type Plan, publicPlan } from "../plans.ts";
import { tenants } from "../schema.ts";
import { type InvoiceBody, invoiceBody, openingFee, type StoredFeeLine, upgradeFee } from "./invoice.ts";
import { hourStart, type Period, periodAt } from "./periods.ts";

export interface Account {
  tenantId: string;
  anchorMs: number;
  plan: Plan;
  pendingPlan: Plan | null;
  spendCapMicros: number | null;
  /** The first open period's fee, part by part: the opening fee, then one part per upgrade. */
  periodFees: StoredFeeLine[];
  closedThroughMs: number;
}

type AccountRow = {
  tenant_id: string;
  anchor_ms: number;
  plan: string;
  pending_plan: string | null;
  spend_cap_micros: number | null;
  period_fee_micros: number;
  /** JSON of the open period's fee parts; NULL in rows written before fees had parts. */
  period_fees: string | null;
  closed_through_ms: number;
};

/** A new account on `plan`, its periods anchored at `anchorMs` (an hour boundary). */
export function newAccount(tenantId: string, plan: Plan, anchorMs: number): Account {
  return {
    tenantId,
    anchorMs,
    plan,
    pendingPlan: null,
    spendCapMicros: null,
    periodFees: [openingFee(plan)],
    closedThroughMs: anchorMs,
  };
}

export function readAccount(sql: SqlStorage): Account | null {
  const row = sql.exec<AccountRow>("SELECT * FROM account").toArray()[0];
  if (!row) return null;
  const plan = JSON.parse(row.plan) as Plan;
  return {
    tenantId: row.tenant_id,
    anchorMs: row.anchor_ms,
    plan,
    pendingPlan: row.pending_plan ? (JSON.parse(row.pending_plan) as Plan) : null,
    spendCapMicros: row.spend_cap_micros,
    periodFees: row.period_fees
      ? (JSON.parse(row.period_fees) as StoredFeeLine[])
      : // Written before fees had parts: the fee as one opening part, whatever it was.
        [{ ...openingFee(plan), amountMicros: row.period_fee_micros }],
    closedThroughMs: row.closed_through_ms,
  };
}

/**
 * A tenant's first account, made from its D1 row (signup time and plan) and stored. Events
 * recorded before the account existed (the first ledger kept only events) are moved into
 * its first period.
 */
export async function createAccount(sql: SqlStorage, db: Db, tenantId: string, nowMs: number): Promise<Account> {
  const tenant = await db.query.tenants.findFirst({ where: eq(tenants.id, tenantId) });
  const plan = publicPlan(tenant?.plan ?? "free") ?? PLANS.free;
  const account = newAccount(tenantId, plan, hourStart(tenant ? Date.parse(tenant.createdAt) : nowMs));
  writeAccount(sql, account);
  sql.exec(
    "UPDATE usage_events SET period_start_ms = ? WHERE period_start_ms IS NULL",
    periodAt(account.anchorMs, nowMs).startMs,
  );
  return account;
}

export function writeAccount(sql: SqlStorage, account: Account): void {
  sql.exec(
    `INSERT INTO account (id, tenant_id, anchor_ms, plan, pending_plan, spend_cap_micros, period_fee_micros, period_fees, closed_through_ms)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET plan = excluded.plan, pending_plan = excluded.pending_plan,
       spend_cap_micros = excluded.spend_cap_micros, period_fee_micros = excluded.period_fee_micros,
       period_fees = excluded.period_fees, closed_through_ms = excluded.closed_through_ms`,
    account.tenantId,
    account.anchorMs,
    JSON.stringify(account.plan),
    account.pendingPlan ? JSON.stringify(account.pendingPlan) : null,
    account.spendCapMicros,
    periodFeeMicros(account),
    JSON.stringify(account.periodFees),
    account.closedThroughMs,
  );
}

/** The first open period's plan fee: the sum of its parts. */
export function periodFeeMicros(account: Account): number {
  return account.periodFees.reduce((sum, fee) => sum + fee.amountMicros, 0);
}

/**
 * The invoice of a period from its totals. The first period not yet closed carries the
 * fee as charged (prorated on upgrade); a later one (the alarm has not closed the ended
 * period yet) is on the plan it will have: the pending one, or the current one.
 */
export function invoiceOf(account: Account, period: Period, totals: ReadonlyMap<string, number>): InvoiceBody {
  if (period.startMs <= account.closedThroughMs) return invoiceBody(account.plan, period, account.periodFees, totals);
  const plan = account.pendingPlan ?? account.plan;
  return invoiceBody(plan, period, [openingFee(plan)], totals);
}

/**
 * Changes plan the way card billing does: an upgrade (a higher fee) applies at once and
 * adds the fee difference for the time left in the period; a downgrade waits for the end
 * of the period, so the rest of a paid period keeps what was paid for. Answers whether the
 * plan in force changed (its rate then changes too).
 */
export function changePlan(account: Account, plan: Plan, nowMs: number): boolean {
  if (plan.id === account.plan.id) {
    account.pendingPlan = null;
    return false;
  }
  if (plan.monthlyFeeMicros < account.plan.monthlyFeeMicros) {
    account.pendingPlan = plan;
    return false;
  }
  account.periodFees.push(upgradeFee(account.plan, plan, periodAt(account.anchorMs, nowMs), nowMs));
  account.plan = plan;
  account.pendingPlan = null;
  if (!plan.spendCap) account.spendCapMicros = null;
  return true;
}

/**
 * Closes the first open period: the next one opens on the pending plan if there is one, with
 * that plan's whole fee. Answers whether the plan in force changed.
 */
export function closePeriod(account: Account, period: Period): boolean {
  account.closedThroughMs = period.endMs;
  const pending = account.pendingPlan;
  if (pending) {
    account.plan = pending;
    account.pendingPlan = null;
    if (!pending.spendCap) account.spendCapMicros = null;
  }
  account.periodFees = [openingFee(account.plan)];
  return pending !== null;
}

/** Why a spend cap cannot be set, or null when it can. */
export function spendCapRefusal(account: Account, amountMicros: number | null): string | null {
  if (amountMicros === null) return null;
  if (!account.plan.spendCap) return `the ${account.plan.id} plan has hard limits and no charges to cap`;
  // Admission refuses once the charges reach the cap, and the fee alone is a charge: a cap
  // equal to the fee would refuse every request, this one's own correction included.
  const feeMicros = periodFeeMicros(account);
  if (amountMicros <= feeMicros) {
    return `a spend cap at or below this period's plan fee (${feeMicros} micro-dollars) would refuse every request`;
  }
  return null;
}

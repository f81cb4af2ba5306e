/**
 * What a tenant reads about its standing, from plain values: the quotas (`/v1/quotas`) and
 * the billing state (`/v1/billing`). Pure, so the numbers a user sees are computed one way.
 */
import { METERS } from "../meters.ts";
import type { BillingState, Quotas } from "../rpc.ts";
import type { Account } from "./account.ts";
import type { Period } from "./periods.ts";

const isoOf = (ms: number) => new Date(ms).toISOString();

/**
 * Each meter's limit, use and what remains in `period`; on plans with a hard cap, time
 * reserved by runs in flight is not remaining, as admission does not count it so either.
 */
export function quotasOf(
  account: Account,
  period: Period,
  totals: ReadonlyMap<string, number>,
  reservedByMeter: ReadonlyMap<string, number>,
  storageBytes: number,
): Quotas {
  return {
    plan: account.plan.id,
    period: { start: isoOf(period.startMs), end: isoOf(period.endMs) },
    meters: METERS.map((meter) => {
      const terms = account.plan.meters[meter];
      const used = totals.get(meter) ?? 0;
      const limit = terms.overage ? null : terms.included;
      return {
        meter,
        limit,
        included: terms.included,
        used,
        remaining: limit === null ? null : Math.max(0, limit - used - (reservedByMeter.get(meter) ?? 0)),
        resetsAt: isoOf(period.endMs),
      };
    }),
    storage: { limit: account.plan.storageBytesMax, used: storageBytes },
  };
}

export function billingOf(account: Account, period: Period, costSoFarMicros: number): BillingState {
  return {
    plan: account.plan.id,
    pendingPlan: account.pendingPlan?.id ?? null,
    period: { start: isoOf(period.startMs), end: isoOf(period.endMs) },
    spendCapMicros: account.spendCapMicros,
    spendCapAvailable: account.plan.spendCap,
    costSoFarMicros,
  };
}

/**
 * The monthly request quota as the `RateLimit` headers show it beside the burst, or
 * undefined on plans that bill requests past what is included (no monthly limit to show).
 */
export function monthlyRequestWindow(
  account: Account,
  period: Period,
  totals: ReadonlyMap<string, number>,
  nowMs: number,
): { quota: number; remaining: number; windowSeconds: number; resetSeconds: number } | undefined {
  const terms = account.plan.meters.api_requests;
  if (terms.overage) return undefined;
  return {
    quota: terms.included,
    remaining: terms.included - (totals.get("api_requests") ?? 0),
    windowSeconds: Math.round((period.endMs - period.startMs) / 1000),
    resetSeconds: Math.ceil((period.endMs - nowMs) / 1000),
  };
}

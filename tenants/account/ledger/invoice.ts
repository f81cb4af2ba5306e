/**
 * An invoice from a period's totals and the plan: pure arithmetic, so the upcoming invoice,
 * the closed one and the spend-cap check can never disagree. Every amount is an integer of
 * micro-dollars; each usage line rounds up once (see plans.ts `overageAmount`).
 */
import { METERS, type Meter } from "../meters.ts";
import { overageAmount, type Plan } from "../plans.ts";

export interface InvoiceLine {
  meter: Meter;
  included: number;
  used: number;
  overage: number;
  /** Price of `unitSize` units beyond the included ones; 0 on a plan without overage. */
  unitPriceMicros: number;
  unitSize: number;
  amountMicros: number;
}

export interface InvoiceBody {
  plan: string;
  periodStart: string;
  periodEnd: string;
  feeMicros: number;
  lines: InvoiceLine[];
  totalMicros: number;
}

export function invoiceLines(plan: Plan, totals: ReadonlyMap<string, number>): InvoiceLine[] {
  return METERS.map((meter) => {
    const terms = plan.meters[meter];
    const used = totals.get(meter) ?? 0;
    const { overage, amountMicros } = overageAmount(terms, used);
    return {
      meter,
      included: terms.included,
      used,
      overage,
      unitPriceMicros: terms.overage?.priceMicros ?? 0,
      unitSize: terms.overage?.per ?? 1,
      amountMicros,
    };
  });
}

export function invoiceBody(
  plan: Plan,
  period: { startMs: number; endMs: number },
  feeMicros: number,
  totals: ReadonlyMap<string, number>,
): InvoiceBody {
  const lines = invoiceLines(plan, totals);
  return {
    plan: plan.id,
    periodStart: new Date(period.startMs).toISOString(),
    periodEnd: new Date(period.endMs).toISOString(),
    feeMicros,
    lines,
    totalMicros: feeMicros + lines.reduce((sum, line) => sum + line.amountMicros, 0),
  };
}

/** The fee for the rest of a period after an upgrade at `atMs`: the new fee × time left, rounded down. */
export function proratedFee(feeMicros: number, period: { startMs: number; endMs: number }, atMs: number): number {
  const left = BigInt(Math.max(0, period.endMs - atMs));
  return Number((BigInt(feeMicros) * left) / BigInt(period.endMs - period.startMs));
}

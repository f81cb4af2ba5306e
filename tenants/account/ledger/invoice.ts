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

/**
 * One part of a period's plan fee. A period opens with its plan's whole fee; each upgrade
 * during it adds the fee difference for the time left. The invoice carries these parts so
 * that it can say whether (and why) its fee is prorated, instead of every reader guessing.
 */
export interface FeeLine {
  plan: string;
  /** The plan upgraded from; null for the fee the period opened with. */
  upgradedFrom: string | null;
  /** When this part starts counting: the period's start, or the moment of the upgrade. */
  from: string;
  /** The monthly amount before proration: the plan's fee, or the upgrade's fee difference. */
  monthlyMicros: number;
  /** What the period is charged: `monthlyMicros` × the share of the period from `from`, rounded down. */
  amountMicros: number;
}

/** A fee part as the tenant's object keeps it: `fromMs` null stands for the start of whichever period it belongs to. */
export interface StoredFeeLine extends Omit<FeeLine, "from"> {
  fromMs: number | null;
}

export interface InvoiceBody {
  plan: string;
  periodStart: string;
  periodEnd: string;
  /** The period's plan fee: the sum of `fees`. */
  feeMicros: number;
  fees: FeeLine[];
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

/** The fee a period opens with: the plan's whole monthly fee, from the period's start. */
export function openingFee(plan: Plan): StoredFeeLine {
  return {
    plan: plan.id,
    upgradedFrom: null,
    fromMs: null,
    monthlyMicros: plan.monthlyFeeMicros,
    amountMicros: plan.monthlyFeeMicros,
  };
}

/** The fee part an upgrade from `from` to `to` at `atMs` adds: the fee difference for the time left. */
export function upgradeFee(from: Plan, to: Plan, period: { startMs: number; endMs: number }, atMs: number) {
  const monthlyMicros = to.monthlyFeeMicros - from.monthlyFeeMicros;
  return {
    plan: to.id,
    upgradedFrom: from.id,
    fromMs: atMs,
    monthlyMicros,
    amountMicros: proratedFee(monthlyMicros, period, atMs),
  } satisfies StoredFeeLine;
}

export function invoiceBody(
  plan: Plan,
  period: { startMs: number; endMs: number },
  fees: readonly StoredFeeLine[],
  totals: ReadonlyMap<string, number>,
): InvoiceBody {
  const lines = invoiceLines(plan, totals);
  const feeMicros = fees.reduce((sum, fee) => sum + fee.amountMicros, 0);
  return {
    plan: plan.id,
    periodStart: new Date(period.startMs).toISOString(),
    periodEnd: new Date(period.endMs).toISOString(),
    feeMicros,
    fees: fees.map(({ fromMs, ...fee }) => ({ ...fee, from: new Date(fromMs ?? period.startMs).toISOString() })),
    lines,
    totalMicros: feeMicros + lines.reduce((sum, line) => sum + line.amountMicros, 0),
  };
}

/** The fee for the rest of a period after an upgrade at `atMs`: the new fee × time left, rounded down. */
export function proratedFee(feeMicros: number, period: { startMs: number; endMs: number }, atMs: number): number {
  const left = BigInt(Math.max(0, period.endMs - atMs));
  return Number((BigInt(feeMicros) * left) / BigInt(period.endMs - period.startMs));
}

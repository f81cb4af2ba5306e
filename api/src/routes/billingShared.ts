/** Schemas shared by the quota and billing routes, field for field the ledger's own types. */
import { z } from "@hono/zod-openapi";
import { PLANS } from "../../../tenants/account/plans.ts";
import { Timestamp } from "../schemas.ts";
import { Meter } from "./usageShared.ts";

/** Plans a tenant may choose itself; negotiated plans are set by the operator. */
export const PUBLIC_PLAN_IDS = Object.values(PLANS)
  .filter((plan) => plan.public)
  .map((plan) => plan.id) as [string, ...string[]];

const Micros = z.number().int().openapi({ description: "Integer micro-dollars (1 000 000 = $1)." });

export const Period = z
  .object({ start: Timestamp, end: Timestamp.openapi({ description: "Exclusive." }) })
  .openapi("BillingPeriod", { description: "The current monthly billing period, anchored at signup." });

export const BillingState = z
  .object({
    plan: z.string().openapi({ example: "pro" }),
    pendingPlan: z
      .string()
      .nullable()
      .openapi({ description: "A downgrade that takes effect when the current period ends." }),
    period: Period,
    spendCapMicros: Micros.nullable().openapi({
      description: "Requests are refused (402) once this period's charges reach it; null: no cap.",
    }),
    spendCapAvailable: z.boolean().openapi({
      description:
        "Whether the plan takes a spend cap: plans that bill overage do; on plans with hard limits `PUT /v1/billing/spend-cap` answers 409.",
    }),
    costSoFarMicros: Micros.openapi({ description: "This period's charges so far: the upcoming invoice's total." }),
  })
  .openapi("BillingState");

export const QuotaRow = z
  .object({
    meter: Meter,
    limit: z.number().int().nullable().openapi({
      description: "A hard cap: usage past it is refused. Null on plans that bill overage instead.",
    }),
    included: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int().nullable().openapi({
      description: "What is left under `limit`, less the time reserved by runs in flight; null without a limit.",
    }),
    resetsAt: Timestamp,
  })
  .openapi("QuotaRow");

export const Quotas = z
  .object({
    plan: z.string(),
    period: Period,
    meters: z.array(QuotaRow),
    storage: z
      .object({
        limit: z.number().int().openapi({ description: "Bytes the tenant may store across its workspaces." }),
        used: z.number().int().openapi({
          description:
            "Bytes stored now: each workspace's unique bytes (the distinct content its tree and snapshots reach), summed.",
        }),
      })
      .openapi({ description: "A cap on bytes stored now, beside the byte-hours meter." }),
  })
  .openapi("Quotas");

export const InvoiceLine = z
  .object({
    meter: Meter,
    included: z.number().int(),
    used: z.number().int(),
    overage: z.number().int().openapi({ description: "Units past `included`, billed." }),
    unitPriceMicros: Micros.openapi({ description: "The price of `unitSize` units; 0 on a plan without overage." }),
    unitSize: z.number().int(),
    amountMicros: Micros.openapi({ description: "overage × unitPriceMicros / unitSize, rounded up." }),
  })
  .openapi("InvoiceLine");

export const FeeLine = z
  .object({
    plan: z.string(),
    upgradedFrom: z
      .string()
      .nullable()
      .openapi({ description: "The plan upgraded from; null for the fee the period opened with." }),
    from: Timestamp.openapi({ description: "When this part starts counting: the period's start or the upgrade." }),
    monthlyMicros: Micros.openapi({
      description: "The monthly amount before proration: the plan's fee, or an upgrade's fee difference.",
    }),
    amountMicros: Micros.openapi({
      description: "monthlyMicros × (periodEnd − from) / (periodEnd − periodStart), rounded down.",
    }),
  })
  .openapi("FeeLine", {
    description:
      "A part of the period's plan fee: the fee the period opened with, then one part per mid-period upgrade (prorated to the time left).",
  });

const invoiceFields = {
  plan: z.string(),
  periodStart: Timestamp,
  periodEnd: Timestamp,
  feeMicros: Micros.openapi({ description: "The plan fee for the period: the sum of `fees`." }),
  fees: z.array(FeeLine),
  lines: z.array(InvoiceLine),
  totalMicros: Micros.openapi({ description: "feeMicros plus every line's amountMicros." }),
};

export const UpcomingInvoice = z.object(invoiceFields).openapi("UpcomingInvoice");

export const Invoice = z
  .object({
    id: z.string().openapi({ example: "inv_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
    ...invoiceFields,
    createdAt: Timestamp,
  })
  .openapi("Invoice");

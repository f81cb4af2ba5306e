/**
 * The tenant object's writes to D1 besides rollups (ledger/rollup.ts): closed invoices, and
 * the plan mirrored into the tenant's row. D1 is the index the account pages and the
 * dashboard read; the object stays the truth.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db.ts";
import { newId } from "../../ids.ts";
import { invoices, tenants } from "../schema.ts";
import { type Account, closePeriod } from "./account.ts";
import type { InvoiceBody } from "./invoice.ts";
import { type Period, periodAt } from "./periods.ts";

/**
 * Writes an immutable invoice for every period of the account that has ended by `nowMs`,
 * oldest first, and closes it in the account; a downgrade waiting for a period's end then
 * takes effect (`planChanged`) and is mirrored. `save` stores the account after each.
 */
export async function closeEndedPeriods(
  db: Db,
  account: Account,
  nowMs: number,
  parts: { invoiceFor: (period: Period) => InvoiceBody; planChanged: () => void; save: () => void },
): Promise<void> {
  for (;;) {
    const period = periodAt(account.anchorMs, account.closedThroughMs);
    if (period.endMs > nowMs) return;
    await storeInvoice(db, account.tenantId, period, parts.invoiceFor(period), nowMs);
    if (closePeriod(account, period)) {
      parts.planChanged();
      await mirrorPlan(db, account.tenantId, account.plan.id);
    }
    parts.save();
  }
}

/** Stores a closed period's invoice once: its id comes from the period's end, so a retry inserts nothing. */
export async function storeInvoice(db: Db, tenantId: string, period: Period, body: InvoiceBody, nowMs: number) {
  await db
    .insert(invoices)
    .values({
      id: newId("inv", period.endMs),
      tenantId,
      periodStart: body.periodStart,
      periodEnd: body.periodEnd,
      plan: body.plan,
      lines: JSON.stringify({ feeMicros: body.feeMicros, fees: body.fees, lines: body.lines }),
      totalMicros: body.totalMicros,
      createdAt: new Date(nowMs).toISOString(),
    })
    .onConflictDoNothing();
}

export async function mirrorPlan(db: Db, tenantId: string, planId: string) {
  await db.update(tenants).set({ plan: planId }).where(eq(tenants.id, tenantId));
}

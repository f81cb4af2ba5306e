/**
 * The account's plan and spend-cap rules as changes to a plain value: upgrades prorate at
 * once, downgrades wait for the period's end, and a spend cap must leave room for a request.
 */
import { describe, expect, it } from "vitest";
import { PLANS } from "../plans.ts";
import { changePlan, closePeriod, invoiceOf, newAccount, periodFeeMicros, spendCapRefusal } from "./account.ts";
import { periodAt } from "./periods.ts";

const anchorMs = Date.parse("2036-06-10T12:00:00.000Z");
const halfwayMs = Date.parse("2036-06-25T12:00:00.000Z");

describe("a plan change", () => {
  it("upgrades at once, adding the fee difference for the half period left", () => {
    const account = newAccount("ten_1", PLANS.free, anchorMs);
    expect(changePlan(account, PLANS.pro, halfwayMs)).toBe(true);
    expect(account.plan.id).toBe("pro");
    expect(periodFeeMicros(account)).toBe(PLANS.pro.monthlyFeeMicros / 2);
    const invoice = invoiceOf(account, periodAt(anchorMs, halfwayMs), new Map());
    expect(invoice.fees.map((fee) => fee.upgradedFrom)).toEqual([null, "free"]);
  });

  it("downgrades at the period's end, dropping a spend cap the new plan cannot take", () => {
    const account = newAccount("ten_1", PLANS.pro, anchorMs);
    account.spendCapMicros = 100_000_000;
    expect(changePlan(account, PLANS.free, halfwayMs)).toBe(false);
    expect(account.plan.id).toBe("pro");
    expect(account.pendingPlan?.id).toBe("free");
    expect(closePeriod(account, periodAt(anchorMs, anchorMs))).toBe(true);
    expect(account.plan.id).toBe("free");
    expect(account.spendCapMicros).toBeNull();
    expect(periodFeeMicros(account)).toBe(0);
  });

  it("cancels a pending downgrade when the current plan is chosen again", () => {
    const account = newAccount("ten_1", PLANS.pro, anchorMs);
    changePlan(account, PLANS.free, halfwayMs);
    expect(changePlan(account, PLANS.pro, halfwayMs)).toBe(false);
    expect(account.pendingPlan).toBeNull();
  });
});

describe("a spend cap", () => {
  it("is refused on plans without overage, and at or below the period's fee", () => {
    expect(spendCapRefusal(newAccount("ten_1", PLANS.free, anchorMs), 1_000)).toMatch(/hard limits/);
    const pro = newAccount("ten_1", PLANS.pro, anchorMs);
    expect(spendCapRefusal(pro, PLANS.pro.monthlyFeeMicros)).toMatch(/would refuse every request/);
    expect(spendCapRefusal(pro, PLANS.pro.monthlyFeeMicros + 1)).toBeNull();
    expect(spendCapRefusal(pro, null)).toBeNull();
  });
});

/**
 * The billing page over HTTP in workerd: its cost and upcoming total equal the API's; plan
 * and spend-cap forms change what the API reports; a refused cap shows its reason; a
 * session without billing:manage reads but cannot post.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { installTenantHooks } from "../../../../tenants/account/hooks.ts";
import { PLANS } from "../../../../tenants/account/plans.ts";
import { call, createKey, json, signup } from "../../../../test/client.ts";
import { session as dashboardSession, page, post } from "../../../../test/dashboard.ts";
import { dollarsToMicros } from "./billing.tsx";

const session = (key: string) => dashboardSession(key, "/dashboard/billing");

const attribute = (html: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(html)?.[1];

const billingOf = async (key: string) =>
  json<{ plan: string; spendCapMicros: number | null; costSoFarMicros: number }>(
    await call("GET", "/v1/billing", { key }),
  );

describe("dashboard billing page", () => {
  it("shows the API's cost so far and upcoming total, and is not metered", async () => {
    const { key } = await signup();
    // On pro the prorated fee makes the numbers non-zero.
    expect((await call("PUT", "/v1/billing/plan", { key, json: { plan: "pro" } })).status).toBe(200);
    const { cookie } = await session(key);
    const billing = await billingOf(key);
    const upcoming = await json<{ totalMicros: number; lines: { meter: string; used: number }[] }>(
      await call("GET", "/v1/billing/invoices/upcoming", { key }),
    );
    expect(billing.costSoFarMicros).toBeGreaterThan(0);

    const response = await page("/dashboard/billing", cookie);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(Number(attribute(html, "data-cost-micros"))).toBe(billing.costSoFarMicros);
    expect(Number(attribute(html, "data-total-micros"))).toBe(upcoming.totalMicros);
    expect(attribute(html, "data-plan")).toBe("pro");
    // Page views are not API requests: the count the API last reported is the count shown.
    const requests = upcoming.lines.find((line) => line.meter === "api_requests")?.used;
    expect(/data-meter="api_requests"[\s\S]*?data-used="(\d+)"/.exec(html)?.[1]).toBe(String(requests));
    await page("/dashboard/billing", cookie);
    const after = await json<{ lines: { meter: string; used: number }[] }>(
      await call("GET", "/v1/billing/invoices/upcoming", { key }),
    );
    expect(after.lines.find((line) => line.meter === "api_requests")?.used).toBe((requests ?? 0) + 1);
    expect(html).toContain("$0.50 per 1,000,000");
    expect(html).toContain("No closed invoices yet");
  });

  it("upgrades the plan and sets and clears a spend cap through its forms", async () => {
    const { key } = await signup();
    const { cookie, csrf } = await session(key);
    const upgraded = await post("/dashboard/billing/plan", cookie, { _csrf: csrf, plan: "pro" });
    expect(upgraded.status, await upgraded.clone().text()).toBe(303);
    expect(upgraded.headers.get("location")).toBe("/dashboard/billing");
    expect((await billingOf(key)).plan).toBe("pro");

    const capped = await post("/dashboard/billing/spend-cap", cookie, { _csrf: csrf, amount: "50.00" });
    expect(capped.status, await capped.clone().text()).toBe(303);
    expect((await billingOf(key)).spendCapMicros).toBe(50_000_000);
    const shown = await (await page("/dashboard/billing", cookie)).text();
    expect(attribute(shown, "data-spend-cap-micros")).toBe("50000000");
    expect(shown).toContain('value="50.00"');

    const cleared = await post("/dashboard/billing/spend-cap", cookie, { _csrf: csrf, clear: "1" });
    expect(cleared.status).toBe(303);
    expect((await billingOf(key)).spendCapMicros).toBeNull();
  });

  it("shows why a cap or plan is refused, and changes nothing", async () => {
    const { key } = await signup();
    const { cookie, csrf } = await session(key);
    const onFree = await post("/dashboard/billing/spend-cap", cookie, { _csrf: csrf, amount: "50.00" });
    expect(onFree.status).toBe(409);
    const html = await onFree.text();
    expect(html).toContain("the free plan has hard limits and no charges to cap");
    expect(html).toContain('role="alert"');

    const garbled = await post("/dashboard/billing/spend-cap", cookie, { _csrf: csrf, amount: "fifty" });
    expect(garbled.status).toBe(400);
    expect(await garbled.text()).toContain("dollars and cents");

    const unknown = await post("/dashboard/billing/plan", cookie, { _csrf: csrf, plan: "enterprise" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("no plan `enterprise`");
    expect(await billingOf(key)).toMatchObject({ plan: "free", spendCapMicros: null });
  });

  it("lets a session without billing:manage read billing but not change it", async () => {
    const { key } = await signup();
    const reader = await createKey(key, { scopes: ["billing:read"] });
    const { cookie, csrf } = await session(reader.key);
    const html = await (await page("/dashboard/billing", cookie)).text();
    expect(html).toContain("lacks the billing:manage scope");
    expect(html).not.toContain('action="/dashboard/billing/plan"');

    const plan = await post("/dashboard/billing/plan", cookie, { _csrf: csrf, plan: "pro" });
    expect(plan.status).toBe(403);
    const cap = await post("/dashboard/billing/spend-cap", cookie, { _csrf: csrf, clear: "1" });
    expect(cap.status).toBe(403);
    expect((await billingOf(key)).plan).toBe("free");
  });
});

describe("dashboard billing page, in words", () => {
  const amounts = (html: string) => [...html.matchAll(/\$[\d,]+(\.\d+)?/g)].map((match) => match[0]);

  it("on free: no proration, no spend-cap form, and every amount in cents", async () => {
    const { key } = await signup();
    const { cookie } = await session(key);
    const html = await (await page("/dashboard/billing", cookie)).text();
    expect(html).toMatch(/^<!doctype html>/i);
    const invoice = /<table aria-labelledby="upcoming"[\s\S]*?<\/table>/.exec(html)?.[0] ?? "";
    expect(invoice).toContain("Plan fee");
    // What a reader sees: the text, not the attributes.
    expect(invoice.replace(/<[^>]*>/g, " ")).not.toMatch(/prorat|upgrade/i);
    expect(html).toContain("the free plan has no fee");
    expect(html).toMatch(/data-prorated="false"/);
    expect(html).not.toContain('action="/dashboard/billing/spend-cap"');
    expect(html).toContain("the free plan has hard limits, so there are no charges to cap");
    expect(html).toContain('action="/dashboard/billing/plan"');
    for (const amount of amounts(html.replace(/per [^<]*/g, ""))) expect(amount).toMatch(/^\$[\d,]+\.\d\d$/);
  });

  it("after an upgrade: the prorated part explained, in cents, and the spend-cap form", async () => {
    const { key, tenantId } = await signup();
    // Half a day into the period, on the tenant object's own clock: the upgrade's part is $19.6x.
    installTenantHooks(tenantId, { now: () => Date.now() + 12 * 3_600_000 });
    expect((await call("PUT", "/v1/billing/plan", { key, json: { plan: "pro" } })).status).toBe(200);
    const upcoming = await json<{ feeMicros: number; fees: { upgradedFrom: string | null; amountMicros: number }[] }>(
      await call("GET", "/v1/billing/invoices/upcoming", { key }),
    );
    expect(upcoming.fees.map((fee) => fee.upgradedFrom)).toEqual([null, "free"]);
    expect(upcoming.feeMicros % 10_000).not.toBe(0);
    const { cookie } = await session(key);
    const html = await (await page("/dashboard/billing", cookie)).text();
    expect(html).toMatch(/data-prorated="true"/);
    expect(html).toMatch(
      /Upgrade to pro[\s\S]*from free on \d{4}-\d\d-\d\d \d\d:\d\d UTC: the \$20\.00 monthly difference, prorated to the (\d+ days? )?(\d+ h )?(\d+ min )?of \d+ days left/,
    );
    const cents = `$${(Math.round(upcoming.feeMicros / 10_000) / 100).toFixed(2)}`;
    expect(cents).toMatch(/^\$19\.6\d$/);
    expect(html).toMatch(new RegExp(`data-prorated="true"[\\s\\S]*?<td class="num">\\${cents}</td>`));
    // About half a day short of the whole period, to the minute.
    expect(html).toMatch(/prorated to the \d\d days 1[01] h( \d+ min)? of (28|29|30|31) days left/);
    // Cents only, though the fee is not a whole number of cents in micro-dollars.
    expect(html).not.toMatch(/\$\d[\d,]*\.\d{3}/);
    expect(html).toContain('action="/dashboard/billing/spend-cap"');
  });
});

describe("dollarsToMicros", () => {
  it("turns dollars and cents into integer micro-dollars and refuses anything else", () => {
    expect(dollarsToMicros("50")).toBe(50_000_000);
    expect(dollarsToMicros("50.5")).toBe(50_500_000);
    expect(dollarsToMicros(" $1,200.07 ")).toBe(1_200_070_000);
    expect(dollarsToMicros("0.01")).toBe(10_000);
    for (const typed of ["", "fifty", "-5", "1.234", "1e3", "1234567890"])
      expect(dollarsToMicros(typed)).toBeUndefined();
  });
});

describe("dashboard overview on a plan that bills overage", () => {
  it("shows included units, use against them and the overage so far instead of 'no limit'", async () => {
    const tenant = await signup();
    // Pro with two requests included at a cent each past them, so a test can pass them.
    const plan = {
      ...PLANS.pro,
      meters: { ...PLANS.pro.meters, api_requests: { included: 2, overage: { priceMicros: 10_000, per: 1 } } },
    };
    await env.TENANT.getByName(tenant.tenantId).setPlan(plan);
    for (let i = 0; i < 5; i++) await call("GET", "/v1/account", { key: tenant.key });
    const { cookie } = await session(tenant.key);
    const upcoming = await json<{ lines: { meter: string; overage: number; amountMicros: number }[] }>(
      await call("GET", "/v1/billing/invoices/upcoming", { key: tenant.key }),
    );
    const html = await (await page("/dashboard", cookie)).text();
    expect(html).not.toContain("no limit");
    expect(html).toContain("Overage so far");
    const row = /<tr data-meter="api_requests"[^>]*data-included="2" data-overage="(\d+)"[\s\S]*?<\/tr>/.exec(html);
    expect(row).not.toBeNull();
    // Page views are not metered: the page shows what the API's last answer counted.
    const line = upcoming.lines.find((one) => one.meter === "api_requests");
    expect(Number(row?.[1])).toBe(line?.overage);
    expect(row?.[0]).toContain(`data-overage-micros="${line?.amountMicros}"`);
    expect(row?.[0]).toMatch(/of 2 included/);
    expect(row?.[0]).toMatch(/\d+ · \$0\.\d\d</);
    expect(html).toMatch(/data-meter="shell_ms"[^>]*data-included="720000000"/);
    expect(html).toContain("of 200.00 h included");
  });
});

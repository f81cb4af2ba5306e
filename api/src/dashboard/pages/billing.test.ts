/**
 * The billing page over HTTP in workerd: its cost and upcoming total equal the API's; plan
 * and spend-cap forms change what the API reports; a refused cap shows its reason; a
 * session without billing:manage reads but cannot post.
 */
import { describe, expect, it } from "vitest";
import { call, createKey, json, signup } from "../../../test/client.ts";
import { session as dashboardSession, page, post } from "../../../test/dashboard.ts";
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

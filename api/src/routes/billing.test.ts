import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { invoices } from "../../../tenants/account/schema.ts";
import { database } from "../../../tenants/db.ts";
import { call, createKey, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

interface BillingState {
  plan: string;
  pendingPlan: string | null;
  period: { start: string; end: string };
  spendCapMicros: number | null;
  costSoFarMicros: number;
}

interface InvoiceBody {
  plan: string;
  periodStart: string;
  periodEnd: string;
  feeMicros: number;
  lines: { meter: string; amountMicros: number; used: number; included: number }[];
  totalMicros: number;
}

const get = async <T>(key: string, path: string): Promise<T> => {
  const response = await call("GET", path, { key });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return json<T>(response);
};

const put = (key: string, path: string, body: unknown) => call("PUT", path, { key, json: body });

const PRO_FEE_MICROS = 20_000_000;

describe("billing", () => {
  it("starts on free with nothing owed, no cap and no pending change", async () => {
    const { key } = await signup();
    const billing = await get<BillingState>(key, "/v1/billing");
    expect(billing).toMatchObject({ plan: "free", pendingPlan: null, spendCapMicros: null, costSoFarMicros: 0 });
    const upcoming = await get<InvoiceBody>(key, "/v1/billing/invoices/upcoming");
    expect(upcoming).toMatchObject({ plan: "free", feeMicros: 0, totalMicros: 0 });
    expect(upcoming.periodStart).toBe(billing.period.start);
    expect(upcoming.lines.find((l) => l.meter === "api_requests")?.used).toBe(2);
  });

  it("refuses a spend cap on free, where there is nothing to cap", async () => {
    const { key } = await signup();
    const problem = await expectProblem(
      await put(key, "/v1/billing/spend-cap", { amountMicros: 50_000_000 }),
      409,
      "conflict",
    );
    expect(problem.detail).toMatch(/free/);
    // Clearing a cap that is not there changes nothing and is fine.
    expect((await put(key, "/v1/billing/spend-cap", { amountMicros: null })).status).toBe(200);
  });

  it("upgrades to pro at once with a prorated fee, and bills it on the upcoming invoice", async () => {
    const { key } = await signup();
    const changed = await put(key, "/v1/billing/plan", { plan: "pro" });
    expect(changed.status).toBe(200);
    expect(await json<BillingState>(changed)).toMatchObject({ plan: "pro", pendingPlan: null });

    const billing = await get<BillingState>(key, "/v1/billing");
    expect(billing.plan).toBe("pro");
    const upcoming = await get<InvoiceBody>(key, "/v1/billing/invoices/upcoming");
    expect(upcoming.plan).toBe("pro");
    expect(upcoming.feeMicros).toBeGreaterThan(0);
    expect(upcoming.feeMicros).toBeLessThanOrEqual(PRO_FEE_MICROS);
    expect(upcoming.totalMicros).toBe(upcoming.feeMicros + upcoming.lines.reduce((sum, l) => sum + l.amountMicros, 0));
    expect(upcoming.lines.find((l) => l.meter === "api_requests")?.included).toBe(2_000_000);
    expect(billing.costSoFarMicros).toBe(upcoming.totalMicros);
    expect((await get<{ plan: string }>(key, "/v1/account")).plan).toBe("pro");
    // Upgrading again to the plan already held charges nothing more.
    await put(key, "/v1/billing/plan", { plan: "pro" });
    expect((await get<InvoiceBody>(key, "/v1/billing/invoices/upcoming")).feeMicros).toBe(upcoming.feeMicros);
  });

  it("holds a downgrade until the period ends, and cancels it when the current plan is chosen", async () => {
    const { key } = await signup();
    await put(key, "/v1/billing/plan", { plan: "pro" });
    const downgraded = await json<BillingState>(await put(key, "/v1/billing/plan", { plan: "free" }));
    expect(downgraded).toMatchObject({ plan: "pro", pendingPlan: "free" });
    expect(await get<BillingState>(key, "/v1/billing")).toMatchObject({ plan: "pro", pendingPlan: "free" });
    const kept = await json<BillingState>(await put(key, "/v1/billing/plan", { plan: "pro" }));
    expect(kept).toMatchObject({ plan: "pro", pendingPlan: null });
  });

  it("on pro, refuses a spend cap at or below the fee and keeps a valid one", async () => {
    const { key } = await signup();
    await put(key, "/v1/billing/plan", { plan: "pro" });
    const { feeMicros } = await get<InvoiceBody>(key, "/v1/billing/invoices/upcoming");
    const low = await put(key, "/v1/billing/spend-cap", { amountMicros: feeMicros - 1 });
    expect((await expectProblem(low, 409, "conflict")).detail).toMatch(/fee/);
    // A cap equal to the fee was taken, and then every request answered 402, raising it too.
    const atFee = await put(key, "/v1/billing/spend-cap", { amountMicros: feeMicros });
    expect((await expectProblem(atFee, 409, "conflict")).detail).toMatch(/fee/);
    expect((await get<BillingState>(key, "/v1/billing")).spendCapMicros).toBeNull();

    const set = await put(key, "/v1/billing/spend-cap", { amountMicros: 50_000_000 });
    expect(set.status).toBe(200);
    expect((await json<BillingState>(set)).spendCapMicros).toBe(50_000_000);
    expect((await get<BillingState>(key, "/v1/billing")).spendCapMicros).toBe(50_000_000);

    const cleared = await json<BillingState>(await put(key, "/v1/billing/spend-cap", { amountMicros: null }));
    expect(cleared.spendCapMicros).toBeNull();
  });

  it("validates the bodies, naming the field", async () => {
    const { key } = await signup();
    const unknown = await expectProblem(
      await put(key, "/v1/billing/plan", { plan: "enterprise" }),
      400,
      "validation_failed",
    );
    expect(unknown.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/plan" })]);
    for (const amountMicros of [-1, 1.5, "10", undefined]) {
      const problem = await expectProblem(
        await put(key, "/v1/billing/spend-cap", { amountMicros }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/amountMicros" })]);
    }
    expect((await get<BillingState>(key, "/v1/billing")).plan).toBe("free");
  });

  it("lets a key without billing:manage read billing but not change it", async () => {
    const { key } = await signup();
    const reader = await createKey(key, { scopes: ["billing:read"] });
    await expectProblem(await put(reader.key, "/v1/billing/plan", { plan: "pro" }), 403, "forbidden");
    await expectProblem(await put(reader.key, "/v1/billing/spend-cap", { amountMicros: null }), 403, "forbidden");
    expect((await get<BillingState>(reader.key, "/v1/billing")).plan).toBe("free");
  });

  it("is account-wide: a credential restricted to some workspaces can neither read nor change it", async () => {
    const { key } = await signup();
    const restricted = await createKey(key, { workspaceIds: [await createWorkspace(key)] });
    await expectProblem(await call("GET", "/v1/billing", { key: restricted.key }), 403, "forbidden");
    await expectProblem(await put(restricted.key, "/v1/billing/plan", { plan: "pro" }), 403, "forbidden");
    expect((await get<BillingState>(key, "/v1/billing")).plan).toBe("free");
  });
});

describe("GET /v1/billing/invoices", () => {
  it("is empty for a tenant in its first period", async () => {
    const { key } = await signup();
    expect(await get(key, "/v1/billing/invoices")).toEqual({ data: [], nextCursor: null });
  });

  it("pages through closed invoices, oldest first, and only the caller's", async () => {
    const alice = await signup();
    const bob = await signup();
    const db = database(env.DB);
    const closed = ["2026-01", "2026-02", "2026-03"].map((month, i) => ({
      id: `inv_0${i}${"0".repeat(24)}`,
      tenantId: alice.tenantId,
      periodStart: `${month}-01T00:00:00.000Z`,
      periodEnd: `2026-0${i + 2}-01T00:00:00.000Z`,
      plan: "pro",
      lines: JSON.stringify({ feeMicros: PRO_FEE_MICROS, lines: [] }),
      totalMicros: PRO_FEE_MICROS + i,
      createdAt: `2026-0${i + 2}-01T00:05:00.000Z`,
    }));
    await db.insert(invoices).values(closed);

    const first = await get<{ data: { id: string }[]; nextCursor: string | null }>(
      alice.key,
      "/v1/billing/invoices?limit=2",
    );
    expect(first.data).toEqual([
      {
        id: closed[0]?.id,
        plan: "pro",
        periodStart: "2026-01-01T00:00:00.000Z",
        periodEnd: "2026-02-01T00:00:00.000Z",
        feeMicros: PRO_FEE_MICROS,
        // Rows closed before fees had parts read back as one whole part from the period's start.
        fees: [
          {
            plan: "pro",
            upgradedFrom: null,
            from: "2026-01-01T00:00:00.000Z",
            monthlyMicros: PRO_FEE_MICROS,
            amountMicros: PRO_FEE_MICROS,
          },
        ],
        lines: [],
        totalMicros: PRO_FEE_MICROS,
        createdAt: "2026-02-01T00:05:00.000Z",
      },
      expect.objectContaining({ id: closed[1]?.id }),
    ]);
    expect(first.nextCursor).toBe(closed[1]?.id);
    const second = await get<{ data: { id: string }[]; nextCursor: string | null }>(
      alice.key,
      `/v1/billing/invoices?limit=2&cursor=${first.nextCursor}`,
    );
    expect(second.data.map((i) => i.id)).toEqual([closed[2]?.id]);
    expect(second.nextCursor).toBeNull();
    expect(await get(bob.key, "/v1/billing/invoices")).toEqual({ data: [], nextCursor: null });
  });
});

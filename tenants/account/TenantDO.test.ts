/**
 * The tenant ledger inside real workerd and D1: events count once, storage integrates
 * exactly, rollups reach D1 exactly once across crashes, periods close into invoices, and
 * run slots come back however a run ends. The clock and the crash points are the object's
 * hooks (hooks.ts), installed by the tests; everything else is the code that serves requests.
 */
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ledgerEvents } from "../../test/ledger.ts";
import { installTenantHooks } from "./hooks.ts";
import { HOUR_MS } from "./ledger/periods.ts";
import type { Meter } from "./meters.ts";
import { PLANS, type Plan } from "./plans.ts";
import type { TenantDO } from "./TenantDO.ts";

/** In the future, so no alarm the tests schedule fires by itself: the tests run them. */
const T0 = Date.parse("2036-06-10T12:00:00.000Z");

/** A tenant object with its clock set to `startMs` (advanced by `clock.advance`). */
function tenant(startMs = T0) {
  const name = `ten_test_${crypto.randomUUID()}`;
  const stub = env.TENANT.getByName(name);
  let now = startMs;
  const clock = {
    name,
    stub,
    get now() {
      return now;
    },
    /** Installs the clock; it holds across evictions, since it is looked up by the tenant's name. */
    install: async () => installTenantHooks(name, { now: () => now }),
    advance: async (ms: number) => {
      now += ms;
    },
  };
  return clock;
}

async function d1Rollups(tenantId: string) {
  const { results } = await env.DB.prepare(
    "SELECT meter, workspace_id, key_id, hour, quantity FROM usage_rollups WHERE tenant_id = ? ORDER BY hour, meter, workspace_id, key_id",
  )
    .bind(tenantId)
    .all<{ meter: string; workspace_id: string; key_id: string; hour: string; quantity: number }>();
  return results;
}

async function ledgerSum(stub: DurableObjectStub<TenantDO>, meter: Meter) {
  const events = await ledgerEvents(stub, meter);
  return events.reduce((sum, event) => sum + event.quantity, 0);
}

const event = (id: string, quantity: number, extra: Partial<{ workspaceId: string; keyId: string }> = {}) => ({
  id,
  meter: "api_requests" as const,
  quantity,
  workspaceId: extra.workspaceId ?? null,
  keyId: extra.keyId ?? null,
  executor: null,
});

describe("the ledger", () => {
  it("counts an event recorded three times once, in the events, totals and rollups", async () => {
    const t = tenant();
    await t.install();
    for (let i = 0; i < 3; i++) {
      await t.stub.record(event("evt_a", 5, { workspaceId: "ws_1", keyId: "key_1" }));
      await t.stub.record(event("evt_b", 7, { workspaceId: "ws_2", keyId: "key_1" }));
      await t.stub.finishRun({
        execId: "ex_1",
        executor: "shell",
        durationMs: 120,
        workspaceId: "ws_1",
        keyId: "key_1",
      });
    }
    expect(await ledgerSum(t.stub, "api_requests")).toBe(12);
    expect(await ledgerSum(t.stub, "shell_ms")).toBe(120);
    const invoice = await t.stub.upcomingInvoice();
    expect(invoice.lines.find((line) => line.meter === "api_requests")?.used).toBe(12);
    expect(invoice.lines.find((line) => line.meter === "shell_ms")?.used).toBe(120);
    await t.stub.flush();
    await t.stub.flush();
    expect(await d1Rollups(t.name)).toEqual([
      { meter: "api_requests", workspace_id: "ws_1", key_id: "key_1", hour: "2036-06-10T12:00:00.000Z", quantity: 5 },
      { meter: "api_requests", workspace_id: "ws_2", key_id: "key_1", hour: "2036-06-10T12:00:00.000Z", quantity: 7 },
      { meter: "shell_ms", workspace_id: "ws_1", key_id: "key_1", hour: "2036-06-10T12:00:00.000Z", quantity: 120 },
    ]);
  });

  it.each(["afterOpen", "afterApply"] as const)(
    "loses and doubles nothing when the object is evicted mid-rollup (%s)",
    async (step) => {
      const t = tenant();
      await t.install();
      let expected = 0;
      for (let i = 0; i < 1_200; i++) {
        const quantity = 1 + (i % 7);
        expected += quantity;
        await t.stub.record(event(`evt_${i}`, quantity, { workspaceId: `ws_${i % 3}`, keyId: `key_${i % 2}` }));
        if (i % 400 === 399) await t.advance(HOUR_MS);
      }
      installTenantHooks(t.name, {
        [step]: () => {
          throw new Error("crash");
        },
      });
      const crashed = await t.stub.flush().then(
        () => null,
        (error: Error) => error.message,
      );
      expect(crashed).toBe("crash");
      // The object restarts without the fault.
      installTenantHooks(t.name, { [step]: undefined });
      await evictDurableObject(t.stub);
      await t.stub.flush();
      await t.stub.flush();
      const rows = await d1Rollups(t.name);
      expect(rows.reduce((sum, row) => sum + row.quantity, 0)).toBe(expected);
      expect(await ledgerSum(t.stub, "api_requests")).toBe(expected);
      // Three hours × three workspaces × two keys, each row the sum of exactly its events.
      expect(rows).toHaveLength(18);
    },
  );

  it("prunes rolled-up events after the retention period and keeps the rollups", async () => {
    const t = tenant();
    await t.install();
    await t.stub.record(event("evt_old", 3));
    await t.stub.flush();
    await t.advance(36 * 24 * HOUR_MS);
    await t.stub.record(event("evt_new", 4));
    await t.stub.flush();
    const events = await ledgerEvents(t.stub);
    expect(events.map((e) => e.id)).toEqual(["evt_new"]);
    expect((await d1Rollups(t.name)).map((row) => row.quantity)).toEqual([3, 4]);
  });
});

describe("housekeeping", () => {
  it("sweeps expired idempotency rows and applied batch ids from D1, and counts nothing twice after", async () => {
    const t = tenant();
    await t.install();
    await t.stub.record(event("evt_1", 2));
    await t.stub.flush();
    const insert = env.DB.prepare(
      "INSERT INTO idempotency (tenant_id, scope, key, request_hash, created_at) VALUES (?, 'exec', ?, 'h', ?)",
    );
    await insert.bind(t.name, "old", new Date(t.now - 25 * HOUR_MS).toISOString()).run();
    await insert.bind(t.name, "fresh", new Date(t.now).toISOString()).run();
    const count = async (table: string) =>
      (
        await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`)
          .bind(t.name)
          .first<{ n: number }>()
      )?.n;
    expect(await count("rollup_batches")).toBe(1);

    await t.advance(2 * HOUR_MS);
    await t.stub.record(event("evt_2", 3));
    await runDurableObjectAlarm(t.stub);
    expect(
      (await env.DB.prepare("SELECT key FROM idempotency WHERE tenant_id = ?").bind(t.name).all<{ key: string }>())
        .results,
    ).toEqual([{ key: "fresh" }]);
    // The first batch's id is gone; the one this alarm applied stays until it is an hour old.
    expect(await count("rollup_batches")).toBe(1);
    await t.stub.flush();
    expect((await d1Rollups(t.name)).reduce((sum, row) => sum + row.quantity, 0)).toBe(5);
  });
});

describe("storage byte-hours", () => {
  it("integrate size changes exactly, hour by hour, and ignore late older reports", async () => {
    const t = tenant();
    await t.install();
    await t.stub.storageChanged("ws_a", 1_000, 1);
    await t.advance(90 * 60_000);
    await t.stub.storageChanged("ws_a", 3_000, 5);
    await t.stub.storageChanged("ws_a", 1_000, 3); // a late report from before revision 5
    await t.advance(90 * 60_000);
    await t.stub.storageChanged("ws_a", 0, 6);
    await t.advance(HOUR_MS);
    await runDurableObjectAlarm(t.stub);
    const events = await ledgerEvents(t.stub, "storage_byte_hours");
    // 12:00–13:00 at 1000 B; 13:00–13:30 at 1000 B and 13:30–14:00 at 3000 B; 14:00–15:00 at 3000 B.
    expect(events.map((e) => [e.at, e.quantity])).toEqual([
      ["2036-06-10T12:00:00.000Z", 1_000],
      ["2036-06-10T13:00:00.000Z", 2_000],
      ["2036-06-10T14:00:00.000Z", 3_000],
    ]);
  });

  it("carry fractions of a byte-hour into the next hour instead of dropping them", async () => {
    const t = tenant();
    await t.install();
    // 1 byte for 10 hours is 10 byte-hours however the hours are cut.
    await t.stub.storageChanged("ws_a", 1, 1);
    for (let i = 0; i < 20; i++) {
      await t.advance(30 * 60_000 + (i % 2 ? 7 : -7));
      await t.stub.storageChanged("ws_a", 1, 2 + i);
    }
    await t.advance(HOUR_MS);
    await t.stub.storageChanged("ws_a", 0, 100);
    await t.advance(2 * HOUR_MS);
    await runDurableObjectAlarm(t.stub);
    expect(await ledgerSum(t.stub, "storage_byte_hours")).toBe(11);
  });
});

/** Asks for a 10-second shell run's slot, as the gateway does before starting one. */
const startShellRun = (stub: DurableObjectStub<TenantDO>) => (i: number) =>
  stub.startRun({
    execId: `ex_${i}`,
    executor: "shell",
    timeoutMs: 10_000,
    egress: false,
    workspaceId: "ws",
    keyId: null,
  });

describe("run slots", () => {
  it("admit exactly the plan's concurrency, return on finish, and expire after a crash", async () => {
    const t = tenant();
    await t.install();
    await t.stub.addWorkspace("ws");
    const plan: Plan = { ...PLANS.free, concurrency: { shell: 3, javascript: 1, container: 1 } };
    await t.stub.setPlan(plan);
    const run = startShellRun(t.stub);
    const grants = await Promise.all(Array.from({ length: 10 }, (_, i) => run(i)));
    expect(grants.filter((g) => g.ok)).toHaveLength(3);
    expect(grants.filter((g) => !g.ok).every((g) => !g.ok && g.code === "rate_limited")).toBe(true);
    expect(await t.stub.runsInFlight()).toEqual({ shell: 3 });

    const admitted = grants.flatMap((g, i) => (g.ok ? [i] : []));
    await t.stub.finishRun({
      execId: `ex_${admitted[0]}`,
      executor: "shell",
      durationMs: 5,
      workspaceId: "ws",
      keyId: null,
    });
    expect(await t.stub.runsInFlight()).toEqual({ shell: 2 });
    expect((await run(100)).ok).toBe(true);
    expect((await run(101)).ok).toBe(false);

    // The other two "crash": nobody finishes them; their leases end after timeout + grace.
    await t.advance(10_000 + 30_000);
    expect(await t.stub.runsInFlight()).toEqual({});
    expect((await run(102)).ok).toBe(true);
  });

  it("cut a run's timeout to the hard quota left after the runs in flight", async () => {
    const t = tenant();
    await t.install();
    await t.stub.addWorkspace("ws");
    const plan: Plan = {
      ...PLANS.free,
      meters: { ...PLANS.free.meters, shell_ms: { included: 25_000, overage: null } },
    };
    await t.stub.setPlan(plan);
    const run = startShellRun(t.stub);
    expect(await run(1)).toEqual({ ok: true, timeoutMs: 10_000 });
    expect(await run(2)).toEqual({ ok: true, timeoutMs: 10_000 });
    expect(await run(3)).toEqual({ ok: true, timeoutMs: 5_000 });
    expect(await run(4)).toMatchObject({ ok: false, code: "quota_exceeded" });
    // Run 1 used 2 s of its 10: 8 s come back.
    await t.stub.finishRun({ execId: "ex_1", executor: "shell", durationMs: 2_000, workspaceId: "ws", keyId: null });
    expect(await run(5)).toEqual({ ok: true, timeoutMs: 8_000 });
  });
});

describe("billing periods", () => {
  it("close into one immutable invoice in D1 when the period ends", async () => {
    const t = tenant();
    await t.install();
    await t.stub.setPlan(PLANS.pro);
    for (let i = 0; i < 10; i++) await t.stub.record(event(`evt_${i}`, 300_000));
    const upcoming = await t.stub.upcomingInvoice();
    expect(upcoming.periodStart).toBe("2036-06-10T12:00:00.000Z");
    expect(upcoming.periodEnd).toBe("2036-07-10T12:00:00.000Z");
    // 3,000,000 requests: 1,000,000 past the included 2,000,000 at 1 µ$ per 2.
    const line = upcoming.lines.find((l) => l.meter === "api_requests");
    expect(line).toMatchObject({ used: 3_000_000, overage: 1_000_000, amountMicros: 500_000 });
    expect(upcoming.totalMicros).toBe(20_000_000 + 500_000);

    await t.advance(Date.parse("2036-07-10T12:00:00.000Z") - t.now);
    await runDurableObjectAlarm(t.stub);
    await runDurableObjectAlarm(t.stub);
    const { results } = await env.DB.prepare("SELECT * FROM invoices WHERE tenant_id = ?")
      .bind(t.name)
      .all<{ total_micros: number; period_start: string; lines: string }>();
    expect(results).toHaveLength(1);
    expect(results[0]?.total_micros).toBe(upcoming.totalMicros);
    expect(JSON.parse(results[0]?.lines ?? "{}").lines).toEqual(upcoming.lines);
    const next = await t.stub.upcomingInvoice();
    expect(next.periodStart).toBe("2036-07-10T12:00:00.000Z");
    expect(next.lines.every((l) => l.used === 0)).toBe(true);
    expect(next.totalMicros).toBe(20_000_000);
  });

  it("prorate an upgrade's fee and hold a downgrade to the period's end", async () => {
    const t = tenant();
    await t.install();
    await t.stub.billing(); // the account (and its period anchor) starts here
    await t.advance(10 * 24 * HOUR_MS); // a third of a 30-day June period
    expect(await t.stub.changePlan("pro")).toMatchObject({ ok: true, billing: { plan: "pro", pendingPlan: null } });
    // 20 of 30 days left: 2/3 of $20, and the invoice says so part by part.
    const upgraded = await t.stub.upcomingInvoice();
    expect(upgraded.feeMicros).toBe(13_333_333);
    expect(upgraded.fees).toEqual([
      { plan: "free", upgradedFrom: null, from: "2036-06-10T12:00:00.000Z", monthlyMicros: 0, amountMicros: 0 },
      {
        plan: "pro",
        upgradedFrom: "free",
        from: "2036-06-20T12:00:00.000Z",
        monthlyMicros: 20_000_000,
        amountMicros: 13_333_333,
      },
    ]);
    expect(await t.stub.changePlan("free")).toMatchObject({ ok: true, billing: { plan: "pro", pendingPlan: "free" } });
    await t.advance(20 * 24 * HOUR_MS);
    // The period has ended but its alarm has not run: the new period is already on free.
    expect(await t.stub.upcomingInvoice()).toMatchObject({ plan: "free", feeMicros: 0, totalMicros: 0 });
    await runDurableObjectAlarm(t.stub);
    expect(await t.stub.billing()).toMatchObject({ plan: "free", pendingPlan: null, costSoFarMicros: 0 });
    const { results } = await env.DB.prepare("SELECT plan, total_micros FROM invoices WHERE tenant_id = ?")
      .bind(t.name)
      .all<{ plan: string; total_micros: number }>();
    expect(results).toEqual([{ plan: "pro", total_micros: 13_333_333 }]);
  });

  it("show a fee without an upgrade as one whole part, on free and on pro, and after a period closes", async () => {
    const free = tenant();
    await free.install();
    await free.stub.billing();
    await free.advance(3 * 24 * HOUR_MS);
    const onFree = await free.stub.upcomingInvoice();
    expect(onFree.fees).toEqual([
      { plan: "free", upgradedFrom: null, from: onFree.periodStart, monthlyMicros: 0, amountMicros: 0 },
    ]);
    expect(await free.stub.billing()).toMatchObject({ spendCapAvailable: false });

    const pro = tenant();
    await pro.install();
    await pro.stub.setPlan(PLANS.pro);
    const onPro = await pro.stub.upcomingInvoice();
    expect(onPro.fees).toEqual([
      { plan: "pro", upgradedFrom: null, from: onPro.periodStart, monthlyMicros: 20_000_000, amountMicros: 20_000_000 },
    ]);
    expect(await pro.stub.billing()).toMatchObject({ spendCapAvailable: true });
    // An upgrade in one period leaves the next period with the new plan's whole fee.
    await free.stub.changePlan("pro");
    expect((await free.stub.upcomingInvoice()).fees.map((fee) => fee.upgradedFrom)).toEqual([null, "free"]);
    await free.advance(Date.parse(onFree.periodEnd) - free.now);
    await runDurableObjectAlarm(free.stub);
    const next = await free.stub.upcomingInvoice();
    expect(next.fees).toEqual([
      { plan: "pro", upgradedFrom: null, from: onFree.periodEnd, monthlyMicros: 20_000_000, amountMicros: 20_000_000 },
    ]);
    const { results } = await env.DB.prepare("SELECT lines FROM invoices WHERE tenant_id = ?")
      .bind(free.name)
      .all<{ lines: string }>();
    expect(JSON.parse(results[0]?.lines ?? "{}").fees.map((fee: { plan: string }) => fee.plan)).toEqual([
      "free",
      "pro",
    ]);
  });

  it("refuse requests once charges reach the spend cap", async () => {
    const t = tenant();
    await t.install();
    await t.stub.setPlan({
      ...PLANS.pro,
      meters: { ...PLANS.pro.meters, api_requests: { included: 0, overage: { priceMicros: 1_000, per: 1 } } },
    });
    expect(await t.stub.setSpendCap(19_000_000)).toMatchObject({ ok: false });
    expect(await t.stub.setSpendCap(20_005_000)).toMatchObject({ ok: true });
    const admit = (i: number) =>
      t.stub.admit({ requestId: `req_${i}`, keyId: null, workspaceId: null, need: "request" });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => admit(i)));
    // Each request costs 1,000 µ$: five reach the cap, the rest are refused.
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.code === "spend_cap_reached")).toBe(true);
  });
});

/**
 * The admission policy alone, over plain values: which need meets which cap, in which
 * order, and how a run's timeout is cut to what a hard cap leaves.
 */
import { describe, expect, it } from "vitest";
import { requestDecision, runDecision, type Standing, useDecision } from "./admission.ts";
import { PLANS, type Plan } from "./plans.ts";

const period = { startMs: Date.parse("2036-06-10T12:00:00.000Z"), endMs: Date.parse("2036-07-10T12:00:00.000Z") };

function standing(overrides: Partial<Omit<Standing, "totals">> & { totals?: Record<string, number> } = {}): Standing {
  const { totals, ...rest } = overrides;
  return {
    plan: PLANS.free,
    period,
    nowMs: period.startMs + 1_000,
    totals: new Map(Object.entries(totals ?? {})),
    spendCapMicros: null,
    costMicros: () => 0,
    ...rest,
  };
}

const taken = { ok: true } as const;
const full = PLANS.free.storageBytesMax;

describe("a request", () => {
  it("is refused at the storage cap when it writes or execs, and admitted when it only asks", () => {
    expect(requestDecision(standing(), "write", taken, full)).toMatchObject({ code: "quota_exceeded" });
    expect(requestDecision(standing(), "exec", taken, full)).toMatchObject({ code: "quota_exceeded" });
    expect(requestDecision(standing(), "request", taken, full)).toBeNull();
    expect(requestDecision(standing(), "write", taken, full - 1)).toBeNull();
  });

  it("is refused once the storage hours are used up, when it would add bytes", () => {
    const used = standing({ totals: { storage_byte_hours: PLANS.free.meters.storage_byte_hours.included } });
    expect(requestDecision(used, "exec", taken, 0)).toMatchObject({ code: "quota_exceeded" });
    expect(requestDecision(used, "request", taken, 0)).toBeNull();
  });

  it("is refused by the rate bucket first, with the wait it gave", () => {
    const denial = requestDecision(standing(), "exec", { ok: false, retryAfterSeconds: 3 }, full);
    expect(denial).toMatchObject({ code: "rate_limited", retryAfterSeconds: 3 });
  });

  it("is refused past the monthly request quota, whatever it needs", () => {
    const used = standing({ totals: { api_requests: PLANS.free.meters.api_requests.included } });
    expect(requestDecision(used, "request", taken, 0)).toMatchObject({ code: "quota_exceeded" });
  });

  it("is refused once the charges reach the spend cap, and prices the invoice only when a cap is set", () => {
    let priced = 0;
    const costMicros = () => {
      priced++;
      return 5_000;
    };
    expect(requestDecision(standing({ plan: PLANS.pro, costMicros }), "request", taken, 0)).toBeNull();
    expect(priced).toBe(0);
    const capped = standing({ plan: PLANS.pro, spendCapMicros: 5_000, costMicros });
    expect(requestDecision(capped, "request", taken, 0)).toMatchObject({ code: "spend_cap_reached" });
  });
});

describe("a run", () => {
  const shell = { executor: "shell" as const, timeoutMs: 60_000, egress: false };

  it("gets its timeout cut to what the hard cap leaves after the runs in flight, and reserves it", () => {
    const included = PLANS.free.meters.shell_ms.included;
    const decision = runDecision(standing({ totals: { shell_ms: included - 50_000 } }), shell, {
      runs: 1,
      reservedMs: 20_000,
    });
    expect(decision).toEqual({ ok: true, timeoutMs: 30_000, reservedMs: 30_000 });
  });

  it("is refused when nothing is left, or every slot is taken", () => {
    const included = PLANS.free.meters.shell_ms.included;
    expect(runDecision(standing(), shell, { runs: 0, reservedMs: included })).toMatchObject({ code: "quota_exceeded" });
    const slots = PLANS.free.concurrency.shell;
    expect(runDecision(standing(), shell, { runs: slots, reservedMs: 0 })).toMatchObject({
      code: "rate_limited",
      retryAfterSeconds: 1,
    });
  });

  it("reserves nothing where overage is billed, and asks for egress only where the plan has it", () => {
    expect(runDecision(standing({ plan: PLANS.pro }), shell, { runs: 0, reservedMs: 0 })).toEqual({
      ok: true,
      timeoutMs: 60_000,
      reservedMs: 0,
    });
    const egress = { ...shell, egress: true };
    expect(runDecision(standing(), egress, { runs: 0, reservedMs: 0 })).toMatchObject({ code: "forbidden" });
    expect(runDecision(standing({ plan: PLANS.pro }), egress, { runs: 0, reservedMs: 0 })).toMatchObject({ ok: true });
  });
});

describe("a metered use", () => {
  it("passes a hard cap only while the whole quantity fits", () => {
    const plan: Plan = PLANS.free;
    const left = standing({ totals: { ai_images: plan.meters.ai_images.included - 2 } });
    expect(useDecision(left, "ai_images", 2)).toBeNull();
    expect(useDecision(left, "ai_images", 3)).toMatchObject({ code: "quota_exceeded" });
  });
});

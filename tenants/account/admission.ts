/**
 * The admission policy: whether a request, a run or a metered use may go ahead, as pure
 * functions over plain values. The tenant object gathers the values (its period, totals,
 * leases and storage) and records what was admitted; here is only the decision, so every
 * rule can be read, and tested, without an object or a clock.
 */

import type { ExecutorName } from "../../executors/contract.ts";
import type { Period } from "./ledger/periods.ts";
import type { Meter } from "./meters.ts";
import type { Plan } from "./plans.ts";
import type { AdmissionNeed, Denial } from "./rpc.ts";

/** What every decision reads about the tenant at one instant. */
export interface Standing {
  plan: Plan;
  period: Period;
  nowMs: number;
  /** The period's totals per meter, events recorded so far. */
  totals: ReadonlyMap<string, number>;
  spendCapMicros: number | null;
  /** The period's charges so far; called only when a spend cap is set, since it prices a whole invoice. */
  costMicros: () => number;
}

/**
 * A request, after its rate token was taken (or not): the monthly request quota, the spend
 * cap, and for requests that add bytes (writes, and execs: a command writes files) the
 * storage cap and the storage quota. Reads and deletes pass a full disk, so a tenant at its
 * cap can still look and clean up.
 */
export function requestDecision(
  standing: Standing,
  need: AdmissionNeed,
  rate: { ok: true } | { ok: false; retryAfterSeconds: number },
  storageBytes: number,
): Denial | null {
  const { plan } = standing;
  if (!rate.ok) {
    return {
      ok: false,
      code: "rate_limited",
      detail: `more than ${plan.rate.perSecond} requests per second (burst ${plan.rate.burst}) on the ${plan.id} plan`,
      retryAfterSeconds: rate.retryAfterSeconds,
    };
  }
  const denial = hardCapDenial(standing, "api_requests", 1) ?? spendDenial(standing);
  if (denial || need === "request") return denial;
  if (storageBytes >= plan.storageBytesMax) {
    return {
      ok: false,
      code: "quota_exceeded",
      detail: `the ${plan.id} plan stores at most ${plan.storageBytesMax} bytes across workspaces; ${storageBytes} are in use`,
    };
  }
  return hardCapDenial(standing, "storage_byte_hours", 0);
}

export interface RunAsk {
  executor: ExecutorName;
  timeoutMs: number;
  egress: boolean;
}

/** What is in flight when a run asks for a slot: runs of its executor, and time reserved on its meter. */
export interface InFlight {
  runs: number;
  reservedMs: number;
}

/**
 * A run: egress only on plans that include it, a concurrency slot per executor, the spend
 * cap, and on plans with a hard cap on the executor's time, a timeout cut to what is left
 * after the time already used and the time reserved by the runs in flight. Answers the
 * timeout granted and the time to reserve (0 where overage is billed: nothing to run out of).
 */
export function runDecision(
  standing: Standing,
  run: RunAsk,
  inFlight: InFlight,
): { ok: true; timeoutMs: number; reservedMs: number } | Denial {
  const { plan } = standing;
  if (run.egress && !plan.egress) {
    return { ok: false, code: "forbidden", detail: `network egress from executors is not part of the ${plan.id} plan` };
  }
  const slots = plan.concurrency[run.executor];
  if (inFlight.runs >= slots) {
    return {
      ok: false,
      code: "rate_limited",
      detail: `${inFlight.runs} ${run.executor} runs are already in flight; the ${plan.id} plan allows ${slots} at once`,
      retryAfterSeconds: 1,
    };
  }
  const spend = spendDenial(standing);
  if (spend) return spend;
  const meter = `${run.executor}_ms` as const;
  const terms = plan.meters[meter];
  if (terms.overage) return { ok: true, timeoutMs: run.timeoutMs, reservedMs: 0 };
  const leftMs = terms.included - (standing.totals.get(meter) ?? 0) - inFlight.reservedMs;
  if (leftMs <= 0) return quotaDenial(standing, meter);
  const timeoutMs = Math.min(run.timeoutMs, leftMs);
  return { ok: true, timeoutMs, reservedMs: timeoutMs };
}

/** A metered use that is not a run (a Workers AI image): the meter's hard cap, then the spend cap. */
export function useDecision(standing: Standing, meter: Meter, quantity: number): Denial | null {
  return hardCapDenial(standing, meter, quantity) ?? spendDenial(standing);
}

/**
 * On plans without overage, whether `adding` more units pass the meter's included amount.
 * `adding` 0 asks whether anything is left at all (storage hours accrue without asking).
 */
export function hardCapDenial(standing: Standing, meter: Meter, adding: number): Denial | null {
  const terms = standing.plan.meters[meter];
  if (terms.overage) return null;
  const used = standing.totals.get(meter) ?? 0;
  if (adding > 0 ? used + adding <= terms.included : used < terms.included) return null;
  return quotaDenial(standing, meter);
}

export function quotaDenial(standing: Standing, meter: Meter): Denial {
  const { plan, period } = standing;
  return {
    ok: false,
    code: "quota_exceeded",
    detail: `the ${plan.id} plan's monthly ${meter} quota (${plan.meters[meter].included}) is used up until ${new Date(period.endMs).toISOString()}`,
    retryAfterSeconds: Math.max(1, Math.ceil((period.endMs - standing.nowMs) / 1000)),
  };
}

export function spendDenial(standing: Standing): Denial | null {
  if (standing.spendCapMicros === null) return null;
  const cost = standing.costMicros();
  if (cost < standing.spendCapMicros) return null;
  return {
    ok: false,
    code: "spend_cap_reached",
    detail: `this period's charges (${cost} micro-dollars) have reached the spend cap (${standing.spendCapMicros}); raise it with PUT /v1/billing/spend-cap`,
  };
}

/**
 * TenantDO: one per tenant, named by the tenant id. The tenant's exact ledger and the only
 * place admission is decided, because a single-threaded object is where "record once" and
 * "admit exactly N" are cheap to make true. Every decision method is synchronous once the
 * account is loaded: nothing can interleave between checking a limit and counting against it.
 *
 * What it holds (ledger/schema.ts): the account (plan snapshot, spend cap, period anchor),
 * every usage event with its period, per-period totals, run leases, storage integration and
 * rollup batches. The alarm integrates storage hour by hour, closes ended periods into
 * invoices, and rolls events into D1's hourly rows exactly once (ledger/rollup below).
 */
import { DurableObject } from "cloudflare:workers";
import { and, eq, lt, sql } from "drizzle-orm";
import type { ContainerResources } from "../../container/wire/index.ts";
import { database } from "../db.ts";
import { newId } from "../ids.ts";
import { IDEMPOTENCY_TTL_MS } from "./idempotency.ts";
import { TokenBucket } from "./ledger/admission.ts";
import { type EventQuery, Events, type LedgerEvent, type RollupRow } from "./ledger/events.ts";
import { type InvoiceBody, invoiceBody, openingFee, type StoredFeeLine, upgradeFee } from "./ledger/invoice.ts";
import { ledgerLimits } from "./ledger/limits.ts";
import { HOUR_MS, hourStart, type Period, periodAt } from "./ledger/periods.ts";
import { migrateLedger } from "./ledger/schema.ts";
import { type StorageEvent, StorageMeter } from "./ledger/storage.ts";
import { METERS, type Meter } from "./meters.ts";
import { containerResources, type ExecutorName, PLANS, type Plan, publicPlan } from "./plans.ts";
import { idempotency, invoices, rollupBatches, tenants, usageRollups } from "./schema.ts";

export type Denial = {
  ok: false;
  code: "rate_limited" | "quota_exceeded" | "spend_cap_reached" | "forbidden";
  detail: string;
  retryAfterSeconds?: number;
};

export type Admission = ({ ok: true } | Denial) & { rate: { policy: string; limit: string } };

export interface AdmitRequest {
  requestId: string;
  keyId: string | null;
  workspaceId: string | null;
  /** A request that may add bytes (file writes, fs ops, exec): refused at the storage cap. */
  write: boolean;
}

export interface RunRequest {
  execId: string;
  executor: ExecutorName;
  timeoutMs: number;
  egress: boolean;
  workspaceId: string;
  keyId: string | null;
}

/** A run may start: its timeout (cut to what a hard cap leaves) and, for container runs, its computer's limits. */
export type RunGrant = { ok: true; timeoutMs: number; resources?: ContainerResources } | Denial;

export interface RunEnd {
  execId: string;
  executor: ExecutorName;
  durationMs: number;
  workspaceId: string;
  keyId: string | null;
  /** The workspace's size after the run, so storage integrates from the moment it changed. */
  storage?: { sizeBytes: number; revision: number } | undefined;
}

export interface BillingState {
  plan: string;
  /** A downgrade waiting for the end of the period. */
  pendingPlan: string | null;
  period: { start: string; end: string };
  spendCapMicros: number | null;
  /** Whether the plan takes a spend cap (plans that bill overage); on others setting one is refused. */
  spendCapAvailable: boolean;
  costSoFarMicros: number;
}

export interface QuotaRow {
  meter: Meter;
  /** null: no hard limit on this plan (usage past `included` is billed). */
  limit: number | null;
  included: number;
  used: number;
  remaining: number | null;
  resetsAt: string;
}

type AccountRow = {
  tenant_id: string;
  anchor_ms: number;
  plan: string;
  pending_plan: string | null;
  spend_cap_micros: number | null;
  period_fee_micros: number;
  /** JSON of the open period's fee parts; NULL in rows written before fees had parts. */
  period_fees: string | null;
  closed_through_ms: number;
};

interface Account {
  tenantId: string;
  anchorMs: number;
  plan: Plan;
  pendingPlan: Plan | null;
  spendCapMicros: number | null;
  /** The first open period's fee, part by part: the opening fee, then one part per upgrade. */
  periodFees: StoredFeeLine[];
  closedThroughMs: number;
}

/** The first open period's plan fee: the sum of its parts. */
function periodFeeMicros(account: Account): number {
  return account.periodFees.reduce((sum, fee) => sum + fee.amountMicros, 0);
}

const isoOf = (ms: number) => new Date(ms).toISOString();

export class TenantDO extends DurableObject<Env> {
  /** The clock every decision reads; tests replace it to move through periods. */
  now: () => number = () => Date.now();
  /** Fault injection for crash tests: called between the rollup's steps. */
  faults: { afterOpen?: () => void; afterApply?: () => void } = {};

  private readonly events: Events;
  private readonly storage: StorageMeter;
  private account: Account | null = null;
  private bucket: TokenBucket | null = null;
  private loading: Promise<void> | null = null;
  private rolling: Promise<number> | null = null;
  private alarmAtMs: number | null = null;
  private sweptAtMs = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateLedger(ctx.storage.sql);
    this.events = new Events(ctx.storage.sql);
    this.storage = new StorageMeter(ctx.storage.sql);
  }

  // ── admission ───────────────────────────────────────────────────────────────────────────

  /**
   * Admits one API request or says why not, and counts it: the rate bucket, the monthly
   * request quota (plans without overage), the spend cap, and for writes the storage cap.
   * An admitted request is recorded as `api_requests` under its request id.
   */
  async admit(request: AdmitRequest): Promise<Admission> {
    const account = await this.load();
    const now = this.now();
    const period = periodAt(account.anchorMs, now);
    const decision = this.decide(account, period, now, request);
    if (decision.ok) {
      this.recordIn(account, now, {
        id: request.requestId,
        meter: "api_requests",
        quantity: 1,
        atMs: now,
        workspaceId: request.workspaceId,
        keyId: request.keyId,
        executor: null,
      });
    }
    return { ...decision, rate: this.rateHeaders(account, period, now) };
  }

  private decide(account: Account, period: Period, now: number, request: AdmitRequest): { ok: true } | Denial {
    const taken = this.bucketFor(account, now).take(now);
    if (!taken.ok) {
      return {
        ok: false,
        code: "rate_limited",
        detail: `more than ${account.plan.rate.perSecond} requests per second (burst ${account.plan.rate.burst}) on the ${account.plan.id} plan`,
        retryAfterSeconds: taken.retryAfterSeconds,
      };
    }
    const totals = this.events.totals(period.startMs);
    const quota = this.hardCapDenial(account, period, totals, "api_requests", 1);
    if (quota) return quota;
    const spend = this.spendDenial(account, period, now);
    if (spend) return spend;
    if (request.write) {
      if (this.storage.totalBytes >= account.plan.storageBytesMax) {
        return {
          ok: false,
          code: "quota_exceeded",
          detail: `the ${account.plan.id} plan stores at most ${account.plan.storageBytesMax} bytes across workspaces; ${this.storage.totalBytes} are in use`,
        };
      }
      const byteHours = this.hardCapDenial(account, period, totals, "storage_byte_hours", 0);
      if (byteHours) return byteHours;
    }
    return { ok: true };
  }

  /**
   * Takes a concurrency slot for a run: a lease that expires on its own (timeout + grace),
   * so a run whose object crashed cannot hold a slot forever. On plans with a hard cap on
   * the executor's time, the run's timeout is cut to what is left after the runs in flight,
   * so the cap is exact rather than overshot by the runs already running.
   */
  async startRun(run: RunRequest): Promise<RunGrant> {
    const account = await this.load();
    const now = this.now();
    const sql = this.ctx.storage.sql;
    const existing = sql
      .exec<{ reserved_ms: number; expires_ms: number }>(
        "SELECT reserved_ms, expires_ms FROM leases WHERE id = ?",
        run.execId,
      )
      .toArray()[0];
    // Container runs carry the plan's computer limits, so a plan change applies from the next command.
    const resources = run.executor === "container" ? { resources: containerResources(account.plan) } : {};
    if (existing) return { ok: true, timeoutMs: existing.reserved_ms || run.timeoutMs, ...resources };
    sql.exec("DELETE FROM leases WHERE expires_ms <= ?", now);
    const plan = account.plan;
    if (run.egress && !plan.egress) {
      return {
        ok: false,
        code: "forbidden",
        detail: `network egress from executors is not part of the ${plan.id} plan`,
      };
    }
    const inFlight = sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM leases WHERE executor = ?", run.executor)
      .one().n;
    const slots = plan.concurrency[run.executor];
    if (inFlight >= slots) {
      return {
        ok: false,
        code: "rate_limited",
        detail: `${inFlight} ${run.executor} runs are already in flight; the ${plan.id} plan allows ${slots} at once`,
        retryAfterSeconds: 1,
      };
    }
    const period = periodAt(account.anchorMs, now);
    const meter = `${run.executor}_ms` as const;
    const spend = this.spendDenial(account, period, now);
    if (spend) return spend;
    let timeoutMs = run.timeoutMs;
    const terms = plan.meters[meter];
    let reserved = 0;
    if (!terms.overage) {
      const reservedNow = sql
        .exec<{ n: number | null }>("SELECT sum(reserved_ms) AS n FROM leases WHERE meter = ?", meter)
        .one().n;
      const left = terms.included - (this.events.totals(period.startMs).get(meter) ?? 0) - (reservedNow ?? 0);
      if (left <= 0) return this.quotaDenial(account, period, meter);
      timeoutMs = Math.min(timeoutMs, left);
      reserved = timeoutMs;
    }
    sql.exec(
      "INSERT INTO leases (id, executor, expires_ms, reserved_ms, meter) VALUES (?, ?, ?, ?, ?)",
      run.execId,
      run.executor,
      now + timeoutMs + ledgerLimits.leaseGraceMs,
      reserved,
      meter,
    );
    return { ok: true, timeoutMs, ...resources };
  }

  /** Records a finished run's time and frees its slot, in one transaction; a repeat changes nothing. */
  async finishRun(end: RunEnd): Promise<void> {
    const account = await this.load();
    const now = this.now();
    if (end.storage) this.storageAt(account, end.workspaceId, end.storage.sizeBytes, end.storage.revision, now);
    this.recordIn(account, now, {
      id: end.execId,
      meter: `${end.executor}_ms`,
      quantity: Math.max(0, Math.round(end.durationMs)),
      atMs: now,
      workspaceId: end.workspaceId,
      keyId: end.keyId,
      executor: end.executor,
    });
    this.ctx.storage.sql.exec("DELETE FROM leases WHERE id = ?", end.execId);
  }

  /** Frees a slot without billing (the run never started, or its object lost it in a crash). */
  async releaseRun(execId: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM leases WHERE id = ?", execId);
  }

  /** Runs holding a slot now, per executor. */
  async runsInFlight(): Promise<Record<string, number>> {
    const now = this.now();
    const rows = this.ctx.storage.sql
      .exec<{ executor: string; n: number }>(
        "SELECT executor, count(*) AS n FROM leases WHERE expires_ms > ? GROUP BY executor",
        now,
      )
      .toArray();
    return Object.fromEntries(rows.map((row) => [row.executor, row.n]));
  }

  // ── metering ────────────────────────────────────────────────────────────────────────────

  /**
   * Whether `quantity` more units of a metered resource that is not a run (a Workers AI
   * image) may be used now: the meter's hard cap on plans without overage, and the spend
   * cap. The caller records the use with `record` once it succeeded, so a failed use is
   * never billed; uses in flight at the same moment may pass a hard cap by their number.
   */
  async allowUse(meter: Meter, quantity: number): Promise<{ ok: true } | Denial> {
    const account = await this.load();
    const now = this.now();
    const period = periodAt(account.anchorMs, now);
    return (
      this.hardCapDenial(account, period, this.events.totals(period.startMs), meter, quantity) ??
      this.spendDenial(account, period, now) ?? { ok: true }
    );
  }

  /** Records any event under its id (egress bytes, for one); a repeat counts once. */
  async record(event: Omit<LedgerEvent, "atMs"> & { atMs?: number }): Promise<boolean> {
    const account = await this.load();
    const now = this.now();
    return this.recordIn(account, now, { ...event, atMs: event.atMs ?? now });
  }

  /** A workspace's size changed (as of its filesystem revision); storage integrates from now. */
  async storageChanged(workspaceId: string, sizeBytes: number, revision: number): Promise<void> {
    const account = await this.load();
    this.storageAt(account, workspaceId, sizeBytes, revision, this.now());
  }

  private storageAt(account: Account, workspaceId: string, sizeBytes: number, revision: number, now: number) {
    this.storage.change(workspaceId, sizeBytes, revision, now, this.recordStorage(account, now));
    this.alarmBy(hourStart(now) + HOUR_MS);
  }

  /** Records each completed storage hour as a `storage_byte_hours` event dated at the hour's start. */
  private recordStorage(account: Account, now: number) {
    return (event: StorageEvent) =>
      this.recordIn(account, now, {
        id: event.id,
        meter: "storage_byte_hours",
        quantity: event.quantity,
        atMs: event.hourMs,
        workspaceId: event.workspaceId,
        keyId: null,
        executor: null,
      });
  }

  /**
   * Records into the period the event belongs to; an event dated in a period already
   * invoiced (possible only for clocks that disagree) counts in the open one instead, so a
   * closed invoice never changes.
   */
  private recordIn(account: Account, now: number, event: LedgerEvent): boolean {
    const at = Math.max(event.atMs, account.closedThroughMs);
    const added = this.events.record(event, periodAt(account.anchorMs, at).startMs);
    if (added) this.alarmBy(now + ledgerLimits.rollupDelayMs);
    return added;
  }

  // ── reading usage ───────────────────────────────────────────────────────────────────────

  async listEvents(query: EventQuery) {
    await this.load();
    return this.events.list(query);
  }

  async quotas(): Promise<{
    plan: string;
    period: { start: string; end: string };
    meters: QuotaRow[];
    storage: { limit: number; used: number };
  }> {
    const account = await this.load();
    const now = this.now();
    const period = periodAt(account.anchorMs, now);
    const totals = this.events.totals(period.startMs);
    const leases = this.ctx.storage.sql
      .exec<{ meter: string; n: number }>(
        "SELECT meter, sum(reserved_ms) AS n FROM leases WHERE expires_ms > ? GROUP BY meter",
        now,
      )
      .toArray();
    const reserved = new Map(leases.map((row) => [row.meter, row.n]));
    return {
      plan: account.plan.id,
      period: { start: isoOf(period.startMs), end: isoOf(period.endMs) },
      meters: METERS.map((meter) => {
        const terms = account.plan.meters[meter];
        const used = totals.get(meter) ?? 0;
        const limit = terms.overage ? null : terms.included;
        return {
          meter,
          limit,
          included: terms.included,
          used,
          remaining: limit === null ? null : Math.max(0, limit - used - (reserved.get(meter) ?? 0)),
          resetsAt: isoOf(period.endMs),
        };
      }),
      storage: { limit: account.plan.storageBytesMax, used: this.storage.totalBytes },
    };
  }

  // ── billing ─────────────────────────────────────────────────────────────────────────────

  async billing(): Promise<BillingState> {
    const account = await this.load();
    const now = this.now();
    const period = periodAt(account.anchorMs, now);
    return {
      plan: account.plan.id,
      pendingPlan: account.pendingPlan?.id ?? null,
      period: { start: isoOf(period.startMs), end: isoOf(period.endMs) },
      spendCapMicros: account.spendCapMicros,
      spendCapAvailable: account.plan.spendCap,
      costSoFarMicros: this.invoiceFor(account, period).totalMicros,
    };
  }

  async upcomingInvoice(): Promise<InvoiceBody> {
    const account = await this.load();
    return this.invoiceFor(account, periodAt(account.anchorMs, this.now()));
  }

  /**
   * Changes plan the way card billing does: an upgrade (a higher fee) applies at once and
   * adds the fee difference for the time left in the period; a downgrade waits for the end
   * of the period, so the rest of a paid period keeps what was paid for.
   */
  async changePlan(planId: string): Promise<{ ok: true; billing: BillingState } | { ok: false; detail: string }> {
    const plan = publicPlan(planId);
    if (!plan) return { ok: false, detail: `no plan \`${planId}\`; choose one of ${Object.keys(PLANS).join(", ")}` };
    const account = await this.load();
    const now = this.now();
    const period = periodAt(account.anchorMs, now);
    if (plan.id === account.plan.id) {
      account.pendingPlan = null;
    } else if (plan.monthlyFeeMicros >= account.plan.monthlyFeeMicros) {
      account.periodFees.push(upgradeFee(account.plan, plan, period, now));
      account.plan = plan;
      account.pendingPlan = null;
      if (!plan.spendCap) account.spendCapMicros = null;
      this.bucket?.setRate(plan.rate);
    } else {
      account.pendingPlan = plan;
    }
    this.saveAccount(account);
    await this.mirrorPlan(account);
    return { ok: true, billing: await this.billing() };
  }

  /** Replaces the plan at once with full fee for the period: negotiated contracts, and tests. */
  async setPlan(plan: Plan): Promise<void> {
    const account = await this.load();
    account.plan = plan;
    account.pendingPlan = null;
    account.periodFees = [openingFee(plan)];
    this.bucket = null;
    this.saveAccount(account);
    await this.mirrorPlan(account);
  }

  async setSpendCap(
    amountMicros: number | null,
  ): Promise<{ ok: true; billing: BillingState } | { ok: false; detail: string }> {
    const account = await this.load();
    if (amountMicros !== null && !account.plan.spendCap) {
      return { ok: false, detail: `the ${account.plan.id} plan has hard limits and no charges to cap` };
    }
    // Admission refuses once the charges reach the cap, and the fee alone is a charge: a cap
    // equal to the fee would refuse every request, this one's own correction included.
    if (amountMicros !== null && amountMicros <= periodFeeMicros(account)) {
      return {
        ok: false,
        detail: `a spend cap at or below this period's plan fee (${periodFeeMicros(account)} micro-dollars) would refuse every request`,
      };
    }
    account.spendCapMicros = amountMicros;
    this.saveAccount(account);
    return { ok: true, billing: await this.billing() };
  }

  // ── alarm: storage hours, period close, rollups ─────────────────────────────────────────

  override async alarm(): Promise<void> {
    this.alarmAtMs = null;
    const account = await this.load();
    const now = this.now();
    this.storage.advanceAll(now, this.recordStorage(account, now));
    await this.closePeriods(account, now);
    await this.rollup();
    await this.housekeeping(account, now);
    this.schedule(now);
  }

  /**
   * At most hourly, drops this tenant's D1 rows nothing needs any more: remembered
   * `Idempotency-Key` answers past their lifetime, and the ids of rollup batches applied
   * more than an hour ago. A batch id is only needed while the batch may be retried, and a
   * batch is retried only while it is this object's pending one, which is never that old.
   */
  private async housekeeping(account: Account, now: number): Promise<void> {
    if (now - this.sweptAtMs < ledgerLimits.housekeepingEveryMs) return;
    this.sweptAtMs = now;
    const pending = this.events.pendingBatch();
    const db = database(this.env.DB);
    await db.batch([
      db
        .delete(idempotency)
        .where(
          and(eq(idempotency.tenantId, account.tenantId), lt(idempotency.createdAt, isoOf(now - IDEMPOTENCY_TTL_MS))),
        ),
      db
        .delete(rollupBatches)
        .where(
          and(
            eq(rollupBatches.tenantId, account.tenantId),
            lt(rollupBatches.appliedAt, isoOf(now - HOUR_MS)),
            pending ? lt(rollupBatches.batchId, pending) : undefined,
          ),
        ),
    ]);
  }

  /** Rolls every pending event into D1 now (the usage API calls this before reading rollups). */
  async flush(): Promise<number> {
    await this.load();
    return this.rollup();
  }

  /**
   * Moves events into D1's hourly rows, exactly once, in three steps that each survive a
   * crash: (1) pick events into a batch (one SQLite transaction); (2) in one D1
   * transaction, insert the batch id and add the batch's sums to the rows — a batch
   * already applied fails on the batch id's unique index and adds nothing; (3) mark the
   * batch applied. A crash after (1) or (2) re-runs (2) for the same batch on restart.
   * Rolled events are pruned after the retention period.
   */
  private rollup(): Promise<number> {
    this.rolling ??= (async () => {
      let applied = 0;
      try {
        for (;;) {
          const now = this.now();
          let batch = this.events.pendingBatch();
          if (!batch) {
            batch = this.events.openBatch(newId("bat", now), now, ledgerLimits.rollupBatchEvents);
            this.faults.afterOpen?.();
          }
          if (!batch) break;
          await this.applyBatch(batch, this.events.batchRows(batch));
          this.faults.afterApply?.();
          this.events.markApplied(batch, this.now());
          applied++;
        }
        this.events.prune(this.now() - ledgerLimits.eventRetentionMs, ledgerLimits.pruneEventsPerRun);
      } finally {
        this.rolling = null;
      }
      return applied;
    })();
    return this.rolling;
  }

  private async applyBatch(batchId: string, rows: RollupRow[]): Promise<void> {
    const tenantId = this.tenantId();
    const db = database(this.env.DB);
    const upserts = rows.map((row) =>
      db
        .insert(usageRollups)
        .values({ tenantId, ...row })
        .onConflictDoUpdate({
          target: [
            usageRollups.tenantId,
            usageRollups.hour,
            usageRollups.meter,
            usageRollups.workspaceId,
            usageRollups.keyId,
          ],
          // The row's running sum plus this batch's part.
          set: { quantity: sql`${usageRollups.quantity} + excluded.quantity` },
        }),
    );
    try {
      await db.batch([
        db.insert(rollupBatches).values({ tenantId, batchId, appliedAt: isoOf(this.now()) }),
        ...upserts,
      ]);
    } catch (error) {
      if (!String(error).includes("UNIQUE")) throw error;
      // Applied before a crash: the batch row proves it, and nothing was added twice.
      const done = await db.query.rollupBatches.findFirst({
        where: and(eq(rollupBatches.tenantId, tenantId), eq(rollupBatches.batchId, batchId)),
      });
      if (!done) throw error;
    }
  }

  /** Writes an immutable invoice for every period that has ended, oldest first. */
  private async closePeriods(account: Account, now: number): Promise<void> {
    for (;;) {
      const period = periodAt(account.anchorMs, account.closedThroughMs);
      if (period.endMs > now) return;
      const body = this.invoiceFor(account, period);
      await database(this.env.DB)
        .insert(invoices)
        .values({
          id: newId("inv", period.endMs),
          tenantId: account.tenantId,
          periodStart: body.periodStart,
          periodEnd: body.periodEnd,
          plan: body.plan,
          lines: JSON.stringify({ feeMicros: body.feeMicros, fees: body.fees, lines: body.lines }),
          totalMicros: body.totalMicros,
          createdAt: isoOf(now),
        })
        .onConflictDoNothing();
      account.closedThroughMs = period.endMs;
      if (account.pendingPlan) {
        account.plan = account.pendingPlan;
        account.pendingPlan = null;
        if (!account.plan.spendCap) account.spendCapMicros = null;
        this.bucket?.setRate(account.plan.rate);
        await this.mirrorPlan(account);
      }
      account.periodFees = [openingFee(account.plan)];
      this.saveAccount(account);
    }
  }

  /**
   * The invoice of a period from its totals. The first period not yet closed carries the
   * fee as charged (prorated on upgrade); a later one (the alarm has not closed the ended
   * period yet) is on the plan it will have: the pending one, or the current one.
   */
  private invoiceFor(account: Account, period: Period): InvoiceBody {
    const totals = this.events.totals(period.startMs);
    if (period.startMs <= account.closedThroughMs) return invoiceBody(account.plan, period, account.periodFees, totals);
    const plan = account.pendingPlan ?? account.plan;
    return invoiceBody(plan, period, [openingFee(plan)], totals);
  }

  /**
   * Keeps one alarm set for the soonest work: a rollup shortly after new events, the next
   * hour boundary while any workspace holds bytes, and the end of the open period.
   */
  private schedule(now: number) {
    const account = this.account;
    if (!account) return;
    const candidates = [periodAt(account.anchorMs, Math.max(now, account.closedThroughMs)).endMs];
    if (this.storage.pending()) candidates.push(hourStart(now) + HOUR_MS);
    if (this.events.hasUnrolled()) candidates.push(now + ledgerLimits.rollupDelayMs);
    this.alarmAtMs = Math.min(...candidates);
    void this.ctx.storage.setAlarm(this.alarmAtMs);
  }

  /**
   * Makes sure the alarm comes no later than `atMs`. On the hot path (every admission) this
   * is one comparison: an alarm already due sooner covers the new work too.
   */
  private alarmBy(atMs: number) {
    if (this.alarmAtMs !== null && this.alarmAtMs <= atMs) return;
    this.alarmAtMs = atMs;
    void this.ctx.storage.setAlarm(atMs);
  }

  // ── account state ───────────────────────────────────────────────────────────────────────

  private tenantId(): string {
    const name = this.ctx.id.name;
    if (!name) throw new Error("TenantDO must be addressed by name (the tenant id)");
    return name;
  }

  /** The account, created on first use from the tenant's D1 row (signup time and plan). */
  private async load(): Promise<Account> {
    if (this.account) return this.account;
    this.loading ??= this.ctx.blockConcurrencyWhile(async () => {
      const row = this.ctx.storage.sql.exec<AccountRow>("SELECT * FROM account").toArray()[0];
      if (row) {
        const plan = JSON.parse(row.plan) as Plan;
        this.account = {
          tenantId: row.tenant_id,
          anchorMs: row.anchor_ms,
          plan,
          pendingPlan: row.pending_plan ? (JSON.parse(row.pending_plan) as Plan) : null,
          spendCapMicros: row.spend_cap_micros,
          periodFees: row.period_fees
            ? (JSON.parse(row.period_fees) as StoredFeeLine[])
            : // Written before fees had parts: the fee as one opening part, whatever it was.
              [{ ...openingFee(plan), amountMicros: row.period_fee_micros }],
          closedThroughMs: row.closed_through_ms,
        };
        this.alarmAtMs = await this.ctx.storage.getAlarm();
        return;
      }
      const tenantId = this.tenantId();
      const tenant = await database(this.env.DB).query.tenants.findFirst({ where: eq(tenants.id, tenantId) });
      const plan = publicPlan(tenant?.plan ?? "free") ?? PLANS.free;
      const anchorMs = hourStart(tenant ? Date.parse(tenant.createdAt) : this.now());
      const account: Account = {
        tenantId,
        anchorMs,
        plan,
        pendingPlan: null,
        spendCapMicros: null,
        periodFees: [openingFee(plan)],
        closedThroughMs: anchorMs,
      };
      this.saveAccount(account);
      // Events from before the account existed (the first ledger) belong to the first period.
      this.ctx.storage.sql.exec(
        "UPDATE usage_events SET period_start_ms = ? WHERE period_start_ms IS NULL",
        periodAt(anchorMs, this.now()).startMs,
      );
      this.account = account;
    });
    await this.loading;
    this.loading = null;
    const account = this.account as Account | null;
    if (!account) throw new Error("the tenant account did not load");
    // The period's end always has an alarm, so periods close even for an idle tenant.
    if (this.alarmAtMs === null) {
      this.alarmBy(periodAt(account.anchorMs, Math.max(this.now(), account.closedThroughMs)).endMs);
    }
    return account;
  }

  private saveAccount(account: Account) {
    this.account = account;
    this.ctx.storage.sql.exec(
      `INSERT INTO account (id, tenant_id, anchor_ms, plan, pending_plan, spend_cap_micros, period_fee_micros, period_fees, closed_through_ms)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET plan = excluded.plan, pending_plan = excluded.pending_plan,
         spend_cap_micros = excluded.spend_cap_micros, period_fee_micros = excluded.period_fee_micros,
         period_fees = excluded.period_fees, closed_through_ms = excluded.closed_through_ms`,
      account.tenantId,
      account.anchorMs,
      JSON.stringify(account.plan),
      account.pendingPlan ? JSON.stringify(account.pendingPlan) : null,
      account.spendCapMicros,
      periodFeeMicros(account),
      JSON.stringify(account.periodFees),
      account.closedThroughMs,
    );
  }

  /** The D1 index shows the plan (account reads, the dashboard); the object stays the truth. */
  private async mirrorPlan(account: Account) {
    await database(this.env.DB).update(tenants).set({ plan: account.plan.id }).where(eq(tenants.id, account.tenantId));
  }

  private bucketFor(account: Account, now: number): TokenBucket {
    this.bucket ??= new TokenBucket(account.plan.rate, now);
    return this.bucket;
  }

  private rateHeaders(account: Account, period: Period, now: number) {
    const terms = account.plan.meters.api_requests;
    const monthly = terms.overage
      ? undefined
      : {
          quota: terms.included,
          remaining: terms.included - (this.events.totals(period.startMs).get("api_requests") ?? 0),
          windowSeconds: Math.round((period.endMs - period.startMs) / 1000),
          resetSeconds: Math.ceil((period.endMs - now) / 1000),
        };
    return this.bucketFor(account, now).headers(now, monthly);
  }

  private hardCapDenial(
    account: Account,
    period: Period,
    totals: ReadonlyMap<string, number>,
    meter: Meter,
    adding: number,
  ) {
    const terms = account.plan.meters[meter];
    if (terms.overage) return null;
    const used = totals.get(meter) ?? 0;
    if (adding > 0 ? used + adding <= terms.included : used < terms.included) return null;
    return this.quotaDenial(account, period, meter);
  }

  private quotaDenial(account: Account, period: Period, meter: Meter): Denial {
    return {
      ok: false,
      code: "quota_exceeded",
      detail: `the ${account.plan.id} plan's monthly ${meter} quota (${account.plan.meters[meter].included}) is used up until ${isoOf(period.endMs)}`,
      retryAfterSeconds: Math.max(1, Math.ceil((period.endMs - this.now()) / 1000)),
    };
  }

  private spendDenial(account: Account, period: Period, _now: number): Denial | null {
    if (account.spendCapMicros === null) return null;
    const cost = this.invoiceFor(account, period).totalMicros;
    if (cost < account.spendCapMicros) return null;
    return {
      ok: false,
      code: "spend_cap_reached",
      detail: `this period's charges (${cost} micro-dollars) have reached the spend cap (${account.spendCapMicros}); raise it with PUT /v1/billing/spend-cap`,
    };
  }
}

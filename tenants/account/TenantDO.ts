/**
 * TenantDO: one per tenant, named by the tenant id. The tenant's exact ledger and the only
 * place admission is decided, because a single-threaded object is where "record once" and
 * "admit exactly N" are cheap to make true. Every decision method is synchronous once the
 * account is loaded: nothing can interleave between checking a limit and counting against it.
 *
 * This class is the RPC shell; each job lives in its own module beside it: the policy
 * (admission.ts, pure), a run from its slot to its metering (runs.ts), run slots
 * (leases.ts), the account and its plan rules (ledger/account.ts), events and totals
 * (ledger/events.ts), storage integration (ledger/storage.ts), invoices (ledger/invoice.ts),
 * the D1 rollup (ledger/rollup.ts) and the tenant's live workspaces (workspaceRegistry.ts).
 * The alarm (ledger/alarm.ts) integrates storage hour by hour, closes ended periods into
 * invoices, and rolls events into D1's hourly rows exactly once. The clock and crash points
 * come from hooks.ts.
 */
import { DurableObject } from "cloudflare:workers";
import { database } from "../db.ts";
import type { RunAnswer, RunOptions, StartExec } from "../workspace/execs/ExecRunner.ts";
import { workspaceObjectName } from "../workspace/names.ts";
import { requestDecision, type Standing, useDecision } from "./admission.ts";
import { tenantHooks } from "./hooks.ts";
import { Leases } from "./leases.ts";
import {
  type Account,
  changePlan,
  createAccount,
  invoiceOf,
  readAccount,
  spendCapRefusal,
  writeAccount,
} from "./ledger/account.ts";
import { LedgerAlarm } from "./ledger/alarm.ts";
import { closeEndedPeriods, mirrorPlan } from "./ledger/d1.ts";
import { type EventQuery, Events, type LedgerEvent } from "./ledger/events.ts";
import { type InvoiceBody, openingFee } from "./ledger/invoice.ts";
import { ledgerLimits } from "./ledger/limits.ts";
import { HOUR_MS, hourStart, type Period, periodAt } from "./ledger/periods.ts";
import { Rollup } from "./ledger/rollup.ts";
import { migrateLedger } from "./ledger/schema.ts";
import { billingOf, monthlyRequestWindow, quotasOf } from "./ledger/statements.ts";
import { type StorageEvent, StorageMeter } from "./ledger/storage.ts";
import { TokenBucket } from "./ledger/tokenBucket.ts";
import type { Meter } from "./meters.ts";
import { containerResources, PLANS, type Plan, publicPlan, type VersionTerms, versionTerms } from "./plans.ts";
import type { Admission, AdmitRequest, BillingState, Denial, Quotas, RunEnd, RunGrant, RunRequest } from "./rpc.ts";
import { runExec } from "./runs.ts";
import { missingWorkspace, WorkspaceRegistry } from "./workspaceRegistry.ts";

export class TenantDO extends DurableObject<Env> {
  private readonly hooks = tenantHooks(this.ctx.id.name ?? "");
  private readonly events = new Events(this.ctx.storage.sql);
  private readonly leases = new Leases(this.ctx.storage.sql);
  private readonly workspaces = new WorkspaceRegistry(this.ctx.storage.sql);
  private readonly db = database(this.env.DB);
  private readonly rollup = new Rollup(this.events, this.db, this.ctx.id.name ?? "", this.hooks);
  /** Reads its tables as it is made, so it is made in the constructor, after the migration. */
  private readonly storage: StorageMeter;
  private account: Account | null = null;
  private bucket: TokenBucket | null = null;
  private loading: Promise<void> | null = null;
  private readonly nextAlarm = new LedgerAlarm(this.ctx.storage);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateLedger(ctx.storage);
    this.storage = new StorageMeter(ctx.storage.sql);
  }

  // ── admission ───────────────────────────────────────────────────────────────────────────

  /**
   * Admits one API request or says why not, and counts it: the rate bucket, the monthly
   * request quota (plans without overage), the spend cap, and for writes and execs the
   * storage cap. An admitted request is recorded as `api_requests` under its request id, tagged
   * with its workspace if the tenant has it; the answer says whether (the gateway's 404).
   */
  async admit(request: AdmitRequest): Promise<Admission> {
    return this.admitIn(await this.load(), this.hooks.now(), request);
  }

  private admitIn(account: Account, now: number, request: AdmitRequest): Admission {
    const live = request.workspaceId !== null && this.workspaces.has(request.workspaceId);
    const named = request.workspaceId === null ? {} : { workspaceLive: live };
    const standing = this.standing(account, now);
    const rate = this.bucketFor(account, now).take(now);
    const denial = requestDecision(standing, request.need, rate, this.storage.totalBytes);
    if (!denial) {
      this.recordIn(account, now, {
        id: request.requestId,
        meter: "api_requests",
        quantity: 1,
        atMs: now,
        workspaceId: live ? request.workspaceId : null,
        keyId: request.keyId,
        executor: null,
      });
    }
    return { ...(denial ?? { ok: true }), rate: this.rateHeaders(account, standing.period, now), ...named };
  }

  /**
   * Takes a concurrency slot for a run (leases.ts), for a workspace the tenant has (else
   * `not_found`). On plans with a hard cap on the executor's time, the run's timeout is cut to
   * what is left after the runs in flight, so the cap is exact. A repeat of the same exec id
   * answers the grant it already holds. With `run.request`, the API request is admitted
   * first, as `admit` would with need `exec`, in the same step (no await between).
   */
  async startRun(run: RunRequest): Promise<RunGrant> {
    const account = await this.load();
    const now = this.hooks.now();
    // Container runs carry the plan's computer limits, so a plan change applies from the next command.
    const resources = run.executor === "container" ? { resources: containerResources(account.plan) } : {};
    const existing = this.leases.find(run.execId);
    if (existing) return { ok: true, timeoutMs: existing.reservedMs || run.timeoutMs, ...resources };
    // With the request, admission has just looked whether the tenant has the workspace.
    const admission = run.request
      ? this.admitIn(account, now, { ...run.request, workspaceId: run.workspaceId, keyId: run.keyId, need: "exec" })
      : null;
    if (admission && !admission.ok) {
      const { workspaceLive: _, ...refusal } = admission;
      return refusal;
    }
    const rate = admission ? { rate: admission.rate } : {};
    const live = admission?.workspaceLive ?? this.workspaces.has(run.workspaceId);
    if (!live) return { ...missingWorkspace(run.workspaceId), ...rate };
    const granted = this.leases.grant(this.standing(account, now), run);
    return granted.ok ? { ...granted, ...resources, ...rate } : { ...granted, ...rate };
  }

  /** Runs a command in one of the tenant's workspaces, admission to metering (runs.ts). */
  async exec(workspaceId: string, start: StartExec, options: RunOptions = {}): Promise<RunAnswer> {
    const workspace = this.env.WORKSPACE.getByName(workspaceObjectName({ tenantId: this.tenantId(), workspaceId }));
    return runExec(
      this,
      workspaceId,
      start,
      async (grant) => (await workspace.exec(start, grant, options)) as RunAnswer,
    );
  }

  /** Records a finished run's time and storage, and frees its slot, in one transaction; a repeat changes nothing. */
  async finishRun(end: RunEnd): Promise<void> {
    const account = await this.load();
    const now = this.hooks.now();
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
    this.leases.close(end.execId);
  }

  /** Frees a slot without billing (the run never started, or its object lost it in a crash). */
  async releaseRun(execId: string): Promise<void> {
    this.leases.close(execId);
  }

  /** Runs holding a slot now, per executor. */
  async runsInFlight(): Promise<Record<string, number>> {
    return this.leases.runsByExecutor(this.hooks.now());
  }

  // ── the tenant's workspaces (workspaceRegistry.ts) ──────────────────────────────────────

  /** A new workspace (or fork), before its index row is written. */
  async addWorkspace(workspaceId: string): Promise<void> {
    await this.load();
    this.workspaces.add(workspaceId);
  }

  /** A workspace going away, before its index row is deleted: from now on every request for it is a 404. */
  async removeWorkspace(workspaceId: string): Promise<void> {
    await this.load();
    this.workspaces.remove(workspaceId);
  }

  // ── metering ────────────────────────────────────────────────────────────────────────────

  /**
   * Whether `quantity` more units of a metered resource that is not a run (a Workers AI image)
   * may be used now. The caller records the use with `record` once it succeeded, so a failed
   * use is never billed; uses in flight at the same moment may pass a hard cap by their number.
   */
  async allowUse(meter: Meter, quantity: number): Promise<{ ok: true } | Denial> {
    const account = await this.load();
    return useDecision(this.standing(account, this.hooks.now()), meter, quantity) ?? { ok: true };
  }

  /** Records any event under its id (egress bytes, for one); a repeat counts once. */
  async record(event: Omit<LedgerEvent, "atMs"> & { atMs?: number }): Promise<boolean> {
    const account = await this.load();
    const now = this.hooks.now();
    return this.recordIn(account, now, { ...event, atMs: event.atMs ?? now });
  }

  /** A workspace's size changed (as of its filesystem revision); storage integrates from now. */
  async storageChanged(workspaceId: string, sizeBytes: number, revision: number): Promise<void> {
    const account = await this.load();
    this.storageAt(account, workspaceId, sizeBytes, revision, this.hooks.now());
  }

  // ── reading usage and billing ───────────────────────────────────────────────────────────

  async listEvents(query: EventQuery) {
    await this.load();
    return this.events.list(query);
  }

  async quotas(): Promise<Quotas> {
    const account = await this.load();
    const now = this.hooks.now();
    const period = periodAt(account.anchorMs, now);
    const totals = this.events.totals(period.startMs);
    return quotasOf(account, period, totals, this.leases.reservedByMeter(now), this.storage.totalBytes);
  }

  /** The plan's history window and snapshot quota, which each workspace object applies to itself. */
  async versionTerms(): Promise<VersionTerms> {
    return versionTerms((await this.load()).plan);
  }

  async billing(): Promise<BillingState> {
    const account = await this.load();
    const period = periodAt(account.anchorMs, this.hooks.now());
    return billingOf(account, period, this.invoiceFor(account, period).totalMicros);
  }

  async upcomingInvoice(): Promise<InvoiceBody> {
    const account = await this.load();
    return this.invoiceFor(account, periodAt(account.anchorMs, this.hooks.now()));
  }

  /** An upgrade applies at once with a prorated fee; a downgrade waits for the period's end (ledger/account.ts). */
  async changePlan(planId: string): Promise<{ ok: true; billing: BillingState } | { ok: false; detail: string }> {
    const plan = publicPlan(planId);
    if (!plan) return { ok: false, detail: `no plan \`${planId}\`; choose one of ${Object.keys(PLANS).join(", ")}` };
    const account = await this.load();
    if (changePlan(account, plan, this.hooks.now())) this.bucket?.setRate(plan.rate);
    this.saveAccount(account);
    await mirrorPlan(this.db, account.tenantId, account.plan.id);
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
    await mirrorPlan(this.db, account.tenantId, account.plan.id);
  }

  async setSpendCap(
    amountMicros: number | null,
  ): Promise<{ ok: true; billing: BillingState } | { ok: false; detail: string }> {
    const account = await this.load();
    const refusal = spendCapRefusal(account, amountMicros);
    if (refusal) return { ok: false, detail: refusal };
    account.spendCapMicros = amountMicros;
    this.saveAccount(account);
    return { ok: true, billing: await this.billing() };
  }

  // ── alarm: storage hours, period close, rollups ─────────────────────────────────────────

  override async alarm(): Promise<void> {
    this.nextAlarm.fired();
    const account = await this.load();
    const now = this.hooks.now();
    this.storage.advanceAll(now, this.recordStorage(account, now));
    await closeEndedPeriods(this.db, account, now, {
      invoiceFor: (period) => this.invoiceFor(account, period),
      planChanged: () => this.bucket?.setRate(account.plan.rate),
      save: () => this.saveAccount(account),
    });
    await this.rollup.run();
    await this.rollup.sweep(now);
    this.schedule(now);
  }

  /** Rolls every pending event into D1 now (the usage API calls this before reading rollups). */
  async flush(): Promise<number> {
    await this.load();
    return this.rollup.run();
  }

  /** Keeps the alarm at the soonest work due (ledger/alarm.ts). */
  private schedule(now: number) {
    const account = this.account;
    if (!account) return;
    const candidates = [periodAt(account.anchorMs, Math.max(now, account.closedThroughMs)).endMs];
    if (this.storage.pending()) candidates.push(hourStart(now) + HOUR_MS);
    if (this.events.hasUnrolled()) candidates.push(now + ledgerLimits.rollupDelayMs);
    this.nextAlarm.at(...candidates);
  }

  // ── recording ───────────────────────────────────────────────────────────────────────────

  private storageAt(account: Account, workspaceId: string, sizeBytes: number, revision: number, now: number) {
    this.storage.change(workspaceId, sizeBytes, revision, now, this.recordStorage(account, now));
    this.nextAlarm.by(hourStart(now) + HOUR_MS);
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
    if (added) this.nextAlarm.by(now + ledgerLimits.rollupDelayMs);
    return added;
  }

  // ── account state ───────────────────────────────────────────────────────────────────────

  /** What the pure policy reads (admission.ts), at `now`. */
  private standing(account: Account, now: number): Standing {
    const period = periodAt(account.anchorMs, now);
    return {
      plan: account.plan,
      period,
      nowMs: now,
      totals: this.events.totals(period.startMs),
      spendCapMicros: account.spendCapMicros,
      costMicros: () => this.invoiceFor(account, period).totalMicros,
    };
  }

  private invoiceFor(account: Account, period: Period): InvoiceBody {
    return invoiceOf(account, period, this.events.totals(period.startMs));
  }

  private tenantId(): string {
    const name = this.ctx.id.name;
    if (!name) throw new Error("TenantDO must be addressed by name (the tenant id)");
    return name;
  }

  /** The account, loaded once; created on first use from the tenant's D1 row (ledger/account.ts). */
  private async load(): Promise<Account> {
    if (this.account) return this.account;
    this.loading ??= this.ctx.blockConcurrencyWhile(async () => {
      const stored = readAccount(this.ctx.storage.sql);
      if (stored) await this.nextAlarm.load();
      this.account = stored ?? (await createAccount(this.ctx.storage.sql, this.db, this.tenantId(), this.hooks.now()));
      if (!this.workspaces.filled()) await this.workspaces.fill(this.db, this.tenantId());
    });
    await this.loading;
    this.loading = null;
    const account = this.account as Account | null;
    if (!account) throw new Error("the tenant account did not load");
    // The period's end always has an alarm, so periods close even for an idle tenant.
    if (!this.nextAlarm.set) {
      this.nextAlarm.by(periodAt(account.anchorMs, Math.max(this.hooks.now(), account.closedThroughMs)).endMs);
    }
    return account;
  }

  private saveAccount(account: Account) {
    this.account = account;
    writeAccount(this.ctx.storage.sql, account);
  }

  private bucketFor(account: Account, now: number): TokenBucket {
    this.bucket ??= new TokenBucket(account.plan.rate, now);
    return this.bucket;
  }

  private rateHeaders(account: Account, period: Period, now: number) {
    const monthly = monthlyRequestWindow(account, period, this.events.totals(period.startMs), now);
    return this.bucketFor(account, now).headers(now, monthly);
  }
}

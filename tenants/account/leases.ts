/**
 * Run leases: one row per run holding a concurrency slot, in the tenant object's SQLite so a
 * lease outlives the object's memory (an evicted object still counts the runs in flight).
 * A lease expires on its own at its run's timeout plus a grace, so a run whose workspace
 * crashed cannot hold a slot forever. `reserved_ms` is the time a run may still use on a
 * plan with a hard cap on its executor's time (0 where overage is billed).
 */

import type { ExecutorName } from "../../executors/contract.ts";
import { type RunAsk, runDecision, type Standing } from "./admission.ts";
import { ledgerLimits } from "./ledger/limits.ts";
import type { Denial } from "./rpc.ts";

export interface Lease {
  reservedMs: number;
  expiresMs: number;
}

export class Leases {
  constructor(private readonly sql: SqlStorage) {}

  find(execId: string): Lease | null {
    const row = this.sql
      .exec<{ reserved_ms: number; expires_ms: number }>(
        "SELECT reserved_ms, expires_ms FROM leases WHERE id = ?",
        execId,
      )
      .toArray()[0];
    return row ? { reservedMs: row.reserved_ms, expiresMs: row.expires_ms } : null;
  }

  /** Drops the leases that expired by `nowMs`, so their slots count as free. */
  expire(nowMs: number): void {
    this.sql.exec("DELETE FROM leases WHERE expires_ms <= ?", nowMs);
  }

  /** Leases held for one executor (expired ones too: call `expire` first). */
  runs(executor: ExecutorName): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM leases WHERE executor = ?", executor).one().n;
  }

  /** Time reserved on one meter by the leases held. */
  reservedMs(meter: string): number {
    return (
      this.sql.exec<{ n: number | null }>("SELECT sum(reserved_ms) AS n FROM leases WHERE meter = ?", meter).one().n ??
      0
    );
  }

  /**
   * The policy's answer to a run (admission.ts) over the leases held at `standing.nowMs`,
   * expired ones dropped first, and the run's lease when it is granted.
   */
  grant(standing: Standing, run: RunAsk & { execId: string }): { ok: true; timeoutMs: number } | Denial {
    this.expire(standing.nowMs);
    const decision = runDecision(standing, run, {
      runs: this.runs(run.executor),
      reservedMs: this.reservedMs(`${run.executor}_ms`),
    });
    if (!decision.ok) return decision;
    this.open(run.execId, run.executor, decision.timeoutMs, decision.reservedMs, standing.nowMs);
    return { ok: true, timeoutMs: decision.timeoutMs };
  }

  open(execId: string, executor: ExecutorName, timeoutMs: number, reservedMs: number, nowMs: number): void {
    this.sql.exec(
      "INSERT INTO leases (id, executor, expires_ms, reserved_ms, meter) VALUES (?, ?, ?, ?, ?)",
      execId,
      executor,
      nowMs + timeoutMs + ledgerLimits.leaseGraceMs,
      reservedMs,
      `${executor}_ms`,
    );
  }

  /** Frees a slot; closing one that is gone changes nothing. */
  close(execId: string): void {
    this.sql.exec("DELETE FROM leases WHERE id = ?", execId);
  }

  /** Unexpired leases per executor. */
  runsByExecutor(nowMs: number): Record<string, number> {
    const rows = this.sql
      .exec<{ executor: string; n: number }>(
        "SELECT executor, count(*) AS n FROM leases WHERE expires_ms > ? GROUP BY executor",
        nowMs,
      )
      .toArray();
    return Object.fromEntries(rows.map((row) => [row.executor, row.n]));
  }

  /** Unexpired reserved time per meter. */
  reservedByMeter(nowMs: number): Map<string, number> {
    const rows = this.sql
      .exec<{ meter: string; n: number }>(
        "SELECT meter, sum(reserved_ms) AS n FROM leases WHERE expires_ms > ? GROUP BY meter",
        nowMs,
      )
      .toArray();
    return new Map(rows.map((row) => [row.meter, row.n]));
  }
}

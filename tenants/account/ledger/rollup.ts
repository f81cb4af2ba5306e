/**
 * Moving the tenant's events into D1's hourly rows (`usage_rollups`), exactly once, and
 * sweeping the D1 rows the tenant no longer needs. The object's alarm and `flush` drive it.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db.ts";
import { newId } from "../../ids.ts";
import type { TenantHooks } from "../hooks.ts";
import { IDEMPOTENCY_TTL_MS } from "../idempotency.ts";
import { idempotency, rollupBatches, usageRollups } from "../schema.ts";
import type { Events, RollupRow } from "./events.ts";
import { ledgerLimits } from "./limits.ts";
import { HOUR_MS } from "./periods.ts";

const isoOf = (ms: number) => new Date(ms).toISOString();

export class Rollup {
  private rolling: Promise<number> | null = null;
  private sweptAtMs = 0;

  constructor(
    private readonly events: Events,
    private readonly db: Db,
    private readonly tenantId: string,
    private readonly hooks: TenantHooks,
  ) {}

  /**
   * Rolls every pending event into D1 in three steps that each survive a crash: (1) pick
   * events into a batch (one SQLite transaction); (2) in one D1 transaction, insert the
   * batch id and add the batch's sums to the rows — a batch already applied fails on the
   * batch id's unique index and adds nothing; (3) mark the batch applied. A crash after (1)
   * or (2) re-runs (2) for the same batch on restart. Rolled events are pruned after the
   * retention period. Concurrent callers share one run. Answers the batches applied.
   */
  run(): Promise<number> {
    this.rolling ??= (async () => {
      let applied = 0;
      try {
        for (;;) {
          const now = this.hooks.now();
          let batch = this.events.pendingBatch();
          if (!batch) {
            batch = this.events.openBatch(newId("bat", now), now, ledgerLimits.rollupBatchEvents);
            this.hooks.afterOpen();
          }
          if (!batch) break;
          await this.apply(batch, this.events.batchRows(batch));
          this.hooks.afterApply();
          this.events.markApplied(batch, this.hooks.now());
          applied++;
        }
        this.events.prune(this.hooks.now() - ledgerLimits.eventRetentionMs, ledgerLimits.pruneEventsPerRun);
      } finally {
        this.rolling = null;
      }
      return applied;
    })();
    return this.rolling;
  }

  private async apply(batchId: string, rows: RollupRow[]): Promise<void> {
    const { db, tenantId } = this;
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
        db.insert(rollupBatches).values({ tenantId, batchId, appliedAt: isoOf(this.hooks.now()) }),
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

  /**
   * At most hourly, drops this tenant's D1 rows nothing needs any more: remembered
   * `Idempotency-Key` answers past their lifetime, and the ids of rollup batches applied
   * more than an hour ago. A batch id is only needed while the batch may be retried, and a
   * batch is retried only while it is this object's pending one, which is never that old.
   */
  async sweep(nowMs: number): Promise<void> {
    if (nowMs - this.sweptAtMs < ledgerLimits.housekeepingEveryMs) return;
    this.sweptAtMs = nowMs;
    const pending = this.events.pendingBatch();
    const { db, tenantId } = this;
    await db.batch([
      db
        .delete(idempotency)
        .where(and(eq(idempotency.tenantId, tenantId), lt(idempotency.createdAt, isoOf(nowMs - IDEMPOTENCY_TTL_MS)))),
      db
        .delete(rollupBatches)
        .where(
          and(
            eq(rollupBatches.tenantId, tenantId),
            lt(rollupBatches.appliedAt, isoOf(nowMs - HOUR_MS)),
            pending ? lt(rollupBatches.batchId, pending) : undefined,
          ),
        ),
    ]);
  }
}

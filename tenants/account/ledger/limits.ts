/** Timings and sizes of the tenant ledger, each with the reason it is what it is. */
export const ledgerLimits = {
  /** A run's slot outlives its timeout by this much, covering the time to record its end. */
  leaseGraceMs: 30_000,
  /** New events wait this long before a rollup, so a busy minute becomes one D1 transaction. */
  rollupDelayMs: 30_000,
  /** Events per rollup batch: one D1 transaction of at most this many upserts stays well inside D1's limits. */
  rollupBatchEvents: 500,
  /** Rolled-up events stay this long for `/v1/usage/events` (a billing period and a few days' grace). */
  eventRetentionMs: 35 * 24 * 3_600_000,
  /** How often an active tenant's object sweeps its expired D1 rows (idempotency, batch ids). */
  housekeepingEveryMs: 3_600_000,
  /** Pruning is bounded per alarm so one alarm never stalls the object. */
  pruneEventsPerRun: 5_000,
} as const;

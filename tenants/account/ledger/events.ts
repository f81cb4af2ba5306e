/**
 * The event ledger: every usage event once (its id is the primary key), the running total
 * of each meter per billing period beside it (updated in the same transaction, so admission
 * and the upcoming invoice read a number instead of summing events), and the batches that
 * carry events to the D1 rollups.
 */
import type { Meter } from "../meters.ts";

export interface LedgerEvent {
  id: string;
  meter: Meter;
  quantity: number;
  atMs: number;
  workspaceId: string | null;
  keyId: string | null;
  executor: string | null;
}

export interface StoredEvent {
  id: string;
  meter: Meter;
  quantity: number;
  at: string;
  workspaceId: string | null;
  keyId: string | null;
  executor: string | null;
}

type EventRow = {
  id: string;
  meter: Meter;
  quantity: number;
  at: string;
  workspace_id: string | null;
  key_id: string | null;
  executor: string | null;
};

export interface EventQuery {
  fromIso: string;
  toIso: string;
  meter?: Meter | undefined;
  workspaceId?: string | undefined;
  keyId?: string | undefined;
  /** Events after this `(at, id)` position, from a previous page. */
  after?: { at: string; id: string } | undefined;
  limit: number;
}

export interface RollupRow {
  meter: string;
  workspaceId: string;
  keyId: string;
  hour: string;
  quantity: number;
}

export class Events {
  /** The open period's totals, read on every admission; the table is the truth, this its mirror. */
  private readonly cache = new Map<number, Map<string, number>>();

  constructor(private readonly sql: SqlStorage) {}

  /** Records an event in `periodStartMs`; a second event with the same id changes nothing. */
  record(event: LedgerEvent, periodStartMs: number): boolean {
    const cursor = this.sql.exec(
      `INSERT OR IGNORE INTO usage_events (id, meter, quantity, at, workspace_id, key_id, executor, period_start_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      event.id,
      event.meter,
      event.quantity,
      new Date(event.atMs).toISOString(),
      event.workspaceId,
      event.keyId,
      event.executor,
      periodStartMs,
    );
    if (cursor.rowsWritten === 0) return false;
    this.sql.exec(
      `INSERT INTO period_totals (period_start_ms, meter, quantity) VALUES (?, ?, ?)
       ON CONFLICT (period_start_ms, meter) DO UPDATE SET quantity = quantity + excluded.quantity`,
      periodStartMs,
      event.meter,
      event.quantity,
    );
    const totals = this.cache.get(periodStartMs);
    if (totals) totals.set(event.meter, (totals.get(event.meter) ?? 0) + event.quantity);
    return true;
  }

  totals(periodStartMs: number): ReadonlyMap<string, number> {
    let totals = this.cache.get(periodStartMs);
    if (!totals) {
      totals = new Map(
        this.sql
          .exec<{ meter: string; quantity: number }>(
            "SELECT meter, quantity FROM period_totals WHERE period_start_ms = ?",
            periodStartMs,
          )
          .toArray()
          .map((row) => [row.meter, row.quantity]),
      );
      // Only the newest periods are asked for repeatedly; keep the cache small.
      if (this.cache.size >= 4) this.cache.clear();
      this.cache.set(periodStartMs, totals);
    }
    return totals;
  }

  /** A page of events in [from, to) in (at, id) order, with filters. */
  list(query: EventQuery): StoredEvent[] {
    const where = ["at >= ?", "at < ?"];
    const args: (string | number)[] = [query.fromIso, query.toIso];
    const filter = (clause: string, ...values: string[]) => {
      where.push(clause);
      args.push(...values);
    };
    if (query.meter) filter("meter = ?", query.meter);
    if (query.workspaceId) filter("workspace_id = ?", query.workspaceId);
    if (query.keyId) filter("key_id = ?", query.keyId);
    if (query.after) filter("(at > ? OR (at = ? AND id > ?))", query.after.at, query.after.at, query.after.id);
    return this.sql
      .exec<EventRow>(
        `SELECT id, meter, quantity, at, workspace_id, key_id, executor FROM usage_events
         WHERE ${where.join(" AND ")} ORDER BY at, id LIMIT ?`,
        ...args,
        query.limit,
      )
      .toArray()
      .map((row) => ({
        id: row.id,
        meter: row.meter,
        quantity: row.quantity,
        at: row.at,
        workspaceId: row.workspace_id,
        keyId: row.key_id,
        executor: row.executor,
      }));
  }

  // ── rollup batches ──────────────────────────────────────────────────────────────────────

  /** The batch picked but not yet confirmed applied (at most one), left by a crash or in flight. */
  pendingBatch(): string | null {
    return (
      this.sql.exec<{ id: string }>("SELECT id FROM batches WHERE applied_ms IS NULL ORDER BY id LIMIT 1").toArray()[0]
        ?.id ?? null
    );
  }

  /** Picks up to `limit` events no batch holds yet into a new batch; null when there are none. */
  openBatch(batchId: string, nowMs: number, limit: number): string | null {
    const picked = this.sql.exec(
      `UPDATE usage_events SET batch_id = ? WHERE id IN
         (SELECT id FROM usage_events WHERE batch_id IS NULL ORDER BY at, id LIMIT ?)`,
      batchId,
      limit,
    ).rowsWritten;
    if (picked === 0) return null;
    this.sql.exec("INSERT INTO batches (id, created_ms) VALUES (?, ?)", batchId, nowMs);
    return batchId;
  }

  /** A batch's events summed per rollup row (meter × workspace × key × UTC hour). */
  batchRows(batchId: string): RollupRow[] {
    return this.sql
      .exec<{ meter: string; workspace_id: string; key_id: string; hour: string; quantity: number }>(
        `SELECT meter, coalesce(workspace_id, '') AS workspace_id, coalesce(key_id, '') AS key_id,
                substr(at, 1, 13) || ':00:00.000Z' AS hour, sum(quantity) AS quantity
         FROM usage_events WHERE batch_id = ? GROUP BY 1, 2, 3, 4`,
        batchId,
      )
      .toArray()
      .map((row) => ({
        meter: row.meter,
        workspaceId: row.workspace_id,
        keyId: row.key_id,
        hour: row.hour,
        quantity: row.quantity,
      }));
  }

  markApplied(batchId: string, nowMs: number): void {
    this.sql.exec("UPDATE batches SET applied_ms = ? WHERE id = ?", nowMs, batchId);
    this.sql.exec("UPDATE usage_events SET rolled_ms = ? WHERE batch_id = ?", nowMs, batchId);
  }

  /** Deletes rolled-up events (and their batch rows) older than `beforeMs`; a bounded amount per call. */
  prune(beforeMs: number, limit: number): number {
    const before = new Date(beforeMs).toISOString();
    const pruned = this.sql.exec(
      `DELETE FROM usage_events WHERE id IN
         (SELECT id FROM usage_events WHERE rolled_ms IS NOT NULL AND at < ? LIMIT ?)`,
      before,
      limit,
    ).rowsWritten;
    this.sql.exec("DELETE FROM batches WHERE applied_ms IS NOT NULL AND applied_ms < ?", beforeMs);
    return pruned;
  }

  /** Whether any event still has to reach D1 (unpicked, or in a batch not yet applied). */
  hasUnrolled(): boolean {
    const unbatched = this.sql.exec("SELECT 1 FROM usage_events WHERE batch_id IS NULL LIMIT 1").toArray().length > 0;
    return unbatched || this.pendingBatch() !== null;
  }
}

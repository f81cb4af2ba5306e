/**
 * TenantDO: one per tenant, named by the tenant id. It holds the tenant's exact usage
 * ledger (and, in a later issue, admission state), because a single-threaded object is
 * the one place where "record once" and "admit exactly N" are cheap to make true.
 */
import { DurableObject } from "cloudflare:workers";
import type { UsageEvent, UsagePoint } from "./meters.ts";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS usage_events (
    id TEXT PRIMARY KEY,
    meter TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    at TEXT NOT NULL,
    workspace_id TEXT,
    key_id TEXT
  )`,
  "CREATE INDEX IF NOT EXISTS usage_events_meter_at ON usage_events (meter, at)",
];

export class TenantDO extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    for (const statement of SCHEMA) ctx.storage.sql.exec(statement);
  }

  /** Records an event; a second event with the same id is ignored. Returns whether it was new. */
  record(event: UsageEvent): boolean {
    const cursor = this.ctx.storage.sql.exec(
      "INSERT OR IGNORE INTO usage_events (id, meter, quantity, at, workspace_id, key_id) VALUES (?, ?, ?, ?, ?, ?)",
      event.id,
      event.meter,
      event.quantity,
      event.at,
      event.workspaceId ?? null,
      event.keyId ?? null,
    );
    return cursor.rowsWritten > 0;
  }

  /** Sum of a meter per UTC day in [fromIso, toIso). */
  daily(meter: string, fromIso: string, toIso: string): UsagePoint[] {
    return this.ctx.storage.sql
      .exec<{ day: string; quantity: number }>(
        `SELECT substr(at, 1, 10) AS day, sum(quantity) AS quantity FROM usage_events
         WHERE meter = ? AND at >= ? AND at < ? GROUP BY day ORDER BY day`,
        meter,
        fromIso,
        toIso,
      )
      .toArray()
      .map((row) => ({ start: `${row.day}T00:00:00.000Z`, quantity: row.quantity }));
  }
}

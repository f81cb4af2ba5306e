/**
 * The tenant object's own SQLite tables, migrated by a version number in `meta`
 * (tenants/sqlMigrations.ts).
 * v1 was the first ledger (events only); v2 adds the account, period totals, run leases,
 * storage integration and rollup batches, and tags events with their period and batch;
 * v3 keeps the period's fee in parts; v4 lists the tenant's workspaces (workspaceRegistry.ts).
 */
import { migrateSchema, type SqlStatement } from "../../sqlMigrations.ts";

export const LEDGER_STEPS: readonly (readonly SqlStatement[])[] = [
  [
    `CREATE TABLE IF NOT EXISTS usage_events (
      id TEXT PRIMARY KEY, meter TEXT NOT NULL, quantity INTEGER NOT NULL, at TEXT NOT NULL,
      workspace_id TEXT, key_id TEXT
    )`,
    "CREATE INDEX IF NOT EXISTS usage_events_meter_at ON usage_events (meter, at)",
  ],
  [
    "ALTER TABLE usage_events ADD COLUMN executor TEXT",
    "ALTER TABLE usage_events ADD COLUMN period_start_ms INTEGER",
    /** The rollup batch an event went into; NULL until it is picked. */
    "ALTER TABLE usage_events ADD COLUMN batch_id TEXT",
    /** When its batch reached D1; NULL until then. Pruning only touches rolled events. */
    "ALTER TABLE usage_events ADD COLUMN rolled_ms INTEGER",
    // Listing reads by time; (meter, at) from v1 served a query that is gone.
    "DROP INDEX IF EXISTS usage_events_meter_at",
    "CREATE INDEX usage_events_at ON usage_events (at, id)",
    "CREATE INDEX usage_events_batch ON usage_events (batch_id) WHERE batch_id IS NOT NULL",
    // Rollups pick the oldest events no batch holds; rolled ones stay for weeks, so skip them.
    "CREATE INDEX usage_events_unbatched ON usage_events (at, id) WHERE batch_id IS NULL",
    `CREATE TABLE account (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      tenant_id TEXT NOT NULL,
      anchor_ms INTEGER NOT NULL,
      plan TEXT NOT NULL,
      pending_plan TEXT,
      spend_cap_micros INTEGER,
      period_fee_micros INTEGER NOT NULL,
      closed_through_ms INTEGER NOT NULL
    )`,
    `CREATE TABLE period_totals (
      period_start_ms INTEGER NOT NULL, meter TEXT NOT NULL, quantity INTEGER NOT NULL,
      PRIMARY KEY (period_start_ms, meter)
    )`,
    `CREATE TABLE leases (
      id TEXT PRIMARY KEY, executor TEXT NOT NULL, expires_ms INTEGER NOT NULL,
      reserved_ms INTEGER NOT NULL, meter TEXT NOT NULL
    )`,
    `CREATE TABLE storage (
      workspace_id TEXT PRIMARY KEY,
      size_bytes INTEGER NOT NULL,
      revision INTEGER NOT NULL,
      since_ms INTEGER NOT NULL,
      hour_ms INTEGER NOT NULL,
      acc TEXT NOT NULL,
      carry INTEGER NOT NULL
    )`,
    "CREATE TABLE batches (id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL, applied_ms INTEGER)",
  ],
  // v3: the open period's fee part by part (JSON), so an invoice can tell a prorated upgrade from a whole fee.
  ["ALTER TABLE account ADD COLUMN period_fees TEXT"],
  // v4: the tenant's live workspaces; objects made before it copy them from D1 once (workspaceRegistry.ts).
  ["CREATE TABLE workspaces (id TEXT PRIMARY KEY)"],
];

export function migrateLedger(storage: DurableObjectStorage): void {
  migrateSchema(storage, {
    versionKey: "ledger_schema_version",
    steps: LEDGER_STEPS,
    // Objects made before the version row existed already have v1's table.
    versionBeforeMeta: (db) =>
      db.exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'usage_events'").one().n ? 1 : 0,
  });
}

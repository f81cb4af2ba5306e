/**
 * The D1 schema: the cross-tenant index the gateway needs before it can find a tenant's
 * Durable Objects. Per-tenant exact state (the usage ledger) lives in TenantDO, and file
 * content lives in each WorkspaceDO; D1 holds only what must be looked up globally.
 * `npm run db:generate` turns changes here into SQL under migrations/.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const tenants = sqliteTable(
  "tenants",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name"),
    /** Mirror of the plan in the tenant's object (TenantDO), which is the truth. */
    plan: text("plan").notNull().default("free"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("tenants_email_unique").on(t.email)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    /** Hex SHA-256 of the whole secret; the secret itself is never stored. */
    secretHash: text("secret_hash").notNull(),
    /** The first characters of the secret, safe to show so a user can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** JSON array of scope names. */
    scopes: text("scopes").notNull(),
    /** JSON array of workspace ids the key is restricted to, or null for all. */
    workspaceIds: text("workspace_ids"),
    expiresAt: text("expires_at"),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_keys_secret_hash_unique").on(t.secretHash),
    index("api_keys_tenant_idx").on(t.tenantId, t.id),
  ],
);

export const workspaces = sqliteTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name"),
    /** JSON object of string labels, filterable with `?metadata.<k>=<v>`. */
    metadata: text("metadata").notNull().default("{}"),
    createdAt: text("created_at").notNull(),
    /** Mirrors of the workspace object's exact counters, refreshed on every write. */
    sizeBytes: integer("size_bytes").notNull().default(0),
    fileCount: integer("file_count").notNull().default(0),
    /** What storage bills: the unique bytes its tree and snapshots reach (docs/billing.md). */
    storageBytes: integer("storage_bytes").notNull().default(0),
    /** For a fork: the workspace and revision it was made from (the source may since be gone). */
    forkedFrom: text("forked_from"),
    forkedRevision: integer("forked_revision"),
  },
  (t) => [index("workspaces_tenant_idx").on(t.tenantId, t.id)],
);

/** Responses remembered for `Idempotency-Key` retries, per tenant and operation. */
export const idempotency = sqliteTable(
  "idempotency",
  {
    tenantId: text("tenant_id").notNull(),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** Hash of the request body, so reusing a key for a different request is refused. */
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    body: text("body"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("idempotency_pk").on(t.tenantId, t.scope, t.key)],
);

/**
 * Hourly usage rollups, written by each tenant's object from its ledger (TenantDO). One row
 * per tenant × meter × workspace × key × hour; `''` stands for "no workspace" or "no key"
 * so the unique index can decide upserts (SQLite treats NULLs as distinct).
 */
export const usageRollups = sqliteTable(
  "usage_rollups",
  {
    tenantId: text("tenant_id").notNull(),
    meter: text("meter").notNull(),
    workspaceId: text("workspace_id").notNull().default(""),
    keyId: text("key_id").notNull().default(""),
    /** Start of the UTC hour, RFC 3339. */
    hour: text("hour").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [uniqueIndex("usage_rollups_pk").on(t.tenantId, t.hour, t.meter, t.workspaceId, t.keyId)],
);

/**
 * Rollup batches already applied. Each batch inserts its row here in the same D1
 * transaction as its upserts, so a batch retried after a crash fails as a whole instead of
 * counting twice.
 */
export const rollupBatches = sqliteTable(
  "rollup_batches",
  {
    tenantId: text("tenant_id").notNull(),
    batchId: text("batch_id").notNull(),
    appliedAt: text("applied_at").notNull(),
  },
  (t) => [uniqueIndex("rollup_batches_pk").on(t.tenantId, t.batchId)],
);

/** Closed billing periods. Written once per tenant and period, never updated. */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    periodStart: text("period_start").notNull(),
    periodEnd: text("period_end").notNull(),
    plan: text("plan").notNull(),
    /** JSON array of line items, as the upcoming invoice shows them. */
    lines: text("lines").notNull(),
    totalMicros: integer("total_micros").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("invoices_tenant_period").on(t.tenantId, t.periodStart)],
);

/**
 * Keys that sign scoped tokens, share links and dashboard sessions (HS256). Generated on
 * first use, so a deployment needs no secret set by hand; `kid` in a token names its key,
 * so keys can be rotated by adding a newer one.
 */
export const signingKeys = sqliteTable("signing_keys", {
  id: text("id").primaryKey(),
  /** base64url of 32 random bytes. */
  secret: text("secret").notNull(),
  createdAt: text("created_at").notNull(),
});

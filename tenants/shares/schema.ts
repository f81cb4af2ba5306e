/**
 * D1 table for share links. The link itself is a signed token that is never stored; this
 * row is what makes it revocable, and what the link is checked against on every request.
 */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const shares = sqliteTable(
  "shares",
  {
    /** `shr_…`; the token's `jti`. */
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    /** The shared file's workspace path. */
    path: text("path").notNull(),
    /** The API key behind the credential that made it: the link dies with that key. */
    keyId: text("key_id").notNull(),
    /** The path prefix that credential was confined to: the link never reads outside it. */
    pathPrefix: text("path_prefix"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("shares_tenant_workspace").on(t.tenantId, t.workspaceId, t.id)],
);

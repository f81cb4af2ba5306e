/**
 * D1 tables for artifacts: the index of what each tenant has published. The bytes live in
 * R2 (`ARTIFACTS`), one object per distinct file content per tenant; these rows say which
 * files make up an artifact and where it was published from.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const artifacts = sqliteTable(
  "artifacts",
  {
    /** `art_…`, derived from the tenant and the digest (manifest.ts), so never shared by two tenants. */
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    /** `sha256:<hex>` over the canonical manifest. */
    digest: text("digest").notNull(),
    /** JSON array of `{ path, size, sha256 }`, sorted as the manifest is; bounded by `manifestBytesMax`. */
    files: text("files").notNull(),
    fileCount: integer("file_count").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("artifacts_tenant_digest").on(t.tenantId, t.digest),
    index("artifacts_tenant_created").on(t.tenantId, t.createdAt, t.id),
  ],
);

/**
 * Where an artifact was published from. The same content published from two places is one
 * artifact with two sources; a credential confined to some workspaces or a path prefix may
 * read an artifact only through a source inside its reach (reach.ts).
 */
export const artifactSources = sqliteTable(
  "artifact_sources",
  {
    tenantId: text("tenant_id").notNull(),
    artifactId: text("artifact_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    /** The workspace path that was published (`/dist`). */
    path: text("path").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("artifact_sources_pk").on(t.tenantId, t.artifactId, t.workspaceId, t.path)],
);

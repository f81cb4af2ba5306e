/**
 * The workspace index in D1 (who owns which workspace, its name and labels) and the way
 * to its Durable Object. Every method takes the tenant id first and filters on it, so a
 * workspace id from another tenant behaves exactly like one that does not exist.
 *
 * The tenant's object lists its live workspaces too (account/workspaceRegistry.ts), which is
 * how requests learn that theirs exists without reading D1: a workspace joins that list
 * before its index row is written and leaves it before the row is deleted.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { workspaces } from "../account/schema.ts";
import type { TenantDO } from "../account/TenantDO.ts";
import { type Db, nowIso } from "../db.ts";
import { newId } from "../ids.ts";
import { workspaceObjectName } from "./names.ts";
import type { ForkRefusal, WorkspaceStats } from "./WorkspaceDO.ts";

export interface Workspace {
  id: string;
  name: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  sizeBytes: number;
  fileCount: number;
  /** What storage bills: the unique bytes its tree and snapshots reach (docs/billing.md). */
  storageBytes: number;
  /** For a fork: what it was made from (the source may since have been deleted). */
  forkedFrom: { workspaceId: string; revision: number } | null;
}

export interface ListWorkspacesQuery {
  limit: number;
  cursor?: string | undefined;
  /** Only workspaces whose metadata has every one of these key/value pairs. */
  metadata?: Record<string, string>;
  /** Only these ids (a key restricted to some workspaces), or all when undefined. */
  ids?: readonly string[] | null;
}

export class Workspaces {
  constructor(
    private readonly db: Db,
    private readonly namespace: DurableObjectNamespace<import("./WorkspaceDO.ts").WorkspaceDO>,
    private readonly tenants: DurableObjectNamespace<TenantDO>,
  ) {}

  async create(
    tenantId: string,
    input: { name?: string | null; metadata?: Record<string, string> },
  ): Promise<Workspace> {
    const row = {
      id: newId("ws"),
      tenantId,
      name: input.name ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
      createdAt: nowIso(),
      sizeBytes: 0,
      fileCount: 0,
      storageBytes: 0,
      forkedFrom: null,
      forkedRevision: null,
    };
    await this.listed(tenantId, row.id, () => this.db.insert(workspaces).values(row));
    return toWorkspace(row);
  }

  /**
   * Writes a new workspace's index row with `write`, the tenant's object knowing it first;
   * if the write fails, the tenant's object forgets it again.
   */
  private async listed<T>(tenantId: string, workspaceId: string, write: () => Promise<T>): Promise<T> {
    const tenant = this.tenants.getByName(tenantId);
    await tenant.addWorkspace(workspaceId);
    try {
      return await write();
    } catch (error) {
      await tenant.removeWorkspace(workspaceId).catch(() => {});
      throw error;
    }
  }

  /** How many workspaces forked from `sourceId` exist: the plan's `forksPerWorkspaceMax` counts them. */
  async forkCount(tenantId: string, sourceId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)` })
      .from(workspaces)
      .where(and(eq(workspaces.tenantId, tenantId), eq(workspaces.forkedFrom, sourceId)));
    return row?.n ?? 0;
  }

  /**
   * Forks `sourceId` at `ref` (a snapshot id, a revision or `live`) into a new workspace of
   * the same tenant (docs/vfs.md, "Forks"). The new object records its source and the
   * version's counters (its rows follow in the background), and only then is the workspace
   * added to the tenant's object and the index: a fork that failed midway is never listed. Both object names embed the tenant id of the
   * caller's credential, so no fork reaches another tenant's workspace.
   */
  async fork(
    tenantId: string,
    sourceId: string,
    input: { ref: string; name?: string | null; metadata?: Record<string, string>; actor: string | null },
  ): Promise<{ ok: true; workspace: Workspace; stats: WorkspaceStats } | ForkRefusal> {
    const id = newId("ws");
    const source = workspaceObjectName({ tenantId, workspaceId: sourceId });
    const forked = await this.object(tenantId, id).forkFrom(source, input.ref, input.actor);
    if (!forked.ok) return forked;
    const row = {
      id,
      tenantId,
      name: input.name ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
      createdAt: nowIso(),
      sizeBytes: forked.stats.sizeBytes,
      fileCount: forked.stats.fileCount,
      storageBytes: forked.stats.uniqueBytes,
      forkedFrom: sourceId,
      forkedRevision: forked.rev,
    };
    try {
      await this.listed(tenantId, id, () => this.db.insert(workspaces).values(row));
    } catch (error) {
      // Unpublished, the new object would only hold its source's pin: let it go.
      await this.object(tenantId, id)
        .destroy()
        .catch(() => {});
      throw error;
    }
    return { ok: true, workspace: toWorkspace(row), stats: forked.stats };
  }

  async get(tenantId: string, workspaceId: string): Promise<Workspace | null> {
    const row = await this.db.query.workspaces.findFirst({
      where: and(eq(workspaces.tenantId, tenantId), eq(workspaces.id, workspaceId)),
    });
    return row ? toWorkspace(row) : null;
  }

  /** Oldest first, so a cursor (the last id seen) stays valid while new workspaces appear. */
  async list(tenantId: string, query: ListWorkspacesQuery) {
    const filters = Object.entries(query.metadata ?? {}).map(
      ([key, value]) => sql`json_extract(${workspaces.metadata}, ${`$."${key}"`}) = ${value}`,
    );
    const ids = query.ids === null || query.ids === undefined ? undefined : query.ids;
    if (ids && ids.length === 0) return { data: [], nextCursor: null };
    const rows = await this.db
      .select()
      .from(workspaces)
      .where(
        and(
          eq(workspaces.tenantId, tenantId),
          query.cursor ? gt(workspaces.id, query.cursor) : undefined,
          ids ? sql`${workspaces.id} IN ${ids}` : undefined,
          ...filters,
        ),
      )
      .orderBy(asc(workspaces.id))
      .limit(query.limit + 1);
    const page = rows.slice(0, query.limit).map(toWorkspace);
    return { data: page, nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null };
  }

  async update(
    tenantId: string,
    workspaceId: string,
    patch: { name?: string | null | undefined; metadata?: Record<string, string> | undefined },
  ): Promise<Workspace | null> {
    const set: Partial<typeof workspaces.$inferInsert> = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.metadata !== undefined) set.metadata = JSON.stringify(patch.metadata);
    if (Object.keys(set).length === 0) return this.get(tenantId, workspaceId);
    const [row] = await this.db
      .update(workspaces)
      .set(set)
      .where(and(eq(workspaces.tenantId, tenantId), eq(workspaces.id, workspaceId)))
      .returning();
    return row ? toWorkspace(row) : null;
  }

  /**
   * The tenant's object forgets the workspace first (every request for it is a 404 at
   * once), then the index row goes, then its storage. A delete that fails midway is
   * repeated the same way: the row is still listed until it is gone.
   */
  async delete(tenantId: string, workspaceId: string): Promise<boolean> {
    await this.tenants.getByName(tenantId).removeWorkspace(workspaceId);
    const deleted = await this.db
      .delete(workspaces)
      .where(and(eq(workspaces.tenantId, tenantId), eq(workspaces.id, workspaceId)))
      .returning({ id: workspaces.id });
    if (deleted.length === 0) return false;
    await this.object(tenantId, workspaceId).destroy();
    return true;
  }

  /** Mirrors the object's exact counters into the index so lists need not wake every object. */
  async recordStats(tenantId: string, workspaceId: string, stats: WorkspaceStats): Promise<void> {
    await this.db
      .update(workspaces)
      .set({ sizeBytes: stats.sizeBytes, fileCount: stats.fileCount, storageBytes: stats.uniqueBytes })
      .where(and(eq(workspaces.tenantId, tenantId), eq(workspaces.id, workspaceId)));
  }

  /**
   * The workspace's Durable Object. The name embeds the tenant id from the verified
   * credential, so even a guessed workspace id cannot reach another tenant's object.
   */
  object(tenantId: string, workspaceId: string) {
    return this.namespace.getByName(workspaceObjectName({ tenantId, workspaceId }));
  }
}

function toWorkspace(row: typeof workspaces.$inferSelect): Workspace {
  return {
    id: row.id,
    name: row.name,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    createdAt: row.createdAt,
    sizeBytes: row.sizeBytes,
    fileCount: row.fileCount,
    storageBytes: row.storageBytes,
    forkedFrom: row.forkedFrom === null ? null : { workspaceId: row.forkedFrom, revision: row.forkedRevision ?? 0 },
  };
}

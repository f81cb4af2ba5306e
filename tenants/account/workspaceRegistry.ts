/**
 * The tenant's live workspaces, by id, in the tenant object's SQLite. Admission answers from
 * here whether the workspace in a request's URL exists, and a run's slot whether its
 * workspace does, so no request reads D1 to find its workspace (docs/rooms.md, "The path
 * of a shell exec"). D1's index stays where lists, names and labels are read.
 *
 * An id is added before the index row is written and removed before the index row is
 * deleted (tenants/workspace/workspaces.ts): a workspace the index has dropped is never
 * reachable, and one whose index row failed is only reachable by an id no one was given.
 * An object made before this table copies the index's ids once, before its first answer.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db.ts";
import type { Denial } from "./rpc.ts";
import { workspaces } from "./schema.ts";

const FILLED_KEY = "workspaces_filled";

export class WorkspaceRegistry {
  constructor(private readonly sql: SqlStorage) {}

  /** Whether the ids were copied from D1 (or there was nothing to copy). */
  filled(): boolean {
    return this.sql.exec("SELECT 1 FROM meta WHERE key = ?", FILLED_KEY).toArray().length > 0;
  }

  /** Copies the index's ids for `tenantId`; the caller keeps every other call out meanwhile. */
  async fill(db: Db, tenantId: string): Promise<void> {
    const rows = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.tenantId, tenantId));
    for (const { id } of rows) this.add(id);
    this.sql.exec("INSERT OR IGNORE INTO meta (key, value) VALUES (?, 1)", FILLED_KEY);
  }

  has(id: string): boolean {
    return this.sql.exec("SELECT 1 FROM workspaces WHERE id = ?", id).toArray().length > 0;
  }

  add(id: string): void {
    this.sql.exec("INSERT OR IGNORE INTO workspaces (id) VALUES (?)", id);
  }

  remove(id: string): void {
    this.sql.exec("DELETE FROM workspaces WHERE id = ?", id);
  }
}

/** The refusal of a run for a workspace the tenant does not have (deleted, or never made). */
export function missingWorkspace(workspaceId: string): Denial {
  return { ok: false, code: "not_found", detail: `no workspace ${workspaceId}` };
}

/**
 * A fork is added to the workspace index only after its object recorded its source (its rows
 * follow in the background; workspaces.ts, `fork`), so a fork that failed midway is never
 * listed. A gateway that dies between the two leaves an object nobody can name: its storage
 * would stay forever, unbilled and invisible. So a new fork remembers when it was made, and
 * its alarm asks the index once `forkListedWithinMs` has passed: listed, it forgets the
 * question; not listed, it deletes itself (letting go of its source's pin, as a deleted fork
 * does).
 */
import { and, eq } from "drizzle-orm";
import { workspaces } from "../account/schema.ts";
import type { Db } from "../db.ts";
import { workspaceLimits } from "./limits.ts";
import type { WorkspaceOwner } from "./names.ts";

const KEY = "fork_unlisted_since_ms";

/** Marks this workspace as a fork the index has not been seen to list yet. */
export function markUnlisted(sql: SqlStorage, nowMs: number): void {
  sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", KEY, nowMs);
}

/** When the index is to be asked, or null when there is nothing to ask. */
export function listingCheckAt(sql: SqlStorage): number | null {
  const row = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", KEY).toArray()[0];
  return row ? row.value + workspaceLimits.forkListedWithinMs : null;
}

/**
 * Asks the index about `owner()` (read only then), when it is time: "listed" (and the question is forgotten), "unlisted"
 * (the caller deletes the workspace) or "not yet".
 */
export async function checkListing(
  sql: SqlStorage,
  db: Db,
  owner: () => WorkspaceOwner,
  nowMs: number,
): Promise<"listed" | "unlisted" | "not yet"> {
  const at = listingCheckAt(sql);
  if (at === null) return "listed";
  if (nowMs < at) return "not yet";
  const { tenantId, workspaceId } = owner();
  const [row] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(eq(workspaces.tenantId, tenantId), eq(workspaces.id, workspaceId)));
  if (!row) return "unlisted";
  sql.exec("DELETE FROM meta WHERE key = ?", KEY);
  return "listed";
}

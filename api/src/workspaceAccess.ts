/**
 * The one way a route gets at a workspace named in its URL: the tenant comes from the
 * verified credential, a key restricted to other workspaces sees nothing, and every miss
 * is the same 404 whether the workspace is missing, deleted or another tenant's.
 *
 * Whether it exists comes with the request's admission, from the tenant's object
 * (TenantDO.admit, account/workspaceRegistry.ts), so a route that only needs the workspace's
 * object reads no D1. The index row (name, labels, counters) is read only by the routes
 * that show or change it (`loadWorkspace`).
 */
import { canAccessWorkspace } from "../../tenants/account/scopes.ts";
import type { Workspace } from "../../tenants/workspace/workspaces.ts";
import type { AppContext } from "./context.ts";
import { ApiError } from "./errors.ts";

/** The workspace's index row, or 404. */
export async function loadWorkspace(c: AppContext, workspaceId: string): Promise<Workspace> {
  const workspace = await findWorkspace(c, workspaceId);
  if (!workspace) throw missing(workspaceId);
  return workspace;
}

/** The workspace's index row if this credential may name it, else null. */
export async function findWorkspace(c: AppContext, workspaceId: string): Promise<Workspace | null> {
  const principal = c.get("principal");
  if (!canAccessWorkspace(principal, workspaceId)) return null;
  return c.var.services.workspaces.get(principal.tenantId, workspaceId);
}

/**
 * 404 unless this credential may reach the workspace and the tenant has it: from the
 * request's admission when it named this workspace, else (a workspace named in the body, an
 * app built without admission) from the index.
 */
export async function requireWorkspace(c: AppContext, workspaceId: string): Promise<void> {
  const admitted = c.get("admittedWorkspace");
  if (admitted?.id !== workspaceId) {
    await loadWorkspace(c, workspaceId);
    return;
  }
  if (!admitted.live) throw missing(workspaceId);
}

/**
 * 404 unless this credential may reach the workspace; whether the tenant has it is left to
 * an exec's run, whose slot the tenant's object grants only for a workspace it has
 * (TenantDO.exec). Without a run to leave it to, as `requireWorkspace`.
 */
export async function requireWorkspaceForRun(c: AppContext, workspaceId: string): Promise<void> {
  if (!c.get("deferredAdmission")) return requireWorkspace(c, workspaceId);
  if (!canAccessWorkspace(c.get("principal"), workspaceId)) throw missing(workspaceId);
}

function missing(workspaceId: string): ApiError {
  return new ApiError("not_found", `no workspace ${workspaceId}`);
}

/** Refuses to make a new workspace (create, fork) for a credential restricted to existing ones. */
export function requireNewWorkspacesAllowed(c: AppContext): void {
  if (c.get("principal").workspaceIds) {
    throw new ApiError("forbidden", "this credential is restricted to existing workspaces and cannot create new ones");
  }
}

/**
 * Refuses (403) what acts on a workspace as a whole — deleting or relabelling it, reading
 * its change log (which names every path) — to a credential confined to a path prefix:
 * each reaches beyond the prefix.
 */
export function requireWholeWorkspace(c: AppContext, action: string): void {
  const { pathPrefix } = c.get("principal");
  if (pathPrefix !== null) {
    throw new ApiError("forbidden", `${action} reaches outside this token's path prefix ${pathPrefix}`);
  }
}

/**
 * Who a request's changes, snapshots and restores are recorded as in the history: its key
 * (`key:<id>`; a scoped token's is the key that minted it), or null when no key is behind it.
 */
export function keyActor(keyId: string | null): string | null {
  return keyId ? `key:${keyId}` : null;
}

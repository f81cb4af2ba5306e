/**
 * The one way a route gets at a workspace named in its URL: the tenant comes from the
 * verified credential, a key restricted to other workspaces sees nothing, and every miss
 * is the same 404 whether the workspace is missing, deleted or another tenant's.
 */
import { canAccessWorkspace } from "../../tenants/account/scopes.ts";
import type { Workspace } from "../../tenants/workspace/workspaces.ts";
import type { AppContext } from "./context.ts";
import { ApiError } from "./errors.ts";

export async function loadWorkspace(c: AppContext, workspaceId: string): Promise<Workspace> {
  const workspace = await findWorkspace(c, workspaceId);
  if (!workspace) throw new ApiError("not_found", `no workspace ${workspaceId}`);
  return workspace;
}

/**
 * The workspace if this credential may name it, else null; one D1 read per request, shared
 * by admission (which tags the request's usage event with it, and only then) and the route.
 */
export async function findWorkspace(c: AppContext, workspaceId: string): Promise<Workspace | null> {
  const cached = c.get("workspaceLookup");
  if (cached?.id === workspaceId) return cached.workspace;
  const principal = c.get("principal");
  const workspace = canAccessWorkspace(principal, workspaceId)
    ? await c.var.services.workspaces.get(principal.tenantId, workspaceId)
    : null;
  c.set("workspaceLookup", { id: workspaceId, workspace });
  return workspace;
}

/**
 * Refuses (403) what acts on a workspace as a whole — deleting or relabelling it, reading
 * its change log (which names every path) — to a credential confined to a path prefix:
 * each reaches beyond the prefix.
 */
/** Refuses to make a new workspace (create, fork) for a credential restricted to existing ones. */
export function requireNewWorkspacesAllowed(c: AppContext): void {
  if (c.get("principal").workspaceIds) {
    throw new ApiError("forbidden", "this credential is restricted to existing workspaces and cannot create new ones");
  }
}

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

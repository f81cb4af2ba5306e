/** What a credential may do. A key created without `scopes` gets all of them. */
export const SCOPES = [
  "workspaces:read",
  "workspaces:write",
  "exec",
  "keys:manage",
  "billing:read",
  "billing:manage",
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * Who is calling, as established from a verified credential. Every service call that
 * touches tenant data takes `tenantId` from here, never from the URL.
 */
export interface Principal {
  tenantId: string;
  keyId: string;
  scopes: readonly Scope[];
  /** The only workspaces this credential may name, or null for all of the tenant's. */
  workspaceIds: readonly string[] | null;
}

export function canAccessWorkspace(principal: Principal, workspaceId: string): boolean {
  return principal.workspaceIds === null || principal.workspaceIds.includes(workspaceId);
}

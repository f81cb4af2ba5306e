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
  /** The API key behind the credential: the key itself, or the key a scoped token descends from. */
  keyId: string;
  /** An API key (`cub_…`) or a scoped token (a JWT minted by `POST /v1/tokens`). */
  kind: "key" | "token";
  scopes: readonly Scope[];
  /** The only workspaces this credential may name, or null for all of the tenant's. */
  workspaceIds: readonly string[] | null;
  /**
   * The only part of a workspace this credential may touch: a normalized absolute workspace
   * path (`/src`) covering itself and everything below it, or null for the whole workspace.
   */
  pathPrefix: string | null;
  /** When the credential stops working (RFC 3339), or null when it never expires. */
  expiresAt: string | null;
}

export function canAccessWorkspace(principal: Principal, workspaceId: string): boolean {
  return principal.workspaceIds === null || principal.workspaceIds.includes(workspaceId);
}

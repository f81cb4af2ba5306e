/**
 * A workspace object's name, `<tenantId>:<workspaceId>`: the one place it is written and
 * read. The gateway forms it from the verified credential's tenant, so even a guessed
 * workspace id cannot reach another tenant's object; the object reads its tenant and
 * workspace back from it, never from a value a caller or a sandbox passes in.
 */

export interface WorkspaceOwner {
  tenantId: string;
  workspaceId: string;
}

export function workspaceObjectName(owner: WorkspaceOwner): string {
  return `${owner.tenantId}:${owner.workspaceId}`;
}

/** The owner a name encodes, or null for a name that is not a workspace's (tests name objects freely). */
export function parseWorkspaceObjectName(name: string | undefined): WorkspaceOwner | null {
  const [tenantId, workspaceId, ...rest] = (name ?? "").split(":");
  if (!tenantId || !workspaceId || rest.length > 0) return null;
  return { tenantId, workspaceId };
}

/** The owner a workspace object's name encodes; throws for an object not named as a workspace. */
export function ownerOf(name: string | undefined): WorkspaceOwner {
  const owner = parseWorkspaceObjectName(name);
  if (!owner) throw new Error(`not a workspace object's name: ${name}`);
  return owner;
}

/** A workspace handle from an id alone: commands that act on one do not fetch it first. */
import type { Cubicle, Workspace, WorkspaceData } from "@cubicle/sdk";

export function workspaceById(client: Cubicle, id: string): Workspace {
  // Only the id is read by files, exec and share; the rest would come from a `get` no command needs.
  const data: WorkspaceData = {
    id,
    name: null,
    metadata: {},
    createdAt: "",
    sizeBytes: 0,
    fileCount: 0,
    storageBytes: 0,
    forkedFrom: null,
  };
  return client.workspaces.handle(data);
}

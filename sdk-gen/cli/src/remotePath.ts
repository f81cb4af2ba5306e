/** `ws:<workspaceId>:<path>`, how `cp` and `share` name a path in a workspace; anything else is local. */

export interface RemotePath {
  workspaceId: string;
  /** Absolute, without a trailing slash except for the root. */
  path: string;
  /** The argument ended with `/` or named the root: a directory to copy into. */
  intoDirectory: boolean;
}

const REMOTE = /^ws:([^:/]+):(.*)$/s;

export function parseRemote(argument: string): RemotePath | null {
  const match = REMOTE.exec(argument);
  if (!match) return null;
  const raw = match[2] || "/";
  const path = `/${raw.replace(/^\/+/, "").replace(/\/+$/, "")}`;
  return { workspaceId: match[1] as string, path, intoDirectory: raw.endsWith("/") };
}

/** `child` under the directory `parent`, for workspace paths. */
export function joinRemote(parent: string, child: string): string {
  return `${parent.replace(/\/+$/, "")}/${child.replace(/^\/+/, "")}`;
}

/**
 * Paths as module code sees them (`/workspace/src/a.js`, `./a.js` relative to the working
 * directory, `file:///workspace/a.js`) and as the workspace stores them (`/src/a.js`).
 */
import { Buffer } from "node:buffer";

export const workspaceRoot = "/workspace";

export type PathLike = string | URL | Uint8Array;

/** A path argument as Node accepts it (string, `file:` URL, Buffer) as a string. */
export function pathString(path: PathLike): string {
  if (typeof path === "string") return path.startsWith("file://") ? decodeURIComponent(new URL(path).pathname) : path;
  if (path instanceof URL) {
    if (path.protocol !== "file:") throw new TypeError(`The URL must be of scheme file, not ${path.protocol}`);
    return decodeURIComponent(path.pathname);
  }
  if (path instanceof Uint8Array) return Buffer.from(path).toString("utf8");
  throw new TypeError(
    `The "path" argument must be of type string or an instance of Buffer or URL. Received ${typeof path}`,
  );
}

/** `path` made absolute against `cwd` and normalised (`.`, `..`, repeated slashes). */
export function absolutePath(cwd: string, path: string): string {
  const parts: string[] = [];
  for (const segment of `${path.startsWith("/") ? "" : `${cwd}/`}${path}`.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join("/")}`;
}

/** The workspace path of an absolute path under /workspace, or null for anything outside it. */
export function workspacePath(absolute: string): string | null {
  if (absolute === workspaceRoot) return "/";
  return absolute.startsWith(`${workspaceRoot}/`) ? absolute.slice(workspaceRoot.length) : null;
}

/** The path module code sees for a workspace path. */
export function shownPath(workspace: string): string {
  return workspace === "/" ? workspaceRoot : `${workspaceRoot}${workspace}`;
}

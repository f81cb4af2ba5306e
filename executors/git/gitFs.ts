/**
 * The filesystem shape `createGit` needs, and its adapter over the workspace's file
 * capability.
 *
 * isomorphic-git takes a Node-style `fs` object: here always `{ promises: { … } }`, whose
 * methods reject with errors carrying Node's `code` (`ENOENT`, `EEXIST`, `ENOTDIR`, …) —
 * isomorphic-git decides "missing" versus "broken" by that code alone. Its stat objects are
 * compared field by field with the ones it stored in `.git/index` (git's racy-git rule), so
 * the fields below must be numbers and stable between two calls on an unchanged file, and
 * `mode` must hold the file type bits (`0o100644`, `0o120000`), not only the permissions:
 * isomorphic-git tells a symlink from a file by `mode >> 12`, and a symlink given a plain
 * `0o777` would be committed as the content of the file it points to.
 */
import type { FsError, FsStat, WorkspaceFsApi } from "../contract.ts";

/** A stat result as isomorphic-git reads it (a subset of Node's `fs.Stats`). */
export interface GitStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  /** Type bits and permissions, as `st_mode`: `0o100644`, `0o100755`, `0o040755`, `0o120777`. */
  mode: number;
  size: number;
  mtimeMs: number;
  /** The workspace keeps no ctime; the mtime stands in for it, which keeps the index comparison stable. */
  ctimeMs: number;
  mtime: Date;
  ctime: Date;
  /** The inode number where the filesystem gives one, else 0. */
  ino: number;
  dev: number;
  uid: number;
  gid: number;
}

type Encoding = "utf8" | { encoding?: string | null; mode?: number } | undefined;

/** The methods isomorphic-git calls, as in Node's `fs.promises`. All reject with `{ code }` errors. */
export interface GitFsPromises {
  readFile(path: string, options?: Encoding): Promise<Uint8Array | string>;
  writeFile(path: string, data: Uint8Array | string, options?: Encoding): Promise<void>;
  unlink(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rmdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  stat(path: string): Promise<GitStats>;
  lstat(path: string): Promise<GitStats>;
  readlink(path: string, options?: Encoding): Promise<string | Uint8Array>;
  symlink(target: string, path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
}

/** What `createGit` takes: Node's `fs` shape with only `promises` (a `node:fs/promises` shim fits as `{ promises: shim }`). */
export interface GitFs {
  promises: GitFsPromises;
}

const typeBits = { file: 0o100000, dir: 0o040000, symlink: 0o120000 } as const;

/** An error as Node's fs throws it: isomorphic-git only looks at `code`. */
export class GitFsError extends Error {
  readonly errno: number;
  constructor(
    readonly code: string,
    readonly syscall: string,
    readonly path: string,
    detail?: string,
  ) {
    super(`${code}: ${detail ?? code.toLowerCase()}, ${syscall} '${path}'`);
    this.errno = -1;
  }
}

/** `//a/./b/` → `/a/b`: isomorphic-git joins `dir` and paths with `/`, so `"/"` gives `//x`. */
export function normalizePath(path: string): string {
  if (typeof path !== "string") throw new GitFsError("EINVAL", "path", String(path), "path must be a string");
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

function toGitStats(stat: FsStat): GitStats {
  const mtimeMs = Date.parse(stat.mtime);
  const ino = stat.identity === undefined ? 0 : Number.parseInt(stat.identity, 10);
  return {
    isFile: () => stat.type === "file",
    isDirectory: () => stat.type === "dir",
    isSymbolicLink: () => stat.type === "symlink",
    mode: typeBits[stat.type] | (stat.mode & 0o7777),
    size: stat.size,
    mtimeMs,
    ctimeMs: mtimeMs,
    mtime: new Date(mtimeMs),
    ctime: new Date(mtimeMs),
    ino: Number.isFinite(ino) ? ino : 0,
    dev: 0,
    uid: 0,
    gid: 0,
  };
}

const wantsText = (options: Encoding) =>
  options === "utf8" || (typeof options === "object" && options !== null && options.encoding === "utf8");

/**
 * isomorphic-git's filesystem over the workspace capability: paths are workspace paths
 * (`/src/a.ts`), so the `dir` given to `createGit` is a workspace path too (`/` or `/proj`).
 * One capability call per method, except `rmdir` (checks it is a directory first) and
 * `writeFile` with a mode (then a `chmod`, which is how checkout makes a file executable).
 */
export function gitFsFromCapability(capability: WorkspaceFsApi): GitFs {
  function unwrap<T extends { ok: true }>(result: T | FsError, syscall: string, path: string): T {
    if (!result.ok) throw new GitFsError(result.code, syscall, path, result.message);
    return result;
  }

  const promises: GitFsPromises = {
    async readFile(path, options) {
      const at = normalizePath(path);
      const { bytes } = unwrap(await capability.readFile(at), "open", at);
      return wantsText(options) ? new TextDecoder().decode(bytes) : bytes;
    },
    async writeFile(path, data, options) {
      const at = normalizePath(path);
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data);
      unwrap(await capability.writeFile(at, bytes), "open", at);
      // Node applies `mode` only when it creates the file, less the umask (022): 0o777 → 0o755.
      const mode = typeof options === "object" && options !== null ? options.mode : undefined;
      if (mode !== undefined) unwrap(await capability.chmod(at, mode & 0o755), "chmod", at);
    },
    async unlink(path) {
      const at = normalizePath(path);
      unwrap(await capability.rm(at), "unlink", at);
    },
    async readdir(path) {
      const at = normalizePath(path);
      return unwrap(await capability.readdir(at), "scandir", at).entries.map((entry) => entry.name);
    },
    async mkdir(path, options) {
      const at = normalizePath(path);
      unwrap(await capability.mkdir(at, { recursive: options?.recursive ?? false }), "mkdir", at);
    },
    async rmdir(path, options) {
      const at = normalizePath(path);
      const { stat } = unwrap(await capability.lstat(at), "rmdir", at);
      if (stat.type !== "dir") throw new GitFsError("ENOTDIR", "rmdir", at, "not a directory");
      unwrap(await capability.rm(at, { recursive: options?.recursive ?? false }), "rmdir", at);
    },
    async stat(path) {
      const at = normalizePath(path);
      return toGitStats(unwrap(await capability.stat(at), "stat", at).stat);
    },
    async lstat(path) {
      const at = normalizePath(path);
      return toGitStats(unwrap(await capability.lstat(at), "lstat", at).stat);
    },
    async readlink(path, options) {
      const at = normalizePath(path);
      const { target } = unwrap(await capability.readlink(at), "readlink", at);
      return typeof options === "object" && options?.encoding === "buffer" ? new TextEncoder().encode(target) : target;
    },
    async symlink(target, path) {
      const at = normalizePath(path);
      unwrap(await capability.symlink(target, at), "symlink", at);
    },
    async chmod(path, mode) {
      const at = normalizePath(path);
      unwrap(await capability.chmod(at, mode), "chmod", at);
    },
  };
  return { promises };
}

/** A repository as the git modules pass it around: its filesystem, its root and isomorphic-git's object cache. */
export interface GitRepo {
  fs: GitFs;
  /** The working tree's root, as `fs` sees it (`/` or `/proj`); the git directory is `<dir>/.git`. */
  dir: string;
  cache: object;
}

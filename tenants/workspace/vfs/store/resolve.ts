/**
 * Path resolution over any tree (the live one, or a past revision's: versions/at.ts), and
 * the stat a resolved row shows.
 */
import { workspaceLimits } from "../../limits.ts";
import { normalizePath } from "../../paths.ts";
import { type FsFailure, fail } from "../errors.ts";
import { ROOT_INO } from "../schema.ts";
import { nsText } from "../times.ts";
import type { Inode, Resolved, ResolvedParent, Stat, TreeReader } from "./types.ts";

/**
 * Walks `path` from the root. Symlinks in the middle are always followed; the last one
 * only when `follow`. Relative link targets resolve against the link's directory;
 * absolute ones against the workspace root, so no link leads outside the workspace.
 * `reader` is the tree to walk: the live one, or a past revision's (versions/at.ts).
 */
export function resolve(reader: TreeReader, rawPath: string, follow: boolean): Resolved | FsFailure {
  const start = split(rawPath);
  if (!start.ok) return start;
  let pending = start.segments;
  let hops = 0;
  let parent = 0;
  let ino = ROOT_INO;
  let name = "";
  let done: string[] = [];
  while (pending.length > 0) {
    const [segment, ...rest] = pending as [string, ...string[]];
    const dir = reader.inode(ino);
    if (dir?.type !== "dir") return fail("ENOTDIR", `not a directory: /${done.join("/")}`, `/${done.join("/")}`);
    const child = reader.lookup(ino, segment);
    if (!child) return fail("ENOENT", `no such file or directory: /${[...done, segment].join("/")}`, rawPath);
    if (child.type === "symlink" && (rest.length > 0 || follow)) {
      if (++hops > workspaceLimits.symlinkHopsMax)
        return fail("ELOOP", `too many levels of symbolic links: ${rawPath}`, rawPath);
      const target = child.target ?? "";
      const base = target.startsWith("/") ? [] : done;
      const next = split(`/${[...base, target].join("/")}`, true);
      if (!next.ok) return next;
      pending = [...next.segments, ...rest];
      parent = 0;
      ino = ROOT_INO;
      name = "";
      done = [];
      continue;
    }
    parent = ino;
    ino = child.ino;
    name = segment;
    done = [...done, segment];
    pending = rest;
  }
  const inode = reader.inode(ino);
  if (!inode) return fail("ENOENT", `no such file or directory: ${rawPath}`, rawPath);
  return { ok: true, path: `/${done.join("/")}`, ino, inode, parent, name };
}

/** Resolves all but the last segment (following links), for operations that create or replace a name. */
export function resolveParent(tree: TreeReader, rawPath: string): ResolvedParent | FsFailure {
  const normalized = normalizePath(rawPath);
  if (!normalized.ok) return fail(normalized.code, normalized.detail, rawPath);
  if (normalized.path === "/") return fail("EINVAL", "the workspace root cannot be created, replaced or removed", "/");
  const cut = normalized.path.lastIndexOf("/");
  const dirPath = normalized.path.slice(0, cut) || "/";
  const name = normalized.path.slice(cut + 1);
  const dir = resolve(tree, dirPath, true);
  if (!dir.ok) return dir;
  if (dir.inode.type !== "dir") return fail("ENOTDIR", `not a directory: ${dirPath}`, dirPath);
  const path = dir.path === "/" ? `/${name}` : `${dir.path}/${name}`;
  return { ok: true, path, parent: dir.ino, name, existing: tree.lookup(dir.ino, name) };
}

/** A row as the API shows it, under the path it was reached by. */
export function statOf(path: string, inode: Inode): Stat {
  const stat: Stat = {
    path,
    name: path === "/" ? "" : path.slice(path.lastIndexOf("/") + 1),
    type: inode.type,
    size: inode.size,
    mode: inode.mode,
    mtime: new Date(inode.mtime_ms).toISOString(),
    mtimeNs: nsText({ ms: inode.mtime_ms, nsec: inode.mtime_nsec }),
    ctime: new Date(inode.ctime_ms).toISOString(),
    ino: inode.ino,
    nlink: inode.nlink,
    uid: inode.uid,
    gid: inode.gid,
  };
  if (inode.etag) stat.etag = inode.etag;
  if (inode.target !== null) stat.target = inode.target;
  return stat;
}

function split(rawPath: string, fromLink = false): { ok: true; segments: string[] } | FsFailure {
  const normalized = normalizePath(rawPath, { allowDotDot: fromLink });
  if (!normalized.ok) return fail(normalized.code, normalized.detail, rawPath);
  if (normalized.path === "/") return { ok: true, segments: [] };
  const segments = normalized.path.slice(1).split("/");
  if (segments.length > workspaceLimits.depthMax) {
    return fail("ENAMETOOLONG", `paths may be at most ${workspaceLimits.depthMax} directories deep`, rawPath);
  }
  return { ok: true, segments };
}

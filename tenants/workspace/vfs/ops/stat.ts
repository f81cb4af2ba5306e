/** stat (follows a final symlink), lstat (does not) and readlink. */
import { type FsResult, fail } from "../errors.ts";
import type { Stat, Store } from "../store.ts";

export function stat(store: Store, path: string): FsResult<{ stat: Stat }> {
  const resolved = store.resolve(path, true);
  return resolved.ok ? { ok: true, stat: store.stat(resolved.path, resolved.inode) } : resolved;
}

export function lstat(store: Store, path: string): FsResult<{ stat: Stat }> {
  const resolved = store.resolve(path, false);
  return resolved.ok ? { ok: true, stat: store.stat(resolved.path, resolved.inode) } : resolved;
}

export function readlink(store: Store, path: string): FsResult<{ target: string }> {
  const resolved = store.resolve(path, false);
  if (!resolved.ok) return resolved;
  if (resolved.inode.type !== "symlink") return fail("EINVAL", `not a symbolic link: ${path}`, path);
  return { ok: true, target: resolved.inode.target ?? "" };
}

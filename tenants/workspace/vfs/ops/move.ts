/**
 * move: rename(2). One directory-entry row changes, however large the subtree. A file
 * replaces a file target; a directory replaces an empty directory; with `overwrite: false`
 * any existing target is EEXIST. Renaming a name onto another name of the same inode (a
 * hard link, or itself) does nothing at all, as rename(2) says.
 */
import { FsAbort, type FsResult, fail } from "../errors.ts";
import type { Inode, Stat, Store } from "../store.ts";

export function move(
  store: Store,
  from: string,
  to: string,
  options: { overwrite?: boolean } = {},
): FsResult<{ stat: Stat }> {
  return store.atomically(() => moveIn(store, from, to, options));
}

export function moveIn(store: Store, from: string, to: string, { overwrite = true } = {}): { ok: true; stat: Stat } {
  const source = store.resolve(from, false);
  if (!source.ok) throw new FsAbort(source);
  if (source.parent === 0) throw new FsAbort(fail("EINVAL", "the workspace root cannot be moved", from));
  const dest = store.resolveParent(to);
  if (!dest.ok) throw new FsAbort(dest);
  if (source.inode.type === "dir" && (dest.path === source.path || dest.path.startsWith(`${source.path}/`))) {
    throw new FsAbort(fail("EINVAL", `cannot move ${source.path} into itself`, to));
  }
  const existing = dest.existing;
  if (existing && existing.ino === source.ino) return { ok: true, stat: store.stat(dest.path, source.inode) };
  if (existing) {
    if (!overwrite) throw new FsAbort(fail("EEXIST", `file exists: ${dest.path}`, to));
    if (source.inode.type === "dir" && existing.type !== "dir")
      throw new FsAbort(fail("ENOTDIR", `not a directory: ${dest.path}`, to));
    if (source.inode.type !== "dir" && existing.type === "dir")
      throw new FsAbort(fail("EISDIR", `is a directory: ${dest.path}`, to));
    if (existing.type === "dir" && existing.entries > 0) {
      throw new FsAbort(fail("ENOTEMPTY", `directory not empty: ${dest.path}`, to));
    }
    store.unlink(dest.parent, dest.name, existing);
  }
  store.relink(
    source.ino,
    source.inode.type,
    { parent: source.parent, name: source.name },
    { parent: dest.parent, name: dest.name },
  );
  store.updateInode(source.ino, {});
  store.recordChange("move", [source.path, dest.path]);
  return { ok: true, stat: store.stat(dest.path, store.inode(source.ino) as Inode) };
}

/**
 * copy: a file, link or whole directory to a new path. File content is shared, not
 * duplicated: the copy points at the same chunks and their reference counts go up. As
 * `cp -r` without `--preserve`, every copy is a new inode owned by the default owner with
 * the time of the copy, and two hard links inside a copied tree become two files.
 */
import { workspaceLimits } from "../../limits.ts";
import { FsAbort, type FsResult, fail } from "../errors.ts";
import type { Inode, Stat, Store } from "../store.ts";
import { walk } from "../walk.ts";

export function copy(
  store: Store,
  from: string,
  to: string,
  options: { overwrite?: boolean } = {},
): FsResult<{ stat: Stat }> {
  return store.atomically(() => {
    const source = store.resolve(from, true);
    if (!source.ok) throw new FsAbort(source);
    const dest = store.resolveParent(to);
    if (!dest.ok) throw new FsAbort(dest);
    // Every destination is inside the root, so copying the root is always copying it into itself.
    const inside = source.path === "/" || dest.path === source.path || dest.path.startsWith(`${source.path}/`);
    if (source.inode.type === "dir" && inside) {
      throw new FsAbort(fail("EINVAL", `cannot copy ${source.path} into itself`, to));
    }
    if (dest.existing) {
      if (!options.overwrite || dest.existing.type === "dir" || source.inode.type === "dir") {
        throw new FsAbort(fail("EEXIST", `file exists: ${dest.path}`, to));
      }
      // Replacing a file with itself would release the very chunks the copy is about to share.
      if (dest.existing.ino === source.ino)
        throw new FsAbort(fail("EINVAL", `${from} and ${to} are the same file`, to));
      store.unlink(dest.parent, dest.name, dest.existing);
    }
    const below = source.inode.type === "dir" ? walk(store, source.ino, source.path) : [];
    const bytes = [source.inode, ...below].reduce((sum, inode) => sum + (inode.type === "file" ? inode.size : 0), 0);
    if (store.meta("size_bytes") + bytes > workspaceLimits.workspaceBytesMax) {
      throw new FsAbort(
        fail("ENOSPC", `the workspace may hold at most ${workspaceLimits.workspaceBytesMax} bytes`, to),
      );
    }
    const root = clone(store, source.inode);
    store.link(dest.parent, dest.name, root, source.inode.type);
    // Walk order is path order, so every directory is cloned before its children.
    const clones = new Map<string, number>([[source.path, root]]);
    for (const entry of below) {
      const parentPath = entry.path.slice(0, entry.path.lastIndexOf("/"));
      const ino = clone(store, entry);
      store.link(clones.get(parentPath) as number, entry.name, ino, entry.type);
      clones.set(entry.path, ino);
    }
    store.recordChange("copy", [dest.path]);
    return { ok: true as const, stat: store.stat(dest.path, store.inode(root) as Inode) };
  });
}

function clone(store: Store, inode: Inode): number {
  const ino = store.createInode(inode.type, inode.mode, {
    size: inode.size,
    ...(inode.etag ? { etag: inode.etag } : {}),
    ...(inode.target !== null ? { target: inode.target } : {}),
  });
  if (inode.type === "file") {
    store.setChunks(ino, store.chunks(inode.ino));
    store.addMeta("size_bytes", inode.size);
  }
  return ino;
}

/**
 * link: a second name for a file or symlink (a hard link). Both names are one inode: the
 * same bytes, mode, owner and times, and a write through either shows through both. As
 * link(2) on Linux, a final symlink in `existing` is not followed (the new name is another
 * name of the link itself), a directory is EPERM, an existing `path` is EEXIST, and the new
 * name's directory must exist. Within one workspace there is no EXDEV.
 */
import { type FsResult, fail } from "../errors.ts";
import type { Inode, Stat, Store } from "../store.ts";

export function link(store: Store, existing: string, path: string): FsResult<{ stat: Stat }> {
  return store.atomically(() => {
    const source = store.resolve(existing, false);
    if (!source.ok) return source;
    if (source.inode.type === "dir")
      return fail("EPERM", `hard links to directories are not allowed: ${source.path}`, existing);
    const dest = store.resolveParent(path);
    if (!dest.ok) return dest;
    if (dest.existing) return fail("EEXIST", `file exists: ${dest.path}`, path);
    store.addLink(source.ino);
    store.link(dest.parent, dest.name, source.ino, source.inode.type);
    store.recordChange("link", [dest.path]);
    return { ok: true as const, stat: store.stat(dest.path, store.inode(source.ino) as Inode) };
  });
}

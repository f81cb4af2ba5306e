/** symlink: a link at `path` pointing at `target` (relative to the link's directory, or absolute in the workspace). */
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import { type Inode, type Stat, type Store, SYMLINK_MODE } from "../store.ts";

export function symlink(store: Store, target: string, path: string): FsResult<{ stat: Stat }> {
  if (target.length === 0 || target.length > workspaceLimits.symlinkTargetLengthMax || target.includes("\u0000")) {
    return fail(
      "EINVAL",
      `a link target is 1 to ${workspaceLimits.symlinkTargetLengthMax} characters without NUL`,
      path,
    );
  }
  return store.atomically(() => {
    const parent = store.resolveParent(path);
    if (!parent.ok) return parent;
    if (parent.existing) return fail("EEXIST", `file exists: ${parent.path}`, path);
    const ino = store.createInode("symlink", SYMLINK_MODE, { target, size: new TextEncoder().encode(target).length });
    store.link(parent.parent, parent.name, ino, "symlink");
    store.recordChange("symlink", [parent.path]);
    return { ok: true as const, stat: store.stat(parent.path, store.inode(ino) as Inode) };
  });
}

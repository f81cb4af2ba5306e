/** chmod: set the permission bits (follows a final symlink, as chmod(2) does). */
import { type FsResult, fail } from "../errors.ts";
import type { Inode, Stat, Store } from "../store.ts";

export function chmod(store: Store, path: string, mode: number): FsResult<{ stat: Stat }> {
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777)
    return fail("EINVAL", "mode must be between 0 and 0o7777", path);
  return store.atomically(() => {
    const target = store.resolve(path, true);
    if (!target.ok) return target;
    store.updateInode(target.ino, { mode });
    store.recordChange("chmod", [target.path]);
    return { ok: true as const, stat: store.stat(target.path, store.inode(target.ino) as Inode) };
  });
}

/** remove (rm, rm -r): files, links, and directories (empty, or any with `recursive`). */
import { FsAbort, type FsResult, fail } from "../errors.ts";
import { ifMatchHolds } from "../preconditions.ts";
import type { Store } from "../store.ts";
import { walk } from "../walk.ts";

export interface RemoveOptions {
  recursive?: boolean;
  /** Remove only if the file's ETag is this one, one of a list, or for `*` anything (preconditions.ts). */
  ifMatch?: string;
}

export function remove(store: Store, path: string, options: RemoveOptions = {}): FsResult<{ removed: number }> {
  return store.atomically(() => removeIn(store, path, options));
}

/** The body of `remove`, for use inside an enclosing transaction (batch, move). Throws FsAbort on failure. */
export function removeIn(store: Store, path: string, options: RemoveOptions = {}): { ok: true; removed: number } {
  const target = store.resolve(path, false);
  if (!target.ok) throw new FsAbort(target);
  if (target.parent === 0) throw new FsAbort(fail("EINVAL", "the workspace root cannot be removed", path));
  if (options.ifMatch !== undefined && !ifMatchHolds(options.ifMatch, target.inode)) {
    throw new FsAbort(fail("EPRECONDITION", `the file's ETag is not ${options.ifMatch}`, path));
  }
  let removed = 1;
  if (target.inode.type === "dir") {
    const below = walk(store, target.ino, target.path);
    if (below.length > 0 && !options.recursive)
      throw new FsAbort(fail("ENOTEMPTY", `directory not empty: ${target.path}`, path));
    for (const entry of below) store.dropEntry(entry);
    removed += below.length;
  }
  // A file with other names (hard links) lives on under them; only its last name frees it.
  store.unlink(target.parent, target.name, target.inode);
  store.recordChange("remove", [target.path]);
  return { ok: true, removed };
}

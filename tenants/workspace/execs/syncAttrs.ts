/**
 * The POSIX metadata an op of the container's carries (container/wire SyncAttrs and a mode),
 * as the workspace filesystem takes it, and setting only what differs: a batch sent again, or
 * a file saved unchanged, then makes no change at all.
 */
import type { SyncAttrs, SyncOp } from "../../../container/wire/index.ts";
import { FsAbort } from "../vfs/errors.ts";
import { type Attrs, setattr } from "../vfs/ops/setattr.ts";
import type { Inode, Store } from "../vfs/store.ts";
import type { PreciseTime } from "../vfs/times.ts";

/** The owner and time an op carries, as the filesystem takes them; mode only when given. */
export function attrsOf(op: SyncAttrs & { mode?: number }): Attrs {
  const attrs: Attrs = {};
  if (op.mode !== undefined) attrs.mode = op.mode;
  if (op.uid !== undefined) attrs.uid = op.uid;
  if (op.gid !== undefined) attrs.gid = op.gid;
  if (op.mtimeMs !== undefined) attrs.mtime = { ms: op.mtimeMs, nsec: op.mtimeNsec ?? 0 };
  return attrs;
}

/** What `op` says of its path's metadata: nothing for a removal or a link (a link shares its file's). */
export function opAttrs(op: SyncOp): Attrs {
  switch (op.op) {
    case "remove":
    case "link":
      return {};
    case "chmod":
      return { mode: op.mode };
    default:
      return attrsOf(op);
  }
}

/** The owner and time a write gives the file in its own change, so no second change follows. */
export function writeAttrs(attrs: Attrs): { uid?: number; gid?: number; mtime?: PreciseTime } {
  const out: { uid?: number; gid?: number; mtime?: PreciseTime } = {};
  if (attrs.uid !== undefined) out.uid = attrs.uid;
  if (attrs.gid !== undefined) out.gid = attrs.gid;
  if (attrs.mtime !== undefined && attrs.mtime !== "now") out.mtime = attrs.mtime;
  return out;
}

/** The attrs that differ from what `inode` holds; empty when the entry already is so. */
function differing(inode: Inode, attrs: Attrs): Attrs {
  const changed: Attrs = {};
  if (attrs.mode !== undefined && attrs.mode !== inode.mode && inode.type !== "symlink") changed.mode = attrs.mode;
  if (attrs.uid !== undefined && attrs.uid !== inode.uid) changed.uid = attrs.uid;
  if (attrs.gid !== undefined && attrs.gid !== inode.gid) changed.gid = attrs.gid;
  const mtime = attrs.mtime;
  if (mtime !== undefined && mtime !== "now" && (mtime.ms !== inode.mtime_ms || mtime.nsec !== inode.mtime_nsec))
    changed.mtime = mtime;
  return changed;
}

/**
 * Sets what differs of mode, owner and mtime on the entry at `path` itself (a final link is
 * not followed), in one change for every name of its inode. Nothing there is nothing to do.
 * Synchronous, inside the batch's transaction; throws FsAbort.
 */
export function attrsIfNeeded(store: Store, path: string, attrs: Attrs): void {
  const resolved = store.resolve(path, false);
  if (!resolved.ok) return;
  const changed = differing(resolved.inode, attrs);
  if (Object.keys(changed).length === 0) return;
  const set = setattr(store, path, changed, { follow: false });
  if (!set.ok) throw new FsAbort(set);
}

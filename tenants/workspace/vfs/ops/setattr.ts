/**
 * chmod, chown, utimes: an inode's metadata, one field group each, or several at once
 * (setattr, what container sync sends). A field left out is left alone, as chown's -1 and
 * utimensat's UTIME_OMIT leave theirs; ctime moves whenever anything is set. Each follows a
 * final symlink unless `follow: false` (lchown, lutimes); a link's own mode is always 0o777.
 *
 * The change log names every path of the inode: its hard links show the change too.
 */
import { type FsResult, fail } from "../errors.ts";
import type { Inode, Stat, Store } from "../store.ts";
import { isPreciseTime, type PreciseTime } from "../times.ts";

export interface Attrs {
  mode?: number;
  uid?: number;
  gid?: number;
  /** The exact modification time; `"now"` for the current time (touch). */
  mtime?: PreciseTime | "now";
}

/** The largest uid or gid: 2^32 − 2, since −1 (2^32 − 1) means "leave it" to chown(2). */
export const ID_MAX = 0xffff_fffe;

const isId = (id: number | undefined) => id === undefined || (Number.isInteger(id) && id >= 0 && id <= ID_MAX);

export function setattr(
  store: Store,
  path: string,
  attrs: Attrs,
  options: { follow?: boolean; op?: string } = {},
): FsResult<{ stat: Stat }> {
  const { mode, uid, gid, mtime } = attrs;
  if (mode !== undefined && (!Number.isInteger(mode) || mode < 0 || mode > 0o7777))
    return fail("EINVAL", "mode must be between 0 and 0o7777", path);
  if (!isId(uid) || !isId(gid)) return fail("EINVAL", `uid and gid must be integers from 0 to ${ID_MAX}`, path);
  if (mtime !== undefined && mtime !== "now" && !isPreciseTime(mtime))
    return fail("EINVAL", "mtime must be a time JavaScript can show, nsec 0 to 999,999", path);
  return store.atomically(() => {
    const target = store.resolve(path, options.follow ?? true);
    if (!target.ok) return target;
    const fields: Parameters<Store["updateInode"]>[1] = {};
    // A symlink's permission bits mean nothing on Linux and stay 0o777.
    if (mode !== undefined && target.inode.type !== "symlink") fields.mode = mode;
    if (uid !== undefined) fields.uid = uid;
    if (gid !== undefined) fields.gid = gid;
    if (mtime !== undefined) fields.mtime = mtime === "now" ? true : mtime;
    store.updateInode(target.ino, fields);
    store.recordChange(options.op ?? "setattr", store.namesOf(target.ino, target.path));
    return { ok: true as const, stat: store.stat(target.path, store.inode(target.ino) as Inode) };
  });
}

export function chmod(store: Store, path: string, mode: number): FsResult<{ stat: Stat }> {
  return setattr(store, path, { mode }, { op: "chmod" });
}

export function chown(
  store: Store,
  path: string,
  owner: { uid?: number; gid?: number },
  options: { follow?: boolean } = {},
): FsResult<{ stat: Stat }> {
  return setattr(store, path, owner, { ...options, op: "chown" });
}

export function utimes(
  store: Store,
  path: string,
  mtime: PreciseTime | "now",
  options: { follow?: boolean } = {},
): FsResult<{ stat: Stat }> {
  return setattr(store, path, { mtime }, { ...options, op: "utimes" });
}

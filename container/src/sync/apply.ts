/**
 * Applies the object's state of one path to the replica. The conflict rule lives here: a
 * path with an unpushed local change is left alone, because the container's version will
 * be pushed and, reaching the object last, win.
 *
 * This runs synchronously on purpose. It touches only the replica (a local directory, never
 * the mount, so it cannot deadlock with FUSE), and a direct syscall costs a few microseconds
 * where a thread-pool round trip costs tens: a 36,000-file workspace becomes placeholders in
 * about a second. Callers apply entries in slices and yield between them, so FUSE requests
 * keep being answered meanwhile.
 *
 * Metadata: the entry's owner goes to the replica through metadata.ts's id mapping, its
 * mtime as exactly as metadata.ts can set it (directories keep their local mtime: every
 * entry made in them moves it anyway). Two entries with one `ino` are one file on the
 * object, so the second becomes a hard link of the first here too.
 */

import type { BigIntStats } from "node:fs";
import * as fs from "node:fs";
import type { RemoteEntry } from "../../wire/index.ts";
import { parentOf } from "../fs/replica.ts";
import type { SyncContext } from "./context.ts";
import { replicaIdOf, sameTime, setTimes } from "./metadata.ts";

export function applyEntry(ctx: SyncContext, path: string, entry: RemoteEntry | null): void {
  if (path === "/" || ctx.dirty.has(path)) return;
  const { replica, state } = ctx;
  const local = replica.local(path);
  if (entry === null) {
    // Something new the container made under a removed directory keeps the directory alive.
    if (ctx.dirty.hasAtOrUnder(path)) return;
    fs.rmSync(local, { recursive: true, force: true });
    state.forgetTree(path);
    return;
  }
  const existing = lstatOrNull(local);
  const mode = entry.mode & 0o7777;
  if (entry.type === "dir") {
    if (existing?.isDirectory()) {
      if (Number(existing.mode & 0o7777n) !== mode) fs.chmodSync(local, mode);
      applyOwner(local, entry, existing);
      return;
    }
    if (existing && !replaceable(ctx, path)) return;
    fs.mkdirSync(local, { recursive: true, mode });
    applyOwner(local, entry, null);
    state.forgetTree(path);
    return;
  }
  if (entry.type === "symlink") {
    if (existing?.isSymbolicLink() && fs.readlinkSync(local) === entry.target) {
      applyOwnerAndTime(local, entry, existing);
      return;
    }
    if (existing?.isDirectory() && !replaceable(ctx, path)) return;
    fs.mkdirSync(replica.local(parentOf(path)), { recursive: true });
    const tmp = replica.tmpPath();
    fs.symlinkSync(entry.target ?? "", tmp);
    applyOwnerAndTime(tmp, entry, null);
    fs.renameSync(tmp, local);
    state.forgetTree(path);
    return;
  }
  const row = state.file(path);
  if (row && row.etag === entry.etag && existing?.isFile()) {
    if (linkToSibling(ctx, path, entry, existing)) return;
    if (Number(existing.mode & 0o7777n) !== mode) fs.chmodSync(local, mode);
    applyOwnerAndTime(local, entry, existing);
    if (entry.ino !== undefined && row.ino !== entry.ino) state.putFile({ ...row, ino: entry.ino });
    return;
  }
  if (existing?.isDirectory() && !replaceable(ctx, path)) return;
  if (linkToSibling(ctx, path, entry, existing)) return;
  writePlaceholder(ctx, path, entry, existing !== null);
}

function lstatOrNull(file: string): BigIntStats | null {
  try {
    return fs.lstatSync(file, { bigint: true });
  } catch {
    return null;
  }
}

/** Gives a replica entry the remote owner (as replica ids) where it differs; a link's own owner, not its target's. */
function applyOwner(local: string, entry: RemoteEntry, existing: BigIntStats | null): void {
  if (entry.uid === undefined || entry.gid === undefined) return;
  const uid = replicaIdOf(entry.uid);
  const gid = replicaIdOf(entry.gid);
  if (existing && Number(existing.uid) === uid && Number(existing.gid) === gid) return;
  // The daemon creates as root: a new entry of the box's own user (root here) needs no call.
  if (!existing && uid === process.getuid?.() && gid === process.getgid?.()) return;
  fs.lchownSync(local, uid, gid);
}

function applyOwnerAndTime(local: string, entry: RemoteEntry, existing: BigIntStats | null): void {
  applyOwner(local, entry, existing);
  if (existing && sameTime(existing.mtimeNs, entry.mtimeMs, entry.mtimeNsec)) return;
  setTimes(local, entry.mtimeMs, entry.mtimeNsec);
}

/**
 * When the object's file at `path` has other names (hard links) already in the replica with
 * the same content, makes `path` one more name of that local file instead of a second copy.
 * False when there is none (or `path` already is one), so the caller writes a placeholder.
 */
function linkToSibling(ctx: SyncContext, path: string, entry: RemoteEntry, existing: BigIntStats | null): boolean {
  if (entry.ino === undefined || (entry.nlink ?? 1) < 2) return false;
  for (const sibling of ctx.state.filesWithIno(entry.ino)) {
    if (sibling.path === path || sibling.etag !== entry.etag || ctx.dirty.has(sibling.path)) continue;
    const siblingLocal = ctx.replica.local(sibling.path);
    const st = lstatOrNull(siblingLocal);
    if (!st?.isFile()) continue;
    // Already one file here: nothing to link (a rename onto a link of itself would do nothing).
    if (existing?.ino === st.ino) break;
    fs.mkdirSync(ctx.replica.local(parentOf(path)), { recursive: true });
    const tmp = ctx.replica.tmpPath();
    fs.linkSync(siblingLocal, tmp);
    fs.renameSync(tmp, ctx.replica.local(path));
    ctx.state.putFile({ ...sibling, path, localIno: Number(st.ino) });
    return true;
  }
  return false;
}

/** Clears a directory that a remote entry of another type replaces; false when dirty paths under it must stay. */
function replaceable(ctx: SyncContext, path: string): boolean {
  if (ctx.dirty.hasAtOrUnder(path)) return false;
  fs.rmSync(ctx.replica.local(path), { recursive: true, force: true });
  ctx.state.forgetTree(path);
  return true;
}

/**
 * A sparse file of the remote size: no blocks, no download, yet `ls -l` and `stat` show the
 * truth. A new path is created in place; an existing file is replaced by rename, so a
 * process holding it open keeps reading the old bytes rather than a truncated file.
 */
function writePlaceholder(ctx: SyncContext, path: string, entry: RemoteEntry, exists: boolean): void {
  const local = ctx.replica.local(path);
  const target = exists ? ctx.replica.tmpPath() : local;
  if (!exists) fs.mkdirSync(ctx.replica.local(parentOf(path)), { recursive: true });
  let fd: number;
  try {
    // The daemon's umask is 0, so the mode given here is the file's mode.
    fd = fs.openSync(target, exists ? "w" : "wx", entry.mode & 0o7777);
  } catch (err) {
    // A file created on the mount since the lstat above: the container's copy wins.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return;
    throw err;
  }
  let localIno: number;
  try {
    if (entry.size > 0) fs.ftruncateSync(fd, entry.size);
    localIno = fs.fstatSync(fd).ino;
  } finally {
    fs.closeSync(fd);
  }
  applyOwnerAndTime(target, entry, null);
  if (exists) fs.renameSync(target, local);
  // An empty file has nothing to download.
  ctx.state.putFile({
    path,
    etag: entry.etag ?? "",
    size: entry.size,
    hydrated: entry.size === 0,
    ino: entry.ino ?? null,
    localIno,
  });
}

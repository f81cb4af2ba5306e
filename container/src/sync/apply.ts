/**
 * Applies the object's state of one path to the replica, and records it as the path's synced
 * state (the base of its next push). A path with an unpushed local change is left alone, its
 * synced state too: that is the base its push carries, and the object decides from it whether
 * the two versions conflict (docs/container-sync.md, "Conflicts").
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
import { constants } from "node:os";
import { ancestorsOf } from "../../wire/conflict.ts";
import { BOX_DEFAULT_OWNER, type RemoteEntry } from "../../wire/index.ts";
import { isBoxOnly, parentOf } from "../fs/replica.ts";
import { nativeLimits } from "../native/limits.ts";
import { markPlaceholder } from "../native/placeholders.ts";
import type { Placement, PlaceResult } from "../native/protocol.ts";
import type { SyncContext } from "./context.ts";
import { nsOf, sameTime, setTimes } from "./metadata.ts";
import { claimUnreportedUnder, lstatOrNull, unreported } from "./unreported.ts";

const { EEXIST } = constants.errno;

/**
 * applyEntry wherever the replica takes the object's version (a pull, and a push's answer
 * that kept the object's version, pushLand.ts): a path this replica cannot hold (its
 * placeholder mark too long for the filesystem's attribute space, a name past PATH_MAX with
 * the replica's prefix, a full disk) is logged and left out, so the rest still arrives. A
 * failure used to fail the whole pull, and every pull after it: the box saw no change of the
 * workspace again. The path comes down when it next changes on the object. Errors that are
 * not the filesystem's (a bug) still throw.
 */
export function applyEntryOrSkip(ctx: SyncContext, path: string, entry: RemoteEntry | null): void {
  try {
    applyEntry(ctx, path, entry);
  } catch (err) {
    if (!isFilesystemError(err)) throw err;
    ctx.log(
      `${path.slice(0, 200)}: the object's version cannot be made here (${(err as Error).message}); the box goes without it`,
    );
  }
}

/** An errno from node:fs (`ENOSPC`), or from a native addon (@napi-rs/xattr: "… (os error 28)"). */
function isFilesystemError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return (typeof code === "string" && /^E[A-Z0-9]+$/.test(code)) || /\(os error \d+\)$/.test(err.message);
}

export function applyEntry(ctx: SyncContext, path: string, entry: RemoteEntry | null): void {
  if (path === "/" || ctx.dirty.has(path)) return;
  const { replica, state } = ctx;
  const local = replica.local(path);
  if (entry === null) {
    // Something new the container made under a removed directory keeps the directory alive,
    // with only what is pending under it: the rest is gone from the object.
    claimUnreportedUnder(ctx, path);
    if (ctx.dirty.hasAtOrUnder(path)) {
      pruneExceptDirty(ctx, path);
      return;
    }
    const existing = lstatOrNull(local);
    // The object never has a FIFO, socket or device node: "nothing there" is no news of one.
    if (existing && isBoxOnly(existing)) return;
    if (unreported(ctx, path, existing)) return;
    fs.rmSync(local, { recursive: true, force: true });
    state.forgetTree(path);
    state.forgetSynced(path);
    return;
  }
  const existing = lstatOrNull(local);
  if (unreported(ctx, path, existing)) return;
  const mode = entry.mode & 0o7777;
  if (entry.type === "dir") {
    if (existing?.isDirectory()) {
      if (Number(existing.mode & 0o7777n) !== mode) fs.chmodSync(local, mode);
      applyOwner(ctx, local, entry, existing);
      state.putSynced(entry);
      return;
    }
    if (existing && !replaceable(ctx, path)) return;
    makeParents(ctx, path);
    fs.mkdirSync(local, { mode });
    applyOwner(ctx, local, entry, null);
    state.forgetTree(path);
    state.putSynced(entry);
    return;
  }
  if (entry.type === "symlink") {
    if (existing?.isSymbolicLink() && fs.readlinkSync(replica.quiet(path)) === entry.target) {
      applyOwnerAndTime(ctx, local, entry, existing);
      state.putSynced(entry);
      return;
    }
    if (existing?.isDirectory() && !replaceable(ctx, path)) return;
    makeParents(ctx, path);
    const tmp = replica.tmpPath();
    fs.symlinkSync(entry.target ?? "", tmp);
    applyOwnerAndTime(ctx, tmp, entry, null);
    fs.renameSync(tmp, local);
    state.forgetTree(path);
    state.putSynced(entry);
    return;
  }
  const row = state.file(path);
  if (row && row.etag === entry.etag && existing?.isFile()) {
    if (linkToSibling(ctx, path, entry, existing)) return;
    // Mode, owner and times belong to the inode: with another name of it pending, they are
    // that name's newer change, which its push carries, and the object's older ones must
    // not undo it here.
    if (!sharedWithPending(ctx, path, existing)) {
      if (Number(existing.mode & 0o7777n) !== mode) fs.chmodSync(local, mode);
      applyOwnerAndTime(ctx, local, entry, existing);
    }
    if (entry.ino !== undefined && row.ino !== entry.ino) state.putFile({ ...row, ino: entry.ino });
    state.putSynced(entry);
    return;
  }
  if (existing?.isDirectory() && !replaceable(ctx, path)) return;
  if (linkToSibling(ctx, path, entry, existing)) return;
  writePlaceholder(ctx, path, entry, existing !== null);
}

/**
 * Whether the replica file at `path` has another name with a change not yet pushed. Only a
 * file with several names is looked into, and then only the pending paths (a short list), so
 * the common case costs nothing.
 */
function sharedWithPending(ctx: SyncContext, path: string, existing: BigIntStats): boolean {
  if (existing.nlink < 2n || ctx.dirty.size === 0) return false;
  for (const other of ctx.dirty.list()) {
    if (other !== path && lstatOrNull(ctx.replica.local(other))?.ino === existing.ino) return true;
  }
  return false;
}

/**
 * The object removed directory `dir`, but the container has pending changes under it: keeps
 * those (and the directories leading to them), and removes everything else the way the
 * object did, so the box does not go on showing files the object no longer has.
 */
function pruneExceptDirty(ctx: SyncContext, dir: string): void {
  const { replica, state, dirty } = ctx;
  const visit = (path: string): void => {
    if (dirty.has(path)) return;
    if (!dirty.hasAtOrUnder(path)) {
      fs.rmSync(replica.local(path), { recursive: true, force: true });
      state.forgetTree(path);
      state.forgetSynced(path);
      return;
    }
    // A directory kept only for what is pending under it; those keep their own bases.
    state.forgetSynced(path, false);
    if (lstatOrNull(replica.local(path))?.isDirectory()) {
      for (const name of fs.readdirSync(replica.quiet(path))) visit(`${path}/${name}`);
    }
  };
  visit(dir);
}

/**
 * Creates the replica's missing directories above `path`. The object holds them (it holds
 * something in them), though its change log named only the entry inside, so each is
 * recorded as synced: the base of a later removal of it in the box.
 */
function makeParents(ctx: SyncContext, path: string): void {
  const first = fs.mkdirSync(ctx.replica.local(parentOf(path)), { recursive: true, mode: 0o755 });
  if (first === undefined) return;
  const from = first.slice(ctx.replica.root.length);
  const { uid, gid } = replicaOwner(ctx, {});
  const asDaemon = uid === process.getuid?.() && gid === process.getgid?.();
  for (const dir of ancestorsOf(path)) {
    if (dir.length < from.length) continue;
    if (!asDaemon) fs.lchownSync(ctx.replica.local(dir), uid, gid);
    ctx.state.putSynced({ path: dir, type: "dir", size: 0, mode: 0o755, mtimeMs: 0 });
  }
}

/**
 * The replica ids of an entry's owner. An entry that names none (an object from before
 * owners, or a directory the change log only implied) belongs to the box's default user,
 * as everything the API makes does: never to the daemon's root, which the box, in its own
 * user namespace, sees as nobody and cannot write through.
 */
function replicaOwner(ctx: SyncContext, entry: { uid?: number; gid?: number }): { uid: number; gid: number } {
  return {
    uid: ctx.ids.toReplica(entry.uid ?? BOX_DEFAULT_OWNER.uid),
    gid: ctx.ids.toReplica(entry.gid ?? BOX_DEFAULT_OWNER.gid),
  };
}

/** Gives a replica entry the remote owner (as replica ids) where it differs; a link's own owner, not its target's. */
function applyOwner(ctx: SyncContext, local: string, entry: RemoteEntry, existing: BigIntStats | null): void {
  const { uid, gid } = replicaOwner(ctx, entry);
  if (existing && Number(existing.uid) === uid && Number(existing.gid) === gid) return;
  // The daemon creates as root: a new entry of the box's own user (root here) needs no call.
  if (!existing && uid === process.getuid?.() && gid === process.getgid?.()) return;
  fs.lchownSync(local, uid, gid);
}

function applyOwnerAndTime(ctx: SyncContext, local: string, entry: RemoteEntry, existing: BigIntStats | null): void {
  applyOwner(ctx, local, entry, existing);
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
  claimUnreportedUnder(ctx, path);
  if (ctx.dirty.hasAtOrUnder(path)) return false;
  fs.rmSync(ctx.replica.local(path), { recursive: true, force: true });
  ctx.state.forgetTree(path);
  ctx.state.forgetSynced(path);
  return true;
}

/**
 * A sparse file of the remote size: no download, yet `ls -l` and `stat` show the truth (in
 * the native mode its first block is written, so it never looks all hole). A new path is created in place; an existing file is replaced by rename, so a
 * process holding it open keeps reading the old bytes rather than a truncated file.
 */
function writePlaceholder(ctx: SyncContext, path: string, entry: RemoteEntry, exists: boolean): void {
  const local = ctx.replica.local(path);
  // In the native mode the box reads the filesystem directly, so a placeholder must carry
  // its mark before it appears at its path: it is built aside and then moved in.
  const aside = exists || ctx.native;
  const target = aside ? ctx.replica.tmpPath() : local;
  if (!exists) makeParents(ctx, path);
  let fd: number;
  try {
    // The daemon's umask is 0, so the mode given here is the file's mode.
    fd = fs.openSync(target, aside ? "w" : "wx", entry.mode & 0o7777);
  } catch (err) {
    // A file created on the mount since the lstat above: the container's copy wins.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return;
    throw err;
  }
  let localIno: number;
  try {
    if (entry.size > 0) fs.ftruncateSync(fd, entry.size);
    // Not yet marked, so the helper lets this write through (native/limits.ts says why).
    if (ctx.native && entry.size > 0) {
      const head = Math.min(entry.size, nativeLimits.placeholderDataBytes);
      fs.writeSync(fd, new Uint8Array(head), 0, head, 0);
    }
    localIno = fs.fstatSync(fd).ino;
  } finally {
    fs.closeSync(fd);
  }
  applyOwnerAndTime(ctx, target, entry, null);
  if (ctx.native && entry.size > 0) {
    try {
      markPlaceholder(target, { etag: entry.etag ?? "", path });
    } catch (err) {
      // A mark longer than the filesystem's attribute space (a path of some 4,000 bytes).
      fs.rmSync(target, { force: true });
      throw err;
    }
    // The helper's mark holds the first reader; without it the box would read the zeros.
    // (Unset only where no helper runs: tests of the sync logic on a plain directory.)
    const errno = ctx.watchPlaceholder ? ctx.watchPlaceholder(target) : 0;
    if (errno !== 0) {
      fs.rmSync(target, { force: true });
      throw Object.assign(new Error(`marking the placeholder for ${path}: errno ${errno}`), { errno });
    }
  }
  if (exists) fs.renameSync(target, local);
  else if (aside && !installNew(target, local)) return;
  // An empty file has nothing to download.
  ctx.state.putFile({
    path,
    etag: entry.etag ?? "",
    size: entry.size,
    hydrated: entry.size === 0,
    ino: entry.ino ?? null,
    localIno,
  });
  ctx.state.putSynced(entry);
}

/**
 * Moves a new file into place unless the command created one there meanwhile (link fails
 * with EEXIST where rename would replace it): the container's copy wins, as above.
 */
function installNew(tmp: string, local: string): boolean {
  try {
    fs.linkSync(tmp, local);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Native mode, in a walk: a new file becomes a placeholder made by the fanotify helper, many
 * at once on its threads (`ctx.placeMany`), instead of here one file at a time. Each placement
 * is a dozen syscalls, one of which (setting the size) raises a pre-content event only the
 * helper can skip, so a 36,000-file workspace took seconds to mount one file at a time.
 *
 * Returns the placement, or null when applyEntry must apply the entry as usual: FUSE, a
 * dirty path, something already there, a hard link, an empty file (nothing to fetch, so
 * no mark) or a time before 1970 (the helper takes unsigned nanoseconds). `made` holds the
 * directories this walk created: nothing of the object's can be in them yet, so their files
 * need no lstat, and a file the box made there meanwhile stays (`onlyNew`: the container's
 * copy wins, as in writePlaceholder). Record the outcome with `placedEntries`.
 */
export function walkPlacement(ctx: SyncContext, entry: RemoteEntry, made: ReadonlySet<string>): Placement | null {
  const path = entry.path;
  if (!ctx.placeMany || entry.type !== "file" || entry.size === 0 || (entry.nlink ?? 1) >= 2 || entry.mtimeMs < 0) {
    return null;
  }
  if (path === "/" || ctx.dirty.has(path)) return null;
  if (!made.has(parentOf(path))) {
    if (lstatOrNull(ctx.replica.local(path))) return null;
    makeParents(ctx, path);
  }
  return {
    path,
    size: entry.size,
    mode: entry.mode & 0o7777,
    ...replicaOwner(ctx, entry),
    mtimeNs: nsOf(entry.mtimeMs, entry.mtimeNsec),
    key: `${entry.etag ?? ""} ${path}`,
    onlyNew: true,
  };
}

/**
 * Records walkPlacements' outcomes as writePlaceholder records its own, all of them at once
 * (StateDb.putPlaced); a failure other than EEXIST is applied again here.
 */
export function placedEntries(ctx: SyncContext, placed: readonly { entry: RemoteEntry; result: PlaceResult }[]): void {
  const rows: { entry: RemoteEntry; localIno: number }[] = [];
  for (const { entry, result } of placed) {
    if (result.ok) rows.push({ entry, localIno: result.ino });
    // EEXIST: the box made a file there since; its copy wins, and its push says so.
    else if (result.errno !== EEXIST) applyEntryOrSkip(ctx, entry.path, entry);
  }
  ctx.state.putPlaced(rows);
}

/**
 * Native mode: a change the box made after the journal was last drained is not dirty yet,
 * so a pull must not take the object's version over it. apply.ts asks here before it
 * replaces or removes a path: the file's ctime says whether the box may have changed it
 * since the drain, and a file still exactly as computerd pushed it is no such change.
 */
import type { BigIntStats } from "node:fs";
import * as fs from "node:fs";
import { isBoxOnly } from "../fs/replica.ts";
import type { SyncContext } from "./context.ts";

/**
 * Native mode: the box changed this file, link or special file since the journal was last
 * drained (its ctime says so), so the change may not be dirty yet and the object's version
 * must not replace it. It is marked dirty here instead: pushed with its base, the conflict
 * rule decides. A directory's ctime moves with every entry made in it, so directories are
 * left to the journal (and a directory is only ever replaced when nothing is pending under it).
 */
export function unreported(ctx: SyncContext, path: string, existing: BigIntStats | null): boolean {
  if (!ctx.native || !existing || existing.isDirectory() || existing.ctimeNs < ctx.unreportedSinceNs) return false;
  if (pushedAsIs(ctx, path, existing)) return false;
  ctx.dirty.touch(path);
  return true;
}

/**
 * Whether the file is still what computerd last pushed from it: the same inode, size and
 * mtime to the nanosecond. The ctime window above spans the slack of the kernel's coarse
 * clock, so a change the journal reported and a push carried just before the drain falls in
 * it too; taken for a new one, it kept the box's older version over an API write made after
 * that push, and the next command read it (the write itself was kept, the box's copy went
 * to a conflict name).
 */
function pushedAsIs(ctx: SyncContext, path: string, existing: BigIntStats): boolean {
  const row = ctx.state.file(path);
  return (
    !!row?.localMtimeNs &&
    row.localMtimeNs === String(existing.mtimeNs) &&
    row.size === Number(existing.size) &&
    (row.localIno == null || row.localIno === Number(existing.ino))
  );
}

/**
 * Native mode: whether the box made or changed `path` after the journal was last drained
 * (its ctime says so), so the change is not dirty yet; if so it is marked dirty here, which
 * keeps it (and the directories leading to it) as a pending change for push and the
 * conflict rule, instead of being removed as something the object no longer has.
 *
 * A directory's ctime also moves whenever an entry in it comes or goes, the daemon's own
 * pulls included, which says nothing of the directory itself: one counts only when it was
 * born since the drain and the object never had it (the box has just made it). The entries
 * inside speak for themselves. (A directory the box moved in from elsewhere keeps its birth
 * time, and is not claimed this way.)
 */
export function madeSinceDrain(ctx: SyncContext, path: string, st = lstatOrNull(ctx.replica.local(path))): boolean {
  if (!ctx.native || !st) return false;
  if (
    st.isDirectory()
      ? st.birthtimeNs < ctx.unreportedSinceNs || ctx.state.synced(path) !== null
      : st.ctimeNs < ctx.unreportedSinceNs || pushedAsIs(ctx, path, st)
  ) {
    return false;
  }
  ctx.dirty.touch(path);
  return true;
}

/**
 * Native mode, before a directory the object removed or replaced goes: what the box made in
 * it since the journal was last drained is claimed as pending (madeSinceDrain). FIFOs,
 * sockets and device nodes go with their directory, as always.
 */
export function claimUnreportedUnder(ctx: SyncContext, dir: string): void {
  if (!ctx.native) return;
  const visit = (path: string): void => {
    const st = lstatOrNull(ctx.replica.local(path));
    if (!st || isBoxOnly(st)) return;
    if (path !== dir && madeSinceDrain(ctx, path, st)) return;
    if (st.isDirectory()) for (const name of fs.readdirSync(ctx.replica.quiet(path))) visit(`${path}/${name}`);
  };
  visit(dir);
}

export function lstatOrNull(file: string): BigIntStats | null {
  try {
    return fs.lstatSync(file, { bigint: true });
  } catch {
    return null;
  }
}

/**
 * Native mode: the content of files a command writes, read while the command still runs.
 * The journal reports a written file within milliseconds, and the box's command runs on
 * another core than computerd, so reading it then moves that work off the exec's answer:
 * what is left when the command exits is to send it (a command making 1,000 small files
 * spent 17–20 ms of its push reading them afterwards). Nothing goes to the object early:
 * pushes still start as push.ts schedules them, so no half-made state lands there.
 *
 * A read stands only while the file is provably the one read: its push lstats it again, and
 * the inode, size, mtime and ctime must all be those the read saw. ctime moves with every
 * change of content or attributes (a placeholder's key is an attribute), cannot be set back,
 * and on a kernel with pre-content events (6.14+) ext4 stamps a change made after a stat
 * with a finer time than the stat saw (multigrain timestamps, 6.13). The stat is taken before
 * the read, so a change during the read fails the check too. Anything else is read again.
 *
 * Only what the push would read whole and inline is kept: regular files with one name, at
 * most daemonLimits.pushSyncReadBytesMax, never a placeholder (computerd's own reads are not
 * held for hydration, so its bytes would be zeros). At most one batch's worth is held
 * (wireLimits.applyOpsMax files, applyBytesMax bytes); past that, a file is read at push time
 * as before. Reads run a slice per turn of the event loop, so hydration answers are not held
 * behind them.
 */
import type { BigIntStats } from "node:fs";
import { wireLimits } from "../../wire/index.ts";
import { daemonLimits } from "../limits.ts";
import { placeholderOf } from "../native/placeholders.ts";
import type { SyncContext } from "./context.ts";
import { type EarlyReads, lstatBig, readContentSync } from "./pushRead.ts";

/** Files read per turn of the event loop. */
const sliceFiles = 64;

interface Read {
  st: BigIntStats;
  bytes: Buffer;
}

export class Prefetcher implements EarlyReads {
  private readonly ctx: SyncContext;
  private readonly reads = new Map<string, Read>();
  private bytes = 0;
  private readonly queue = new Set<string>();
  private scheduled = false;

  constructor(ctx: SyncContext) {
    this.ctx = ctx;
  }

  /**
   * Paths the journal just reported written: read them soon, unless full. A path already read
   * keeps that read until its push, whose check reads the file again if it changed.
   */
  written(paths: readonly string[]): void {
    for (const path of paths) if (!this.reads.has(path)) this.queue.add(path);
    if (this.queue.size > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.readSlice());
    }
  }

  /** The content read earlier for `path`, if `st` (just taken) proves it is still the file read; forgets it either way. */
  take(path: string, st: BigIntStats): Buffer | null {
    const read = this.reads.get(path);
    if (!read) return null;
    this.reads.delete(path);
    this.bytes -= read.bytes.byteLength;
    const was = read.st;
    const same =
      was.ino === st.ino &&
      was.size === st.size &&
      was.mtimeNs === st.mtimeNs &&
      was.ctimeNs === st.ctimeNs &&
      st.nlink === 1n &&
      st.isFile();
    return same ? read.bytes : null;
  }

  private full(): boolean {
    return this.reads.size >= wireLimits.applyOpsMax || this.bytes >= wireLimits.applyBytesMax;
  }

  private readSlice(): void {
    this.scheduled = false;
    let done = 0;
    for (const path of this.queue) {
      if (done++ >= sliceFiles) break;
      this.queue.delete(path);
      if (this.full()) {
        this.queue.clear();
        return;
      }
      try {
        this.readOne(path);
      } catch {
        // Whatever cannot be read now (a path too long for the replica's prefix, a race with
        // the command) is read by its push, as without this: nothing here may end the daemon.
      }
    }
    if (this.queue.size > 0) {
      this.scheduled = true;
      setImmediate(() => this.readSlice());
    }
  }

  private readOne(path: string): void {
    // A path already pushed (clean again) needs nothing.
    if (!this.ctx.dirty.has(path)) return;
    const local = this.ctx.replica.local(path);
    const st = lstatBig(local);
    if (!st?.isFile() || st.nlink !== 1n || st.size > BigInt(daemonLimits.pushSyncReadBytesMax)) return;
    if (placeholderOf(local)) return;
    const bytes = readContentSync(local);
    if (!bytes || BigInt(bytes.byteLength) !== st.size) return;
    this.reads.set(path, { st, bytes });
    this.bytes += bytes.byteLength;
  }
}

/**
 * The native mount mode: the workspace is a real ext4 filesystem (./disk.ts), so every
 * operation a command makes runs at the disk's own speed, and computerd is told about it
 * instead of being asked:
 *
 * - **Lazy hydration.** A pull writes placeholders (./placeholders.ts). The fanotify helper
 *   holds a command's first read of one until computerd has downloaded the content.
 * - **The change journal.** The helper reports what commands create, write, move, delete and
 *   chmod; each path is marked dirty and the pusher sends its current state, as under FUSE.
 *   Before an exec answers, `drain` makes sure every change the command made was reported.
 * - **Rescans.** Events are lost when the journal overflows or computerd dies; it then walks
 *   the workspace and marks dirty whatever changed since the last moment everything was
 *   pushed (`cleanMs`): an inode's ctime moves on every change and cannot be set back.
 */
import { randomUUID } from "node:crypto";
import type { Dirent } from "node:fs";
import { lstatSync, readdirSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { constants } from "node:os";
import { join, relative } from "node:path";
import type { SyncContext } from "../sync/context.ts";
import type { Hydrator } from "../sync/hydrate.ts";
import type { NativeDisk } from "./disk.ts";
import { type Change, type FanotifyHelper, type HelperExit, startFanotify } from "./fanotify.ts";
import { fetchPlaceholder, parseKey } from "./placeholders.ts";
import { probeFanotify } from "./probe.ts";

export interface NativeMountOptions {
  /** The fanotify helper (container/native), or null when none was built for this host. */
  binary: string | null;
  /** A directory on the host's own filesystem for downloads the helper copies in. */
  fetchDir: string;
  /** The host uid the workspace's root directory belongs to (the box's user). */
  ownerUid: number;
  /** Called when the helper exits unasked: placeholders are unguarded, commands must stop. */
  onHelperLost: (exit: HelperExit) => void;
  /** Files the journal reported written (or made), after they were marked dirty. */
  onWritten?: (paths: readonly string[]) => void;
}

export class NativeMount {
  private readonly ctx: SyncContext;
  private readonly disk: NativeDisk;
  private readonly hydrator: Hydrator;
  private readonly opts: NativeMountOptions;
  private helper: FanotifyHelper | null = null;
  private pending: string[] = [];
  private written: string[] = [];

  constructor(ctx: SyncContext, disk: NativeDisk, hydrator: Hydrator, opts: NativeMountOptions) {
    this.ctx = ctx;
    this.disk = disk;
    this.hydrator = hydrator;
    this.opts = opts;
  }

  /** Mounts the disk and starts the helper; throws with the reason when this host cannot. */
  async start(): Promise<void> {
    const binary = this.opts.binary;
    if (!binary) throw new Error("no fanotify helper was built for this host (container/native)");
    await this.disk.prepare(this.opts.ownerUid);
    const probe = await probeFanotify(binary, this.disk.root);
    if (!probe.ok) throw new Error(probe.reason);
    await rm(this.opts.fetchDir, { recursive: true, force: true });
    await mkdir(this.opts.fetchDir, { recursive: true, mode: 0o700 });
    this.helper = await startFanotify({
      binary,
      mountRoot: this.disk.root,
      allowPid: process.pid,
      hydrate: async ({ key }) => {
        const parsed = parseKey(key);
        if (!parsed) return { errno: constants.errno.EIO };
        return fetchPlaceholder(this.hydrator, parsed, () => join(this.opts.fetchDir, randomUUID()));
      },
      onChange: (change) => this.changed(change),
      onRescan: (reason) => {
        this.ctx.log(`native: rescanning the workspace (${reason})`);
        this.rescan(this.ctx.state.cleanMs());
      },
      onExit: (exit) => {
        if (!exit.expected) this.opts.onHelperLost(exit);
      },
      log: (line) => this.ctx.log(`native: ${line}`),
    });
    const helper = this.helper;
    // The helper's paths start at the filesystem's root, where the workspace is `ws`.
    this.ctx.placeMany = (placements) => helper.placeMany(placements, "/ws");
    const root = this.disk.root;
    this.ctx.watchPlaceholder = (local) => helper.watchSync(relative(root, local));
    // What changed while no daemon was listening (a SIGKILLed predecessor).
    this.rescan(this.ctx.state.cleanMs());
  }

  /** Resolves once every change made before the call was reported and marked dirty. */
  async drain(): Promise<void> {
    await this.helper?.drain();
    this.flushPending();
  }

  /**
   * Records that every change made before `atMs` is on the object: a later rescan looks only
   * at what changed after it. The second of slack covers the filesystem's coarse clock.
   */
  markClean(atMs: number): void {
    if (this.ctx.dirty.size === 0) this.ctx.state.setCleanMs(atMs - 1_000);
  }

  async stop(): Promise<void> {
    delete this.ctx.placeMany;
    delete this.ctx.watchPlaceholder;
    await this.helper?.stop();
    this.helper = null;
    await this.disk.unmount();
  }

  /** Journal entries arrive one by one; they are marked dirty together, once per tick. */
  private changed(change: Change): void {
    if (this.pending.length === 0) queueMicrotask(() => this.flushPending());
    const from = change.from === undefined ? null : this.workspacePath(change.from);
    if (from !== null && from !== "/") this.pending.push(from);
    const path = this.workspacePath(change.path);
    if (path === null || path === "/") return;
    this.pending.push(path);
    if (!change.isDir && (change.kinds.includes("write") || change.kinds.includes("create"))) this.written.push(path);
    // A directory that arrives whole (moved in from elsewhere) brings its subtree along.
    if (change.isDir && (change.kinds.includes("move") || change.kinds.includes("create"))) {
      this.collect(path, this.pending, 0);
    }
  }

  private flushPending(): void {
    if (this.pending.length === 0) return;
    const paths = this.pending;
    this.pending = [];
    this.ctx.dirty.touchMany(paths);
    const written = this.written;
    this.written = [];
    if (written.length > 0) this.opts.onWritten?.(written);
  }

  /** `/ws/a/b` (the filesystem's path) → `/a/b` (the workspace's); null outside the workspace. */
  private workspacePath(fsPath: string): string | null {
    if (fsPath === "/ws") return "/";
    return fsPath.startsWith("/ws/") ? fsPath.slice(3) : null;
  }

  /**
   * Marks dirty every path whose inode changed at or after `sinceMs` (0: everything), and every
   * file computerd synced that is gone. Synchronous: it walks the local disk only.
   */
  private rescan(sinceMs: number): void {
    const found: string[] = [];
    this.collect("/", found, sinceMs);
    const gone = this.ctx.state.filesMissingFrom((path) => {
      try {
        lstatSync(this.ctx.replica.local(path));
        return true;
      } catch {
        return false;
      }
    });
    if (found.length + gone.length > 0) this.ctx.dirty.touchMany([...found, ...gone]);
  }

  private collect(dir: string, into: string[], sinceMs: number): void {
    let names: Dirent[];
    try {
      names = readdirSync(this.ctx.replica.local(dir), { withFileTypes: true });
    } catch {
      return;
    }
    const base = dir === "/" ? "" : dir;
    for (const d of names) {
      const path = `${base}/${d.name}`;
      if (sinceMs === 0 || changedSince(this.ctx.replica.local(path), sinceMs)) into.push(path);
      if (d.isDirectory()) this.collect(path, into, sinceMs);
    }
  }
}

function changedSince(local: string, sinceMs: number): boolean {
  try {
    return lstatSync(local).ctimeMs >= sinceMs;
  } catch {
    return false;
  }
}

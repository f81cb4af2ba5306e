/**
 * The local replica: a plain directory (`<stateDir>/replica`) that the FUSE mount passes
 * through to, so the container gets real POSIX behaviour from the local disk. Workspace
 * paths (`/src/a.ts`) map one to one to paths under it. Temporary files (downloads,
 * placeholders being built) live in `<stateDir>/tmp`, on the same filesystem, so a rename
 * installs them atomically and they never show on the mount.
 */
import { randomUUID } from "node:crypto";
import type { Stats } from "node:fs";
import { lstat, mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";

export class Replica {
  readonly root: string;
  readonly tmpDir: string;
  /** Where computerd's own reads of links and directories go: `root`, or a view of it (quiet). */
  private quietRoot: string;

  constructor(root: string, tmpDir: string) {
    this.root = root;
    this.tmpDir = tmpDir;
    this.quietRoot = root;
  }

  /** The FUSE mode's replica: a directory of the state dir, with its temporaries beside it. */
  static inStateDir(stateDir: string): Replica {
    return new Replica(join(stateDir, "replica"), join(stateDir, "tmp"));
  }

  async prepare(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    // Leftover temporaries belong to downloads a killed daemon never finished.
    await rm(this.tmpDir, { recursive: true, force: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  local(path: string): string {
    return path === "/" ? this.root : this.root + path;
  }

  /**
   * `path` as computerd reads it to push, pull and scan. readlink and readdir have no
   * O_NOATIME, so on the box's own view they would move the access time the box sees (a
   * link's times set by the box, then its push read: pjdfstest utimensat/05.t). The FUSE
   * mode reads through a view on which no read moves one (readQuietlyThrough); the native
   * mode's replica already lies on such a mount (native/disk.ts).
   */
  quiet(path: string): string {
    return path === "/" ? this.quietRoot : this.quietRoot + path;
  }

  /** Sends quiet() through `view`, the same tree as `root` seen from a noatime mount. */
  readQuietlyThrough(view: string): void {
    this.quietRoot = view;
  }

  tmpPath(): string {
    return join(this.tmpDir, randomUUID());
  }

  async lstat(path: string): Promise<Stats | null> {
    try {
      return await lstat(this.local(path));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") {
        return null;
      }
      throw err;
    }
  }

  async remove(path: string): Promise<void> {
    await rm(this.local(path), { recursive: true, force: true });
  }

  /**
   * Every path under `dir` (workspace paths, parents before children), read from the replica,
   * never the mount. `boxOnly` marks a FIFO, socket or device node: the object has no such
   * thing, so its absence there says nothing (isBoxOnly).
   */
  async *subtree(dir: string): AsyncGenerator<{ path: string; isDir: boolean; boxOnly: boolean }> {
    let names: import("node:fs").Dirent[];
    try {
      names = await readdir(this.quiet(dir), { withFileTypes: true });
    } catch {
      return;
    }
    const base = dir === "/" ? "" : dir;
    for (const d of names) {
      const path = `${base}/${d.name}`;
      yield { path, isDir: d.isDirectory(), boxOnly: isBoxOnly(d) };
      if (d.isDirectory()) yield* this.subtree(path);
    }
  }
}

/**
 * FIFOs, sockets and device nodes live on the box alone: the object has no counterpart, so
 * they are never pushed, and a pull never removes one for being absent on the object (only
 * with its directory, or when the object puts something at its path).
 */
export function isBoxOnly(st: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
}): boolean {
  return st.isFIFO() || st.isSocket() || st.isBlockDevice() || st.isCharacterDevice();
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

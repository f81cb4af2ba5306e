/**
 * The names of each hard-linked file the mount made, so a change through one name can drop
 * the kernel's cached attributes of the others before the change is answered. The high-level
 * FUSE API gives every name a node of its own, and the kernel caches each node's attributes
 * for the attribute timeout: without this, `ln a b; chmod 600 b; stat a` shows a's old mode
 * and link count for up to a second. Names are learned from `link` on the mount; links a pull
 * made, or made before the daemon started, are not known, and keep that lag. An empty table
 * costs the mount nothing (no lookups), which is every workspace that makes no hard links.
 *
 * Each method returns the names whose cached attributes are now stale; `refresh` drops them.
 */
import * as fs from "node:fs";

export class LinkNames {
  private readonly byIno = new Map<number, Set<string>>();
  /** Drops the kernel's cached attributes of one mount path, then calls `done`; set once the mount is made. */
  invalidate: (path: string, done: () => void) => void = (_path, done) => done();

  /** `dest` was just made a new name of `src`'s file, inode `ino`. */
  linked(src: string, dest: string, ino: number): string[] {
    const names = this.byIno.get(ino) ?? new Set([src]);
    names.add(dest);
    this.byIno.set(ino, names);
    return others(names, dest);
  }

  /** The other names of the file at `path` (`file` on the replica), about to change through it. */
  sharing(path: string, file: string): string[] {
    const ino = this.known(file);
    return ino === null ? [] : others(this.byIno.get(ino) as Set<string>, path);
  }

  /** `path`, a name of inode `ino`, was removed (unlink, or replaced by a rename). */
  removed(path: string, ino: number): string[] {
    const names = this.byIno.get(ino);
    if (!names) return [];
    names.delete(path);
    if (names.size <= 1) this.byIno.delete(ino);
    return others(names, path);
  }

  /** The name `src` of inode `ino` is now `dest`. */
  renamed(src: string, dest: string, ino: number): string[] {
    const names = this.byIno.get(ino);
    if (!names?.delete(src)) return [];
    names.add(dest);
    return others(names, dest);
  }

  /** The inode at replica path `file` when this table knows it, else null. */
  known(file: string): number | null {
    if (this.byIno.size === 0) return null;
    const ino = fs.lstatSync(file, { throwIfNoEntry: false })?.ino ?? null;
    return ino !== null && this.byIno.has(ino) ? ino : null;
  }

  /** Drops the cached attributes of `names`, then calls `then` (at once when there are none). */
  refresh(names: string[], then: () => void): void {
    if (names.length === 0) {
      then();
      return;
    }
    let left = names.length;
    for (const name of names)
      this.invalidate(name, () => {
        if (--left === 0) then();
      });
  }
}

function others(names: Set<string>, except: string): string[] {
  return [...names].filter((name) => name !== except);
}

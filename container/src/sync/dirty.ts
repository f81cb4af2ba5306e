/**
 * Paths changed on the mount and not yet pushed. The `dirty` table is written before the
 * FUSE op that changes the path (write-ahead), once per path until it is pushed; the Set
 * mirror makes every later write to the same path cost a lookup. A generation counter per
 * path tells the pusher whether the path changed again while its push was in flight, in
 * which case the row stays.
 */
import type { StateDb } from "../state.ts";

export class DirtySet {
  private readonly paths: Set<string>;
  private readonly gens = new Map<string, number>();
  private readonly attributesOnly = new Set<string>();
  private readonly state: StateDb;
  private readonly onTouch: () => void;

  constructor(state: StateDb, onTouch: () => void) {
    this.state = state;
    this.onTouch = onTouch;
    this.paths = new Set(state.allDirty());
  }

  get size(): number {
    return this.paths.size;
  }

  has(path: string): boolean {
    return this.paths.has(path);
  }

  gen(path: string): number {
    return this.gens.get(path) ?? 0;
  }

  /** Records that `path` is about to change. Must run before the change reaches the replica. */
  touch(path: string): void {
    this.attributesOnly.delete(path);
    this.mark(path);
  }

  /**
   * Records that only `path`'s owner or times are about to change (chown, utimens): a
   * symlink changed so still has the target it was synced with, which its push then takes
   * from its base instead of reading the link. Reading moves the link's access time
   * (readlink has no O_NOATIME) wherever the replica has no noatime view (Replica.quiet),
   * which would undo the very times just set. Any other change of the path (touch) forgets
   * this. Kept in memory only: after a restart the link is read.
   */
  touchAttributes(path: string): void {
    const pending = this.paths.has(path);
    this.mark(path);
    if (!pending || this.attributesOnly.has(path)) this.attributesOnly.add(path);
  }

  /** Whether every change pending at `path` left a symlink's target as synced (touchAttributes). */
  onlyAttributes(path: string): boolean {
    return this.attributesOnly.has(path);
  }

  private mark(path: string): void {
    this.gens.set(path, (this.gens.get(path) ?? 0) + 1);
    if (!this.paths.has(path)) {
      this.state.addDirty(path);
      this.paths.add(path);
    }
    this.onTouch();
  }

  /** Touches many paths in one transaction (a directory rename dirties its whole new subtree). */
  touchMany(paths: string[]): void {
    this.state.transaction(() => {
      for (const p of paths) this.touch(p);
    });
  }

  /** Clears `path` if it did not change since generation `gen` was read. */
  clearIf(path: string, gen: number): boolean {
    if (this.gen(path) !== gen) return false;
    this.paths.delete(path);
    this.gens.delete(path);
    this.attributesOnly.delete(path);
    this.state.removeDirty(path);
    return true;
  }

  /** Whether `path` or anything under it is dirty. */
  hasAtOrUnder(path: string): boolean {
    return this.paths.has(path) || this.state.hasDirtyUnder(path);
  }

  list(): string[] {
    return [...this.paths];
  }
}

/**
 * The store's read caches for path resolution, so a stat of a warm path costs no SQL (as
 * the kernel's dentry cache would). Every store method that changes `inodes` or `dirents`
 * updates or drops exactly the entries it touched; a rolled-back transaction drops all.
 */
import type { Inode } from "./types.ts";

/** Entries kept in the lookup caches before they are dropped wholesale. */
export const CACHE_ENTRIES_MAX = 50_000;
/** Directories up to this size are loaded whole on their first lookup. */
export const DIRECTORY_PRELOAD_MAX = 4_096;

export class RowCache {
  readonly inodes = new Map<number, Inode>();
  /** `parent/name` → the inode it names, or null for a name known to be absent. */
  readonly entries = new Map<string, number | null>();
  /** Directories whose every entry is in `entries`, so a miss there means "no such name". */
  readonly completeDirs = new Set<number>();

  /** Drops everything when the caches are full; called before adding to them. */
  makeRoom(): void {
    if (this.entries.size + this.inodes.size >= CACHE_ENTRIES_MAX) this.clear();
  }

  remember(row: Inode): void {
    this.makeRoom();
    this.inodes.set(row.ino, row);
  }

  clear(): void {
    this.inodes.clear();
    this.entries.clear();
    this.completeDirs.clear();
  }
}

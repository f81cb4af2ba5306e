/**
 * The shapes the store hands out and takes in: a row of `inodes`, a stat, a resolved path,
 * a new entry for `addNew`, and the two questions path resolution asks of any tree.
 */
import type { PreciseTime } from "../times.ts";

export type InodeType = "file" | "dir" | "symlink";

/** A row of `inodes` (a type alias, not an interface, so it satisfies SqlStorage's row constraint). */
export type Inode = {
  ino: number;
  type: InodeType;
  mode: number;
  size: number;
  mtime_ms: number;
  /** Nanoseconds past `mtime_ms` (times.ts). */
  mtime_nsec: number;
  ctime_ms: number;
  etag: string | null;
  target: string | null;
  /** For directories: how many entries name it as their parent. */
  entries: number;
  /** Owner, in the box's ids (schema.ts DEFAULT_OWNER). */
  uid: number;
  gid: number;
  /** Names of a file or link (hard links); for a directory 2 + its subdirectories. */
  nlink: number;
  /** The revision this version of the row was born in (schema.ts, version 4). */
  born_rev: number;
};

export interface Stat {
  path: string;
  name: string;
  type: InodeType;
  size: number;
  mode: number;
  /** RFC 3339, to the millisecond; `mtimeNs` has the exact time. */
  mtime: string;
  /** Nanoseconds since 1970 as a decimal string (JSON numbers cannot hold them exactly). */
  mtimeNs: string;
  ctime: string;
  /** The inode number: two paths with the same one are hard links to one file. */
  ino: number;
  nlink: number;
  uid: number;
  gid: number;
  etag?: string;
  target?: string;
}

/** A resolved path: the inode, and where its name lives. The root has parent 0 and name "". */
export interface Resolved {
  ok: true;
  path: string;
  ino: number;
  inode: Inode;
  parent: number;
  name: string;
}

/** One entry of `Store.addNew`: a new file with its content, or a new empty directory. */
export interface NewEntry {
  /** The directory it is named in: an inode number, or the index of a directory made earlier in the same list. */
  parent: number | { made: number };
  name: string;
  /** Its normalized path, for the change log. */
  path: string;
  type: "file" | "dir";
  mode: number;
  uid: number;
  gid: number;
  /** Its modification time; now when absent. */
  mtime?: PreciseTime | undefined;
  /** A file's size, ETag and chunks (0, null and none for a directory). */
  size: number;
  etag: string | null;
  chunks: readonly { hash: string; size: number }[];
}

/** Resolving up to the last segment: the parent directory exists, the name may not. */
export interface ResolvedParent {
  ok: true;
  path: string;
  parent: number;
  name: string;
  /** The existing entry under that name, if any (not followed). */
  existing: Inode | null;
}

/** The two questions path resolution asks of a tree, live or as it was at a revision. */
export interface TreeReader {
  inode(ino: number): Inode | null;
  lookup(parent: number, name: string): Inode | null;
}

export const DEFAULT_FILE_MODE = 0o644;
export const DEFAULT_DIR_MODE = 0o755;
export const SYMLINK_MODE = 0o777;

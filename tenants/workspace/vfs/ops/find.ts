/** find: entries under a directory by name glob, type, size and modification time. */
import picomatch from "picomatch";
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import type { InodeType, Stat, Store } from "../store.ts";
import { RevisionTree } from "../versions/at.ts";
import { walk, walkAt } from "../walk.ts";

export interface FindOptions {
  /** A glob matched against each entry's name (`*.ts`), or with a `/` against its path relative to `path`. */
  name?: string;
  type?: InodeType;
  minSize?: number;
  maxSize?: number;
  /** RFC 3339: modified at or after / strictly before. */
  modifiedAfter?: string;
  modifiedBefore?: string;
  limit?: number;
}

/** `at`: a revision to search the tree as it was then (versions/), or the live tree. */
export function find(
  store: Store,
  path: string,
  options: FindOptions = {},
  at?: number,
): FsResult<{ entries: Stat[]; truncated: boolean }> {
  const dir = at === undefined ? store.resolve(path, true) : store.resolve(path, true, new RevisionTree(store.sql, at));
  if (!dir.ok) return dir;
  if (dir.inode.type !== "dir") return fail("ENOTDIR", `not a directory: ${path}`, path);
  const limit = Math.min(options.limit ?? workspaceLimits.listPageDefault, workspaceLimits.listPageMax);
  const matchName = options.name ? picomatch(options.name, { dot: true }) : () => true;
  const byPath = options.name?.includes("/") ?? false;
  const after = options.modifiedAfter ? Date.parse(options.modifiedAfter) : Number.NEGATIVE_INFINITY;
  const before = options.modifiedBefore ? Date.parse(options.modifiedBefore) : Number.POSITIVE_INFINITY;
  const base = dir.path === "/" ? 1 : dir.path.length + 1;
  const entries: Stat[] = [];
  const below = at === undefined ? walk(store, dir.ino, dir.path) : walkAt(store, at, dir.ino, dir.path);
  for (const entry of below) {
    if (options.type && entry.type !== options.type) continue;
    if (options.minSize !== undefined && entry.size < options.minSize) continue;
    if (options.maxSize !== undefined && entry.size > options.maxSize) continue;
    if (entry.mtime_ms < after || entry.mtime_ms >= before) continue;
    if (!matchName(byPath ? entry.path.slice(base) : entry.name)) continue;
    if (entries.length === limit) return { ok: true, entries, truncated: true };
    entries.push(store.stat(entry.path, entry));
  }
  return { ok: true, entries, truncated: false };
}

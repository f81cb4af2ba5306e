/**
 * Every entry below a directory with its full path, in path order, by one recursive
 * query. Paths are built in SQL so a deep tree costs one statement, not one per level.
 */
import type { Inode, Store } from "./store.ts";

export type WalkEntry = Inode & {
  path: string;
  name: string;
  /** The directory the entry is in. */
  parent: number;
};

export interface WalkOptions {
  /** Only entries whose path sorts after this one (pagination). */
  after?: string | undefined;
  limit?: number;
  /** Only direct children. */
  shallow?: boolean;
}

export function walk(store: Store, dirIno: number, dirPath: string, options: WalkOptions = {}): WalkEntry[] {
  const prefix = dirPath === "/" ? "" : dirPath;
  const limit = options.limit ?? -1;
  const after = options.after ?? "";
  if (options.shallow) {
    const afterName = after.startsWith(`${prefix}/`) ? after.slice(prefix.length + 1) : "";
    return store.sql
      .exec<WalkEntry>(
        `SELECT i.*, d.name AS name, d.parent AS parent, ? || '/' || d.name AS path FROM dirents d JOIN inodes i ON i.ino = d.ino
         WHERE d.parent = ? AND d.name > ? ORDER BY d.name LIMIT ?`,
        prefix,
        dirIno,
        afterName,
        limit,
      )
      .toArray();
  }
  return store.sql
    .exec<WalkEntry>(
      `WITH RECURSIVE tree(ino, parent, name, path) AS (
         SELECT d.ino, d.parent, d.name, ? || '/' || d.name FROM dirents d WHERE d.parent = ?
         UNION ALL
         SELECT d.ino, d.parent, d.name, tree.path || '/' || d.name FROM dirents d JOIN tree ON d.parent = tree.ino
       )
       SELECT i.*, tree.name AS name, tree.parent AS parent, tree.path AS path FROM tree JOIN inodes i ON i.ino = tree.ino
       WHERE tree.path > ? ORDER BY tree.path LIMIT ?`,
      prefix,
      dirIno,
      after,
      limit,
    )
    .toArray();
}

/**
 * Every entry below a directory with its full path, in path order, by one recursive
 * query. Paths are built in SQL so a deep tree costs one statement, not one per level, and
 * a page (`after`, `limit`) reads about as many rows as it returns.
 */
import { INODE_COLUMNS } from "./schema.ts";
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
  // The recursion's queue is kept in path order, so entries come out of it sorted (each one
  // a parent put in is past the parent, the last taken out) and it stops after the page. It
  // only goes into what can hold entries past `after`: an entry past it, or one whose path
  // begins `after` (its ancestors, and `/a` for `/a-b`, whose `/a/…` sort after `/a-b`).
  // A page then costs about its own rows, not the whole tree's.
  const wanted = (path: string) => `(${path} > ?3 OR substr(?3, 1, length(${path})) = ${path})`;
  const path = "tree.path || '/' || d.name";
  const first = "?1 || '/' || d.name";
  // Entries at or before `after` that the queue takes out: each begins `after`, so there are
  // fewer of them than its characters.
  const passed = after.length;
  return store.sql
    .exec<WalkEntry>(
      `WITH RECURSIVE tree(ino, parent, name, path) AS (
         SELECT d.ino, d.parent, d.name, ${first} FROM dirents d WHERE d.parent = ?2 AND ${wanted(first)}
         UNION ALL
         SELECT d.ino, d.parent, d.name, ${path} FROM dirents d JOIN tree ON d.parent = tree.ino
         WHERE ${wanted(path)}
         ORDER BY 4 LIMIT ?4
       )
       SELECT i.*, tree.name AS name, tree.parent AS parent, tree.path AS path FROM tree JOIN inodes i ON i.ino = tree.ino
       WHERE tree.path > ?3 ORDER BY tree.path LIMIT ?5`,
      prefix,
      dirIno,
      after,
      limit < 0 ? -1 : limit + passed,
      limit,
    )
    .toArray();
}

/**
 * Every entry below a directory as the tree was at revision `rev`, with its full path, in
 * path order (after `after`, at most `limit`): `walk` over the row versions alive at `rev`
 * (a live row born by then, or a retired one that had not yet died), so a recursive listing,
 * `find` and `grep` read the past as they read the present. One statement; each recursive
 * step is an indexed lookup by parent in both tables.
 */
export function walkAt(
  store: Store,
  rev: number,
  dirIno: number,
  dirPath: string,
  options: { after?: string; limit?: number } = {},
): WalkEntry[] {
  const prefix = dirPath === "/" ? "" : dirPath;
  return store.sql
    .exec<WalkEntry>(
      `WITH RECURSIVE tree(ino, parent, name, path) AS (
         SELECT ino, parent, name, ?1 || '/' || name FROM dirents WHERE parent = ?2 AND born_rev <= ?3
         UNION ALL
         SELECT ino, parent, name, ?1 || '/' || name FROM dirents_hist
         WHERE parent = ?2 AND born_rev <= ?3 AND died_rev > ?3
         UNION ALL
         SELECT d.ino, d.parent, d.name, tree.path || '/' || d.name FROM tree JOIN dirents d ON d.parent = tree.ino
         WHERE d.born_rev <= ?3
         UNION ALL
         SELECT h.ino, h.parent, h.name, tree.path || '/' || h.name FROM tree JOIN dirents_hist h ON h.parent = tree.ino
         WHERE h.born_rev <= ?3 AND h.died_rev > ?3
       ),
       inodes_at AS (
         SELECT ${INODE_COLUMNS} FROM inodes WHERE born_rev <= ?3
         UNION ALL
         SELECT ${INODE_COLUMNS} FROM inodes_hist WHERE born_rev <= ?3 AND died_rev > ?3
       )
       SELECT i.*, tree.name AS name, tree.parent AS parent, tree.path AS path
       FROM tree JOIN inodes_at i ON i.ino = tree.ino WHERE tree.path > ?4 ORDER BY tree.path LIMIT ?5`,
      prefix,
      dirIno,
      rev,
      options.after ?? "",
      options.limit ?? -1,
    )
    .toArray();
}

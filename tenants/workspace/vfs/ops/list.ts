/** list: a directory's entries (or a whole subtree), in path order, a page at a time. */
import { workspaceLimits } from "../../limits.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Stat, Store } from "../store.ts";
import { walk } from "../walk.ts";

export interface ListOptions {
  recursive?: boolean;
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string | undefined;
}

export function list(
  store: Store,
  path: string,
  options: ListOptions = {},
): FsResult<{ entries: Stat[]; nextCursor: string | null }> {
  const dir = store.resolve(path, true);
  if (!dir.ok) return dir;
  if (dir.inode.type !== "dir") return fail("ENOTDIR", `not a directory: ${path}`, path);
  const limit = Math.min(options.limit ?? workspaceLimits.listPageDefault, workspaceLimits.listPageMax);
  const rows = walk(store, dir.ino, dir.path, { after: options.cursor, limit: limit + 1, shallow: !options.recursive });
  const page = rows.slice(0, limit);
  return {
    ok: true,
    entries: page.map((row) => store.stat(row.path, row)),
    nextCursor: rows.length > limit ? (page.at(-1)?.path ?? null) : null,
  };
}

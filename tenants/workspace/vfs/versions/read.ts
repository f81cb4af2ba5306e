/** Reading the tree as it was at a revision: read, stat and list, as their live namesakes answer. */
import { workspaceLimits } from "../../limits.ts";
import { contentStream } from "../content.ts";
import { type FsResult, fail } from "../errors.ts";
import type { ReadOptions } from "../ops/read.ts";
import type { Stat, Store } from "../store.ts";
import { walkAt } from "../walk.ts";
import { RevisionTree } from "./at.ts";

export function readAt(
  store: Store,
  rev: number,
  path: string,
  options: ReadOptions = {},
): FsResult<{ stat: Stat; start: number; end: number; body: ReadableStream<Uint8Array> }> {
  const tree = new RevisionTree(store.sql, rev);
  const resolved = store.resolve(path, true, tree);
  if (!resolved.ok) return resolved;
  if (resolved.inode.type === "dir") return fail("EISDIR", `is a directory: ${path}`, path);
  const size = resolved.inode.size;
  const start = options.offset ?? 0;
  if (start < 0 || (start > 0 && start >= size) || (options.length !== undefined && options.length < 0)) {
    return fail("EINVAL", `range starting at ${start} is outside a ${size}-byte file`, path);
  }
  const end = options.length === undefined ? size : Math.min(size, start + options.length);
  // The chunk list is read now; its blobs are referenced by the version, so GC keeps them.
  const body = contentStream(store, tree.chunks(resolved.ino), start, end);
  return { ok: true, stat: store.stat(resolved.path, resolved.inode), start, end, body };
}

export function statAt(store: Store, rev: number, path: string, follow = true): FsResult<{ stat: Stat }> {
  const resolved = store.resolve(path, follow, new RevisionTree(store.sql, rev));
  return resolved.ok ? { ok: true, stat: store.stat(resolved.path, resolved.inode) } : resolved;
}

/** A directory's entries at a revision (its whole subtree with `recursive`), in path order, a page at a time, as `list` answers. */
export function listAt(
  store: Store,
  rev: number,
  path: string,
  options: { recursive?: boolean; limit?: number; cursor?: string | undefined } = {},
): FsResult<{ entries: Stat[]; nextCursor: string | null }> {
  const tree = new RevisionTree(store.sql, rev);
  const dir = store.resolve(path, true, tree);
  if (!dir.ok) return dir;
  if (dir.inode.type !== "dir") return fail("ENOTDIR", `not a directory: ${path}`, path);
  const limit = Math.min(options.limit ?? workspaceLimits.listPageDefault, workspaceLimits.listPageMax);
  const prefix = dir.path === "/" ? "" : dir.path;
  if (options.recursive) {
    const rows = walkAt(store, rev, dir.ino, dir.path, { after: options.cursor ?? "", limit: limit + 1 });
    const entries = rows.slice(0, limit).map((row) => store.stat(row.path, row));
    return { ok: true, entries, nextCursor: rows.length > limit ? (entries.at(-1)?.path ?? null) : null };
  }
  const rows = childrenAt(tree, dir.ino, prefix, options.cursor, limit + 1);
  const entries: Stat[] = [];
  for (const row of rows.slice(0, limit)) {
    const inode = tree.inode(row.ino);
    if (inode) entries.push(store.stat(row.path, inode));
  }
  return { ok: true, entries, nextCursor: rows.length > limit ? (entries.at(-1)?.path ?? null) : null };
}

function childrenAt(tree: RevisionTree, dir: number, prefix: string, cursor: string | undefined, limit: number) {
  const after = cursor?.startsWith(`${prefix}/`) ? cursor.slice(prefix.length + 1) : "";
  return tree
    .children(dir)
    .filter((entry) => entry.name > after)
    .slice(0, limit)
    .map((entry) => ({ ino: entry.ino, path: `${prefix}/${entry.name}` }));
}

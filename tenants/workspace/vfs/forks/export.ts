/**
 * A revision's tree as pages of JSON rows, for a fork to copy (import.ts). SQLite builds
 * each page itself (`json_group_array`), so a page of thousands of rows is one statement
 * on this side and one `json_each` insert on the other, with no row-by-row JavaScript in
 * between. A fork's import pulls them in the background (import.ts), a small call at a time.
 *
 * Rows are those alive at the revision (live rows born by it, history rows alive at it:
 * versions/at.ts), walked in primary-key order; the cursor is the last key sent. A page
 * stops at `forkPageBytesMax` of JSON (a running sum over the rows in key order), because a
 * Durable Object's SQLite holds at most 2 MB in one value, and at `forkPageRowsMax` rows;
 * and never passes the call's own budget, so a small call (the background import's) is one
 * small page and builds no rows it will not send.
 */
import { workspaceLimits } from "../../limits.ts";
import type { Store } from "../store.ts";

/** The three tables a tree is made of, in the order they are sent. */
export const FORK_TABLES = ["inodes", "dirents", "chunks"] as const;
export type ForkTable = (typeof FORK_TABLES)[number];

interface TableShape {
  live: string;
  hist: string;
  /** The primary key, in order: the cursor and the page order. */
  key: readonly string[];
  /** The columns sent, in the order import.ts reads them. */
  columns: readonly string[];
}

export const TABLE_SHAPES: Record<ForkTable, TableShape> = {
  inodes: {
    live: "inodes",
    hist: "inodes_hist",
    key: ["ino"],
    columns: [
      "ino",
      "type",
      "mode",
      "size",
      "mtime_ms",
      "ctime_ms",
      "etag",
      "target",
      "entries",
      "uid",
      "gid",
      "mtime_nsec",
      "nlink",
    ],
  },
  dirents: { live: "dirents", hist: "dirents_hist", key: ["parent", "name"], columns: ["parent", "name", "ino"] },
  chunks: {
    live: "file_chunks",
    hist: "file_chunks_hist",
    key: ["ino", "idx"],
    columns: ["ino", "idx", "hash", "size"],
  },
};

/** Where an export resumes: the table and the last key sent in it (none: from its start). */
export interface ForkCursor {
  table: ForkTable;
  after: (string | number)[] | null;
}

export interface ForkPage {
  table: ForkTable;
  /** A JSON array of rows, each an array of `TABLE_SHAPES[table].columns`. */
  rows: string;
  count: number;
}

/**
 * Pages of the tree at `rev` from `cursor` until about `callBytesMax` of JSON; `next` is
 * where to resume, null when the whole tree has been sent.
 */
export function exportPages(
  store: Store,
  rev: number,
  cursor: ForkCursor | null,
  callBytesMax: number = workspaceLimits.forkExportCallBytesMax,
): { pages: ForkPage[]; next: ForkCursor | null } {
  const pages: ForkPage[] = [];
  let at: ForkCursor | null = cursor ?? { table: "inodes", after: null };
  let bytes = 0;
  // A row of JSON is at least a few dozen bytes: a call never builds many more rows than fit.
  const pageBytesMax = Math.min(workspaceLimits.forkPageBytesMax, callBytesMax);
  const pageRowsMax = Math.min(workspaceLimits.forkPageRowsMax, Math.ceil(callBytesMax / 64));
  while (at && bytes < callBytesMax) {
    const page = onePage(store, rev, at, pageBytesMax, pageRowsMax);
    if (page.count === 0) {
      const following: ForkTable | undefined = FORK_TABLES[FORK_TABLES.indexOf(at.table) + 1];
      at = following ? { table: following, after: null } : null;
      continue;
    }
    pages.push({ table: at.table, rows: page.rows, count: page.count });
    bytes += page.rows.length;
    at = { table: at.table, after: page.last };
  }
  return { pages, next: at };
}

function onePage(
  store: Store,
  rev: number,
  cursor: ForkCursor,
  bytesMax: number,
  rowsMax: number,
): { rows: string; count: number; last: (string | number)[] } {
  const shape = TABLE_SHAPES[cursor.table];
  const key = shape.key.join(", ");
  const columns = shape.columns.join(", ");
  const marks = shape.key.map(() => "?").join(", ");
  const after = cursor.after ? `(${key}) > (${marks}) AND` : "";
  const afterParams = cursor.after ?? [];
  // At the live revision no history row is alive (each died by now), so the live table
  // alone is read, in its key order, with no union to sort.
  const rows =
    rev < store.meta("revision")
      ? `SELECT ${columns} FROM ${shape.live} WHERE ${after} born_rev <= ?
         UNION ALL
         SELECT ${columns} FROM ${shape.hist} WHERE ${after} born_rev <= ? AND died_rev > ?`
      : `SELECT ${columns} FROM ${shape.live} WHERE ${after} born_rev <= ?`;
  const rowParams =
    rev < store.meta("revision") ? [...afterParams, rev, ...afterParams, rev, rev] : [...afterParams, rev];
  // The bare key columns beside max(total) come from the row holding the max (SQLite's
  // documented rule for one max() aggregate): the last row of the page, the next cursor.
  const row = store.sql
    .exec<Record<string, string | number | null>>(
      `SELECT json_group_array(json(j)) AS rows, count(*) AS n, max(total) AS bytes, ${key} FROM (
         SELECT ${key}, j, sum(length(j)) OVER (ORDER BY ${key} ROWS UNBOUNDED PRECEDING) AS total FROM (
           SELECT ${key}, json_array(${columns}) AS j FROM (${rows}) ORDER BY ${key} LIMIT ?
         )
       ) WHERE total <= ? OR total = length(j)`,
      ...rowParams,
      rowsMax,
      bytesMax,
    )
    .one();
  return {
    rows: String(row.rows ?? "[]"),
    count: Number(row.n ?? 0),
    last: shape.key.map((column) => row[column] as string | number),
  };
}

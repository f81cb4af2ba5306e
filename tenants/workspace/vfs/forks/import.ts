/**
 * The fork's side of copying a tree, in the background. `startImport` makes a new, empty
 * workspace a fork in one transaction: it records the source and the pinned revision
 * (`fork_origin`), the counters the source counted at that revision, the change-log entry
 * `fork`, and the `fork_importing` mark. Pages of rows (export.ts) then come a call at a
 * time, each added with one `json_each` insert per page in its own transaction
 * (`importCall`), and the last call's transaction also makes them a workspace
 * (`finishImport`): a `blobs` row per chunk, absent until its bytes arrive (lend.ts), the
 * counters counted from the rows, and the mark cleared.
 *
 * Resumable and idempotent: where to resume is read from the rows already here (the last
 * key of the last table begun, `resumeCursor`), so an import cut short by an eviction picks
 * up where its last committed call ended, and a page that arrives twice adds nothing
 * (`INSERT OR IGNORE` on the tables' primary keys). While the mark is set nothing reads or
 * changes these rows: the workspace object answers reads from the source at the pinned
 * revision and holds every change and run until the import is done (forks.ts), so the
 * fork is never seen half-imported.
 */
import { BILLED_BYTES, insertRoot, ROOT_INO } from "../schema.ts";
import type { Store } from "../store.ts";
import { type ForkCursor, type ForkPage, TABLE_SHAPES } from "./export.ts";

/** The source of a fork still reading chunks through from it. */
export interface ForkOrigin {
  /** The source workspace object's name (`<tenantId>:<workspaceId>`). */
  source: string;
  /** The source's revision the fork was made from. */
  rev: number;
}

/** What the source counted in its tree at the pinned revision: the fork's counters from its first moment. */
export interface ForkCounts {
  sizeBytes: number;
  fileCount: number;
  inodeCount: number;
  uniqueBytes: number;
}

const MARK = "fork_importing";

export function forkOrigin(store: Store): ForkOrigin | null {
  return store.sql.exec<{ source: string; rev: number }>("SELECT source, rev FROM fork_origin").toArray()[0] ?? null;
}

/** Whether this workspace is untouched (revision 0, no origin): only such a one can become a fork. */
export function isPristine(store: Store): boolean {
  return store.meta("revision") === 0 && forkOrigin(store) === null;
}

/** Whether the fork's rows are still arriving. */
export function isImporting(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM meta WHERE key = ?", MARK).toArray().length > 0;
}

/**
 * Makes this untouched workspace a fork of `origin` whose rows are yet to come, in the
 * caller's transaction: the tree is emptied (its root too: the source's comes in its
 * place), and the counters are the source's at that revision, so the fork's answer and
 * its bill are exact from the start. Returns the revision of the `fork` change (1).
 */
export function startImport(store: Store, origin: ForkOrigin, counts: ForkCounts): number {
  store.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, 1)", MARK);
  store.sql.exec("DELETE FROM file_chunks");
  store.sql.exec("DELETE FROM dirents");
  store.sql.exec("DELETE FROM inodes");
  store.sql.exec("DELETE FROM blobs WHERE absent = 1");
  store.addMeta("inode_count", counts.inodeCount - store.meta("inode_count"));
  store.addMeta("file_count", counts.fileCount - store.meta("file_count"));
  store.addMeta("size_bytes", counts.sizeBytes - store.meta("size_bytes"));
  store.sql.exec("UPDATE meta SET value = ? WHERE key = 'unique_bytes'", counts.uniqueBytes);
  store.sql.exec(
    "INSERT INTO fork_origin (one, source, rev, forked_ms) VALUES (1, ?, ?, ?)",
    origin.source,
    origin.rev,
    store.nowMs(),
  );
  return store.recordChange("fork", ["/"]);
}

/**
 * Clears what an import of the earlier kind left (several calls under the mark, before any
 * source was recorded, cut short by an eviction): the workspace is new and empty again. An
 * import with a recorded source is resumed instead. Runs at start.
 */
export function abandonImport(sql: SqlStorage, nowMs: number): void {
  if (!isImporting(sql)) return;
  if (sql.exec("SELECT 1 FROM fork_origin").toArray().length > 0) return;
  sql.exec("DELETE FROM file_chunks");
  sql.exec("DELETE FROM dirents");
  sql.exec("DELETE FROM inodes");
  sql.exec("DELETE FROM blobs WHERE absent = 1");
  insertRoot(sql, nowMs);
  sql.exec("DELETE FROM meta WHERE key = ?", MARK);
}

/**
 * Where the import resumes: after the last key of the last table that has rows here (the
 * export sends inodes, then entries, then chunk lists, each in key order), or at the start.
 */
export function resumeCursor(sql: SqlStorage): ForkCursor {
  const chunk = sql
    .exec<{ ino: number; idx: number }>("SELECT ino, idx FROM file_chunks ORDER BY ino DESC, idx DESC LIMIT 1")
    .toArray()[0];
  if (chunk) return { table: "chunks", after: [chunk.ino, chunk.idx] };
  const entry = sql
    .exec<{ parent: number; name: string }>("SELECT parent, name FROM dirents ORDER BY parent DESC, name DESC LIMIT 1")
    .toArray()[0];
  if (entry) return { table: "dirents", after: [entry.parent, entry.name] };
  const inode = sql.exec<{ ino: number }>("SELECT ino FROM inodes ORDER BY ino DESC LIMIT 1").toArray()[0];
  return { table: "inodes", after: inode ? [inode.ino] : null };
}

const INSERTS: Record<ForkPage["table"], string> = {
  inodes: insertOf("inodes", TABLE_SHAPES.inodes.columns),
  dirents: insertOf("dirents", TABLE_SHAPES.dirents.columns),
  chunks: insertOf("file_chunks", TABLE_SHAPES.chunks.columns),
};

/** `INSERT OR IGNORE INTO table (columns…, born_rev) SELECT value ->> 0, … FROM json_each(?)`. */
function insertOf(table: string, columns: readonly string[]): string {
  const values = columns.map((_, i) => `value ->> ${i}`).join(", ");
  return `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}, born_rev) SELECT ${values}, ? FROM json_each(?)`;
}

/**
 * Adds one call's pages, born in the fork's revision, and with the last call (`last`)
 * finishes the import: all in one transaction, so a call lands whole or not at all.
 */
export function importCall(store: Store, pages: readonly ForkPage[], last: boolean): void {
  // The rows come in behind the caches' back.
  store.forget();
  const done = store.atomically(() => {
    for (const page of pages) store.sql.exec(INSERTS[page.table], store.meta("revision"), page.rows);
    if (last) finishImport(store);
    return true as const;
  });
  if (done !== true) throw new Error(`a fork's import call failed: ${done.message}`);
}

/**
 * Makes the imported rows the workspace, inside the transaction of the last call: every
 * chunk the tree names becomes an absent blob with its reference count, and the counters
 * are counted from the rows (they match what the source counted; the rows are the truth).
 */
function finishImport(store: Store): void {
  const root = store.sql.exec("SELECT 1 FROM inodes WHERE ino = ? AND type = 'dir'", ROOT_INO).toArray();
  if (root.length === 0) throw new Error("a fork's rows arrived without a root directory");
  store.sql.exec(
    `INSERT INTO blobs (hash, size, refs, held, data, absent)
     SELECT hash, max(size), count(*), count(*), x'', 1 FROM file_chunks GROUP BY hash`,
  );
  store.sql.exec(
    `UPDATE meta SET value = (SELECT coalesce(sum(${BILLED_BYTES}), 0) FROM blobs WHERE held > 0) WHERE key = 'unique_bytes'`,
  );
  const totals = store.sql
    .exec<{ inodes: number; files: number; bytes: number }>(
      `SELECT count(*) - 1 AS inodes, coalesce(sum(type = 'file'), 0) AS files,
       coalesce(sum(CASE WHEN type = 'file' THEN size ELSE 0 END), 0) AS bytes FROM inodes`,
    )
    .one();
  store.addMeta("inode_count", totals.inodes - store.meta("inode_count"));
  store.addMeta("file_count", totals.files - store.meta("file_count"));
  store.addMeta("size_bytes", totals.bytes - store.meta("size_bytes"));
  store.sql.exec("DELETE FROM meta WHERE key = ?", MARK);
}

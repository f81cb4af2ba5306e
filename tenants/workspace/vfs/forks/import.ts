/**
 * The fork's side of copying a tree: pages of rows (export.ts) go into the live tables with
 * one `json_each` insert each, and `finishFork` makes them a workspace: a `blobs` row per
 * chunk, absent until its bytes arrive (lend.ts), the counters, the change-log entry and
 * the record of the source. Only a workspace that has never changed can become a fork, so
 * there is nothing to merge.
 *
 * Crash safety: a tree that comes in one export call (about 100,000 entries) is imported,
 * finished and committed in one transaction. A larger one lands a call at a time under
 * the `fork_importing` mark, which `abandonImport` clears at the next start if the import
 * never finished; and the gateway publishes the workspace only after the import returned.
 * Either way an eviction leaves no fork or a whole one.
 */
import { insertRoot, ROOT_INO } from "../schema.ts";
import type { Store } from "../store.ts";
import { type ForkPage, TABLE_SHAPES } from "./export.ts";

/** The source of a fork still reading chunks through from it. */
export interface ForkOrigin {
  /** The source workspace object's name (`<tenantId>:<workspaceId>`). */
  source: string;
  /** The source's revision the fork was made from. */
  rev: number;
}

export function forkOrigin(store: Store): ForkOrigin | null {
  return store.sql.exec<{ source: string; rev: number }>("SELECT source, rev FROM fork_origin").toArray()[0] ?? null;
}

/** Whether this workspace is untouched (revision 0, no origin): only such a one can become a fork. */
export function isPristine(store: Store): boolean {
  return store.meta("revision") === 0 && forkOrigin(store) === null;
}

/**
 * Empties the tree of an untouched workspace (its root too: the source's comes in its
 * place) and marks the import as running, inside the transaction of the first page.
 */
export function startFork(store: Store): void {
  store.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('fork_importing', 1)");
  store.sql.exec("DELETE FROM file_chunks");
  store.sql.exec("DELETE FROM dirents");
  store.sql.exec("DELETE FROM inodes");
  store.sql.exec("DELETE FROM blobs WHERE absent = 1");
}

/**
 * Clears what an import cut short left (an import of more than one call, interrupted by
 * an eviction): the workspace is new and empty again, as it was before. Runs at start.
 */
export function abandonImport(sql: SqlStorage, nowMs: number): void {
  const running = sql.exec("SELECT 1 FROM meta WHERE key = 'fork_importing'").toArray().length > 0;
  if (!running) return;
  sql.exec("DELETE FROM file_chunks");
  sql.exec("DELETE FROM dirents");
  sql.exec("DELETE FROM inodes");
  sql.exec("DELETE FROM blobs WHERE absent = 1");
  insertRoot(sql, nowMs);
  sql.exec("DELETE FROM meta WHERE key = 'fork_importing'");
}

const INSERTS: Record<ForkPage["table"], string> = {
  inodes: insertOf("inodes", TABLE_SHAPES.inodes.columns),
  dirents: insertOf("dirents", TABLE_SHAPES.dirents.columns),
  chunks: insertOf("file_chunks", TABLE_SHAPES.chunks.columns),
};

/** `INSERT INTO table (columns…, born_rev) SELECT value ->> 0, … FROM json_each(?)`. */
function insertOf(table: string, columns: readonly string[]): string {
  const values = columns.map((_, i) => `value ->> ${i}`).join(", ");
  return `INSERT INTO ${table} (${columns.join(", ")}, born_rev) SELECT ${values}, ? FROM json_each(?)`;
}

/** Adds one page of rows, born in the revision the fork will commit as (1). */
export function importPage(store: Store, page: ForkPage): void {
  store.sql.exec(INSERTS[page.table], store.meta("revision") + 1, page.rows);
}

/**
 * Makes the imported rows the workspace, inside the transaction of the last page: every
 * chunk the tree names becomes an absent blob with its reference count, the counters are
 * counted, the change log says `fork`, and the source is recorded so absent chunks are read
 * through from it.
 */
export function finishFork(store: Store, origin: ForkOrigin): number {
  const root = store.sql.exec("SELECT 1 FROM inodes WHERE ino = ? AND type = 'dir'", ROOT_INO).toArray();
  if (root.length === 0) throw new Error("a fork's rows arrived without a root directory");
  store.sql.exec(
    `INSERT INTO blobs (hash, size, refs, held, data, absent)
     SELECT hash, max(size), count(*), count(*), x'', 1 FROM file_chunks GROUP BY hash`,
  );
  store.sql.exec(
    "UPDATE meta SET value = (SELECT coalesce(sum(size), 0) FROM blobs WHERE held > 0) WHERE key = 'unique_bytes'",
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
  store.sql.exec(
    "INSERT INTO fork_origin (one, source, rev, forked_ms) VALUES (1, ?, ?, ?)",
    origin.source,
    origin.rev,
    store.nowMs(),
  );
  store.sql.exec("DELETE FROM meta WHERE key = 'fork_importing'");
  return store.recordChange("fork", ["/"]);
}

/**
 * computerd's durable state in `<stateDir>/state.db` (SQLite, WAL). It survives a SIGKILL:
 * every statement is committed before the FUSE op that depends on it proceeds, and the
 * process dying never loses what SQLite already handed to the kernel. `synchronous = OFF`
 * skips the fsyncs, which protect only against the machine losing power; the replica
 * itself is never fsynced either, so they bought nothing, and a dirty insert costs about
 * half as much without them (measured 25 → 14 µs, paid on the first write to each path).
 *
 * - `meta`: the last remote revision applied to the replica.
 * - `files`: per file path, the object's ETag of the local copy and whether its content is
 *   here yet (`hydrated = 0`: the replica holds a sparse placeholder of the right size).
 *   Rows exist only for files that came from or went to the object, never a full tree in memory.
 *   `ino` is the object's inode number of the file and `local_ino` the replica's, both as
 *   last synced: equal numbers are hard links, which pull recreates and push sends as links.
 * - `dirty`: paths changed on the mount and not yet pushed (write-ahead: inserted before the op).
 * - `synced`: per path, what the object held there as this daemon last learned it (a pull
 *   applied it, or a push made it so): the base of the path's next push (wire SyncBase). Only
 *   sync changes it, never a change on the mount, and pull leaves dirty paths alone, so while
 *   a path is dirty its row is exactly what the local change was made on top of.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { RemoteEntry, SyncBase } from "../wire/index.ts";

export interface FileRow {
  path: string;
  etag: string;
  size: number;
  hydrated: boolean;
  /** The object's inode number (RemoteEntry.ino); null or left out when unknown (kept as it was on update). */
  ino?: number | null;
  /** The replica's st_ino of the file when it was last synced; same rule. */
  localIno?: number | null;
  /** The replica's mtime (ns, decimal) when computerd pushed the file: unchanged since, unchanged content. */
  localMtimeNs?: string | null;
}

/** The smallest string greater than every path under `dir` ("/a" → "/a0", since "0" follows "/"). */
function subtreeEnd(dir: string): string {
  return `${dir}0`;
}

export class StateDb {
  readonly db: DatabaseSync;
  private readonly stmts: ReturnType<typeof prepareAll>;

  constructor(file: string) {
    // The daemon opens its state before start() makes the state directory.
    mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = OFF;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, etag TEXT NOT NULL, size INTEGER NOT NULL, hydrated INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS dirty (path TEXT PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS synced (path TEXT PRIMARY KEY, type TEXT NOT NULL, etag TEXT, target TEXT);
      CREATE TEMP TABLE seen (path TEXT PRIMARY KEY);
    `);
    // Hard links came later: a state database from before gains the two inode columns.
    const columns = this.db.prepare("PRAGMA table_info(files)").all() as { name: string }[];
    if (!columns.some((c) => c.name === "ino")) {
      this.db.exec(
        "ALTER TABLE files ADD COLUMN ino INTEGER; ALTER TABLE files ADD COLUMN local_ino INTEGER; ALTER TABLE files ADD COLUMN local_mtime_ns TEXT;",
      );
    }
    this.db.exec(`
      CREATE INDEX IF NOT EXISTS files_ino ON files (ino) WHERE ino IS NOT NULL;
      CREATE INDEX IF NOT EXISTS files_local_ino ON files (local_ino) WHERE local_ino IS NOT NULL;
    `);
    this.stmts = prepareAll(this.db);
    this.upgrade();
  }

  /**
   * A state directory from before `synced` has no bases: its dirty files take theirs from the
   * ETag their replica copy came with (the files row, which a local change keeps), and the
   * next pull walks the whole tree to record everyone else's. A dirty path left without one
   * is pushed on the base "nothing": where the object has something, it becomes a conflict
   * copy rather than a replacement.
   */
  private upgrade(): void {
    const { user_version: version } = this.db.prepare("PRAGMA user_version").get() as { user_version: number };
    if (version >= 1) return;
    this.transaction(() => {
      if (this.appliedRev() > 0) {
        this.db.exec(
          "INSERT OR IGNORE INTO synced (path, type, etag) SELECT path, 'file', etag FROM files WHERE path IN (SELECT path FROM dirty)",
        );
        this.setAppliedRev(0);
      }
      this.db.exec("PRAGMA user_version = 1");
    });
  }

  appliedRev(): number {
    const row = this.stmts.getMeta.get("appliedRev") as { value: number } | undefined;
    return row?.value ?? 0;
  }

  setAppliedRev(rev: number): void {
    this.stmts.setMeta.run("appliedRev", rev);
  }

  /** Native mode: every change made in the workspace before this time is on the object (0: none known). */
  cleanMs(): number {
    const row = this.stmts.getMeta.get("cleanMs") as { value: number } | undefined;
    return row?.value ?? 0;
  }

  setCleanMs(ms: number): void {
    this.stmts.setMeta.run("cleanMs", ms);
  }

  /** Synced file paths for which `exists` says false (native mode's rescan: deleted while nobody listened). */
  filesMissingFrom(exists: (path: string) => boolean): string[] {
    return (this.stmts.allFiles.all() as { path: string }[]).map((r) => r.path).filter((p) => !exists(p));
  }

  file(path: string): FileRow | undefined {
    const row = this.stmts.getFile.get(path) as RawFileRow | undefined;
    return row && fileRow(row);
  }

  /**
   * The file rows of many paths at once, by path (a path without one is left out): one
   * statement, where a lookup per path cost a 1,000-file push about 5–10 ms of node:sqlite's
   * per-call overhead.
   */
  filesOf(paths: readonly string[]): Map<string, FileRow> {
    const rows = this.stmts.filesOf.all(JSON.stringify(paths)) as unknown as RawFileRow[];
    return new Map(rows.map((row) => [row.path, fileRow(row)]));
  }

  putFile(row: FileRow): void {
    this.stmts.putFile.run(
      row.path,
      row.etag,
      row.size,
      row.hydrated ? 1 : 0,
      row.ino ?? null,
      row.localIno ?? null,
      row.localMtimeNs ?? null,
    );
  }

  /**
   * Records placeholders a walk had the fanotify helper make, as putFile and putSynced would
   * one by one (not hydrated, no local mtime): two statements for a whole page, where a row
   * at a time cost a 36,000-file workspace's first pull about a second of the daemon's time.
   */
  putPlaced(rows: readonly { entry: RemoteEntry; localIno: number }[]): void {
    if (rows.length === 0) return;
    const json = JSON.stringify(
      rows.map(({ entry, localIno }) => [entry.path, entry.etag ?? "", entry.size, entry.ino ?? null, localIno]),
    );
    this.stmts.putPlacedFiles.run(json);
    this.stmts.putPlacedSynced.run(json);
  }

  /** Files synced as the object's inode `ino` (its hard links), by path. */
  filesWithIno(ino: number): FileRow[] {
    return (this.stmts.filesWithIno.all(ino) as unknown as RawFileRow[]).map(fileRow);
  }

  /** Files synced from the replica's inode `localIno`, by path. */
  filesWithLocalIno(localIno: number): FileRow[] {
    return (this.stmts.filesWithLocalIno.all(localIno) as unknown as RawFileRow[]).map(fileRow);
  }

  setHydrated(path: string): void {
    this.stmts.setHydrated.run(path);
  }

  forgetFile(path: string): void {
    this.stmts.deleteFile.run(path);
  }

  /** Forgets the file at `path` and, when it was a directory, every file under it. */
  forgetTree(path: string): void {
    this.stmts.deleteFile.run(path);
    const dir = path === "/" ? "" : path;
    this.stmts.deleteFilesUnder.run(`${dir}/`, subtreeEnd(dir));
  }

  unhydratedUnder(dir: string): string[] {
    const base = dir === "/" ? "" : dir;
    const rows = this.stmts.unhydratedUnder.all(`${base}/`, subtreeEnd(base)) as { path: string }[];
    return rows.map((r) => r.path);
  }

  /** The base of `path`'s next push: the object's state there as last synced, null for nothing. */
  synced(path: string): SyncBase {
    const row = this.stmts.getSynced.get(path) as SyncedRow | undefined;
    return row ? syncedBase(row) : null;
  }

  /** `synced` of many paths at once, by path (a path the object held nothing at is left out), in one statement. */
  syncedOf(paths: readonly string[]): Map<string, SyncBase> {
    const rows = this.stmts.syncedOf.all(JSON.stringify(paths)) as unknown as SyncedRow[];
    return new Map(rows.map((row) => [row.path, syncedBase(row)]));
  }

  /** Records what the object holds at `entry.path` now (pulled, or made so by a push). */
  putSynced(entry: RemoteEntry): void {
    this.stmts.putSynced.run(entry.path, entry.type, entry.etag ?? null, entry.target ?? null);
  }

  /** Records that the object holds nothing at `path`, nor (with `tree`) under it. */
  forgetSynced(path: string, tree = true): void {
    this.stmts.deleteSynced.run(path);
    if (!tree) return;
    const dir = path === "/" ? "" : path;
    this.stmts.deleteSyncedUnder.run(`${dir}/`, subtreeEnd(dir));
  }

  /** Paths under `dir` (not itself) the object held as last synced, deepest first. */
  syncedUnder(dir: string): string[] {
    const base = dir === "/" ? "" : dir;
    const rows = this.stmts.syncedUnder.all(`${base}/`, subtreeEnd(base)) as { path: string }[];
    return rows.map((r) => r.path);
  }

  /** Whether the object held anything under `dir` (not itself) as last synced. */
  hasSyncedUnder(dir: string): boolean {
    const base = dir === "/" ? "" : dir;
    return this.stmts.syncedUnderOne.get(`${base}/`, subtreeEnd(base)) !== undefined;
  }

  /** After a walk of `dir`: forgets the synced rows under it the walk did not list, except dirty paths' (bases). */
  forgetSyncedUnseen(dir: string): void {
    const base = dir === "/" ? "" : dir;
    this.stmts.deleteSyncedUnseen.run(`${base}/`, subtreeEnd(base));
  }

  addDirty(path: string): void {
    this.stmts.addDirty.run(path);
  }

  removeDirty(path: string): void {
    this.stmts.removeDirty.run(path);
  }

  allDirty(): string[] {
    return (this.stmts.allDirty.all() as { path: string }[]).map((r) => r.path);
  }

  hasDirtyUnder(dir: string): boolean {
    const base = dir === "/" ? "" : dir;
    return this.stmts.dirtyUnder.get(`${base}/`, subtreeEnd(base)) !== undefined;
  }

  clearSeen(): void {
    this.stmts.clearSeen.run();
  }

  addSeen(path: string): void {
    this.stmts.addSeen.run(path);
  }

  isSeen(path: string): boolean {
    return this.stmts.isSeen.get(path) !== undefined;
  }

  /** Runs `fn` in one transaction, so a batch of rows costs one commit; inside another, it joins that one. */
  transaction<T>(fn: () => T): T {
    if (this.db.isTransaction) return fn();
    this.db.exec("BEGIN");
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (err) {
      this.db.exec("ROLLBACK");
      throw err;
    }
  }

  close(): void {
    this.db.close();
  }
}

interface RawFileRow {
  path: string;
  etag: string;
  size: number;
  hydrated: number;
  ino: number | null;
  local_ino: number | null;
  local_mtime_ns: string | null;
}

interface SyncedRow {
  path: string;
  type: string;
  etag: string | null;
  target: string | null;
}

function syncedBase(row: SyncedRow): NonNullable<SyncBase> {
  if (row.type === "file") return { type: "file", etag: row.etag ?? "" };
  if (row.type === "symlink") return { type: "symlink", target: row.target ?? "" };
  return { type: "dir" };
}

function fileRow(row: RawFileRow): FileRow {
  return {
    path: row.path,
    etag: row.etag,
    size: row.size,
    hydrated: row.hydrated === 1,
    ino: row.ino,
    localIno: row.local_ino,
    localMtimeNs: row.local_mtime_ns,
  };
}

function prepareAll(db: DatabaseSync) {
  const s = (sql: string): StatementSync => db.prepare(sql);
  return {
    getMeta: s("SELECT value FROM meta WHERE key = ?"),
    setMeta: s("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"),
    getFile: s("SELECT path, etag, size, hydrated, ino, local_ino, local_mtime_ns FROM files WHERE path = ?"),
    filesOf: s(
      `SELECT f.path, f.etag, f.size, f.hydrated, f.ino, f.local_ino, f.local_mtime_ns
       FROM json_each(?) AS j JOIN files AS f ON f.path = j.value`,
    ),
    putFile: s(
      `INSERT INTO files (path, etag, size, hydrated, ino, local_ino, local_mtime_ns) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET etag = excluded.etag, size = excluded.size, hydrated = excluded.hydrated,
       ino = coalesce(excluded.ino, files.ino), local_ino = coalesce(excluded.local_ino, files.local_ino),
       local_mtime_ns = excluded.local_mtime_ns`,
    ),
    // Rows of putPlaced: [path, etag, size, ino, localIno]. The WHERE keeps SQLite from reading
    // ON CONFLICT as part of the SELECT.
    putPlacedFiles: s(
      `INSERT INTO files (path, etag, size, hydrated, ino, local_ino, local_mtime_ns)
       SELECT value ->> 0, value ->> 1, value ->> 2, 0, value ->> 3, value ->> 4, NULL FROM json_each(?) WHERE true
       ON CONFLICT(path) DO UPDATE SET etag = excluded.etag, size = excluded.size, hydrated = excluded.hydrated,
       ino = coalesce(excluded.ino, files.ino), local_ino = coalesce(excluded.local_ino, files.local_ino),
       local_mtime_ns = excluded.local_mtime_ns`,
    ),
    putPlacedSynced: s(
      `INSERT INTO synced (path, type, etag, target)
       SELECT value ->> 0, 'file', value ->> 1, NULL FROM json_each(?) WHERE true
       ON CONFLICT(path) DO UPDATE SET type = excluded.type, etag = excluded.etag, target = excluded.target`,
    ),
    filesWithIno: s(
      "SELECT path, etag, size, hydrated, ino, local_ino, local_mtime_ns FROM files WHERE ino = ? ORDER BY path",
    ),
    filesWithLocalIno: s(
      "SELECT path, etag, size, hydrated, ino, local_ino, local_mtime_ns FROM files WHERE local_ino = ? ORDER BY path",
    ),
    setHydrated: s("UPDATE files SET hydrated = 1 WHERE path = ?"),
    deleteFile: s("DELETE FROM files WHERE path = ?"),
    deleteFilesUnder: s("DELETE FROM files WHERE path > ? AND path < ?"),
    unhydratedUnder: s("SELECT path FROM files WHERE hydrated = 0 AND path > ? AND path < ?"),
    addDirty: s("INSERT OR IGNORE INTO dirty (path) VALUES (?)"),
    removeDirty: s("DELETE FROM dirty WHERE path = ?"),
    allDirty: s("SELECT path FROM dirty"),
    allFiles: s("SELECT path FROM files"),
    dirtyUnder: s("SELECT path FROM dirty WHERE path > ? AND path < ? LIMIT 1"),
    getSynced: s("SELECT path, type, etag, target FROM synced WHERE path = ?"),
    syncedOf: s("SELECT s.path, s.type, s.etag, s.target FROM json_each(?) AS j JOIN synced AS s ON s.path = j.value"),
    putSynced: s(
      "INSERT INTO synced (path, type, etag, target) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET type = excluded.type, etag = excluded.etag, target = excluded.target",
    ),
    deleteSynced: s("DELETE FROM synced WHERE path = ?"),
    deleteSyncedUnder: s("DELETE FROM synced WHERE path > ? AND path < ?"),
    syncedUnder: s("SELECT path FROM synced WHERE path > ? AND path < ? ORDER BY path DESC"),
    syncedUnderOne: s("SELECT 1 AS x FROM synced WHERE path > ? AND path < ? LIMIT 1"),
    deleteSyncedUnseen: s(
      "DELETE FROM synced WHERE path > ? AND path < ? AND path NOT IN (SELECT path FROM seen) AND path NOT IN (SELECT path FROM dirty)",
    ),
    clearSeen: s("DELETE FROM seen"),
    addSeen: s("INSERT OR IGNORE INTO seen (path) VALUES (?)"),
    isSeen: s("SELECT 1 AS x FROM seen WHERE path = ?"),
  };
}

/**
 * The workspace filesystem's SQLite schema, as forward-only migrations applied in order
 * when the object starts. `meta.schema_version` records how far a database has come.
 *
 * Shape, and why:
 * - `inodes` + `dirents`: a name is a row in its parent directory, so renaming or moving a
 *   directory of any size changes one row, never its subtree.
 * - `file_chunks` → `blobs`: a file is a list of content-addressed chunks; identical
 *   content (in one file, across files, after a copy) is stored once, with `refs` counting
 *   uses. Chunks whose count reaches zero are reclaimed by the GC alarm.
 * - `upload_chunks`: chunks of a write still streaming in. They protect their blobs from GC
 *   and are discarded if the object restarts mid-upload.
 * - `changes`: one row per mutation with the paths it touched (sync, history, watching).
 * - Hard links: several `dirents` may name one inode (`inodes.nlink` counts them); content,
 *   size, mode, owner and times belong to the inode, so they are shared by every name.
 * - Snapshots and forks (later): a snapshot copies `inodes`/`dirents`/`file_chunks` rows
 *   under a snapshot id and adds refs, never copying content; see docs/vfs.md.
 */
import { BOX_DEFAULT_OWNER } from "../../../container/wire/index.ts";

export const ROOT_INO = 1;

/**
 * Who owns what the workspace makes, in the box's terms: its default user and group (the
 * container executor's `boxLimits.uid`, container/src/limits.ts). The API, the shell and the
 * javascript executors create as this user; container sync carries the box's own ids.
 */
export const DEFAULT_OWNER = BOX_DEFAULT_OWNER;

export const MIGRATIONS: readonly string[][] = [
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
    `CREATE TABLE inodes (
      ino INTEGER PRIMARY KEY,
      type TEXT NOT NULL CHECK (type IN ('file', 'dir', 'symlink')),
      mode INTEGER NOT NULL,
      size INTEGER NOT NULL DEFAULT 0,
      mtime_ms INTEGER NOT NULL,
      ctime_ms INTEGER NOT NULL,
      etag TEXT,
      target TEXT
    )`,
    `CREATE TABLE dirents (
      parent INTEGER NOT NULL,
      name TEXT NOT NULL,
      ino INTEGER NOT NULL UNIQUE,
      PRIMARY KEY (parent, name)
    ) WITHOUT ROWID`,
    `CREATE TABLE blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL, refs INTEGER NOT NULL, data BLOB NOT NULL)`,
    `CREATE INDEX blobs_garbage ON blobs (hash) WHERE refs = 0`,
    `CREATE TABLE file_chunks (
      ino INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      hash TEXT NOT NULL,
      size INTEGER NOT NULL,
      PRIMARY KEY (ino, idx)
    ) WITHOUT ROWID`,
    `CREATE TABLE upload_chunks (upload TEXT NOT NULL, idx INTEGER NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (upload, idx))`,
    `CREATE TABLE changes (rev INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, op TEXT NOT NULL, paths TEXT NOT NULL)`,
    `CREATE TABLE change_cursors (name TEXT PRIMARY KEY, rev INTEGER NOT NULL)`,
  ],
  // 2: a directory's entry count, so the per-directory limit costs no count(*) per create.
  [
    `ALTER TABLE inodes ADD COLUMN entries INTEGER NOT NULL DEFAULT 0`,
    `UPDATE inodes SET entries = (SELECT count(*) FROM dirents WHERE dirents.parent = inodes.ino) WHERE type = 'dir'`,
  ],
  // 3: POSIX metadata and hard links. Owner (the box's view: 1000 is its default user, 0 its
  // root), mtime to the nanosecond, and a link count. `dirents.ino` loses UNIQUE, which
  // SQLite can only do by rebuilding the table; its index keeps "every name of an inode" fast.
  // A directory's nlink is 2 + its subdirectories, as on Linux.
  [
    `ALTER TABLE inodes ADD COLUMN uid INTEGER NOT NULL DEFAULT ${DEFAULT_OWNER.uid}`,
    `ALTER TABLE inodes ADD COLUMN gid INTEGER NOT NULL DEFAULT ${DEFAULT_OWNER.gid}`,
    `ALTER TABLE inodes ADD COLUMN mtime_nsec INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE inodes ADD COLUMN nlink INTEGER NOT NULL DEFAULT 1`,
    `CREATE TABLE dirents_v3 (
      parent INTEGER NOT NULL,
      name TEXT NOT NULL,
      ino INTEGER NOT NULL,
      PRIMARY KEY (parent, name)
    ) WITHOUT ROWID`,
    `INSERT INTO dirents_v3 (parent, name, ino) SELECT parent, name, ino FROM dirents`,
    `DROP TABLE dirents`,
    `ALTER TABLE dirents_v3 RENAME TO dirents`,
    `CREATE INDEX dirents_ino ON dirents (ino)`,
    `UPDATE inodes SET nlink = 2 + (SELECT count(*) FROM dirents d JOIN inodes c ON c.ino = d.ino
       WHERE d.parent = inodes.ino AND c.type = 'dir') WHERE type = 'dir'`,
  ],
];

/** Applies the migrations not yet applied, up to `upTo` (all of them but in tests). */
export function migrate(sql: SqlStorage, nowMs: number, upTo: number = MIGRATIONS.length): void {
  const hasMeta = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
  let version = hasMeta
    ? (sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0]?.value ?? 0)
    : 0;
  for (; version < upTo; version++) {
    for (const statement of MIGRATIONS[version] ?? []) sql.exec(statement);
    if (version === 0) {
      sql.exec(
        "INSERT INTO inodes (ino, type, mode, size, mtime_ms, ctime_ms) VALUES (?, 'dir', ?, 0, ?, ?)",
        ROOT_INO,
        0o755,
        nowMs,
        nowMs,
      );
      for (const key of ["size_bytes", "file_count", "inode_count", "revision"]) {
        sql.exec("INSERT INTO meta (key, value) VALUES (?, 0)", key);
      }
    }
    sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", version + 1);
  }
}

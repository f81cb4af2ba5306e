/**
 * The workspace filesystem's SQLite schema, as forward-only migrations applied in order
 * when the object starts, by the runner every object database shares
 * (tenants/sqlMigrations.ts). `meta.schema_version` records how far a database has come.
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
 * - Versions (4): every row of `inodes`, `dirents` and `file_chunks` records the revision
 *   it was born in (`born_rev`). A change that ends a row version a snapshot or the history
 *   window still needs first moves it to the matching `*_hist` table with the revision it
 *   died in, so the live tables (and every live read) stay exactly as fast as before, and
 *   reading at revision R is "live rows born by R, plus history rows alive at R". A
 *   snapshot is one row naming a revision. See docs/vfs.md, "Versions".
 * - Forks (5): a fork copies a revision's rows and reads its chunks through from its source
 *   until it has them all; `held` and `unique_bytes` count what storage bills. See
 *   docs/vfs.md, "Forks".
 * - Names and runs (6): the run a snapshot was taken before, the version a restore went
 *   back to, and the revisions a run passed through (one history version per run per row).
 * - Packing (7): a chunk only the past still holds is stored as its difference from the
 *   chunk that replaced it, so an edit kept for a snapshot costs about the bytes it changed.
 *   See docs/vfs.md, "Packing the past".
 * - Billing packed chunks (8): storage counts a packed chunk by the bytes it keeps.
 */
import { BOX_DEFAULT_OWNER } from "../../../container/wire/index.ts";
import type { SqlSchema } from "../../sqlMigrations.ts";

export const ROOT_INO = 1;

/**
 * The bytes a `blobs` row keeps, which storage bills and the stats count: a whole chunk's
 * size, or a packed chunk's difference from its base (schema step 7). A chunk a fork has not
 * copied yet (`absent`) is never packed, so it counts its whole size. `row` qualifies the
 * columns (a trigger's NEW or OLD); bare for a plain query over `blobs`.
 */
export function billed(row?: string): string {
  const col = (name: string) => (row ? `${row}.${name}` : name);
  return `CASE WHEN ${col("base")} IS NULL THEN ${col("size")} ELSE length(${col("data")}) END`;
}
export const BILLED_BYTES = billed();

/**
 * Who owns what the workspace makes, in the box's terms: its default user and group (the
 * container executor's `boxLimits.uid`, container/src/limits.ts). The API, the shell and the
 * javascript executors create as this user; container sync carries the box's own ids.
 */
export const DEFAULT_OWNER = BOX_DEFAULT_OWNER;

/** The columns of an inode row version, in the order both `inodes` and `inodes_hist` list them. */
export const INODE_COLUMNS =
  "ino, type, mode, size, mtime_ms, ctime_ms, etag, target, entries, uid, gid, mtime_nsec, nlink, born_rev";

export const MIGRATIONS: readonly string[][] = [
  [
    // IF NOT EXISTS: the shared runner makes `meta` before any step. For a database that ran
    // this step before, the statement means what it meant then.
    `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
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
  // 4: versions. Live rows learn the revision they were born in (0 for everything before);
  // retired versions live in the `_hist` tables with the revision they died in, and blob
  // `refs` count history rows too. The born_rev indexes make a diff cost its changes.
  [
    `ALTER TABLE inodes ADD COLUMN born_rev INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE dirents ADD COLUMN born_rev INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE file_chunks ADD COLUMN born_rev INTEGER NOT NULL DEFAULT 0`,
    `CREATE INDEX inodes_born ON inodes (born_rev)`,
    `CREATE INDEX dirents_born ON dirents (born_rev)`,
    `CREATE TABLE inodes_hist (
      ino INTEGER NOT NULL,
      type TEXT NOT NULL,
      mode INTEGER NOT NULL,
      size INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,
      ctime_ms INTEGER NOT NULL,
      etag TEXT,
      target TEXT,
      entries INTEGER NOT NULL,
      uid INTEGER NOT NULL,
      gid INTEGER NOT NULL,
      mtime_nsec INTEGER NOT NULL,
      nlink INTEGER NOT NULL,
      born_rev INTEGER NOT NULL,
      died_rev INTEGER NOT NULL,
      PRIMARY KEY (ino, born_rev)
    ) WITHOUT ROWID`,
    `CREATE INDEX inodes_hist_born ON inodes_hist (born_rev)`,
    `CREATE INDEX inodes_hist_died ON inodes_hist (died_rev)`,
    `CREATE TABLE dirents_hist (
      parent INTEGER NOT NULL,
      name TEXT NOT NULL,
      ino INTEGER NOT NULL,
      born_rev INTEGER NOT NULL,
      died_rev INTEGER NOT NULL,
      PRIMARY KEY (parent, name, born_rev)
    ) WITHOUT ROWID`,
    `CREATE INDEX dirents_hist_ino ON dirents_hist (ino)`,
    `CREATE INDEX dirents_hist_born ON dirents_hist (born_rev)`,
    `CREATE INDEX dirents_hist_died ON dirents_hist (died_rev)`,
    `CREATE TABLE file_chunks_hist (
      ino INTEGER NOT NULL,
      born_rev INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      hash TEXT NOT NULL,
      size INTEGER NOT NULL,
      died_rev INTEGER NOT NULL,
      PRIMARY KEY (ino, born_rev, idx)
    ) WITHOUT ROWID`,
    `CREATE INDEX file_chunks_hist_died ON file_chunks_hist (died_rev)`,
    `CREATE TABLE snapshots (
      id TEXT PRIMARY KEY,
      rev INTEGER NOT NULL,
      name TEXT,
      description TEXT,
      created_ms INTEGER NOT NULL,
      size_bytes INTEGER NOT NULL,
      file_count INTEGER NOT NULL,
      actor TEXT
    )`,
    `CREATE INDEX snapshots_rev ON snapshots (rev)`,
    `ALTER TABLE changes ADD COLUMN actor TEXT`,
    `INSERT OR IGNORE INTO meta (key, value) VALUES ('history_ms', 0)`,
  ],
  // 5: forks and unique bytes (docs/vfs.md, "Forks"). A fork's chunks arrive lazily from its
  // source: until then a chunk is a `blobs` row with `absent = 1` (its size and references
  // known, its bytes not). A source pins the revision each unfinished fork was made from in
  // `fork_pins`, as a snapshot pins one; a fork names its source in `fork_origin`.
  // `held` counts a chunk's uses by live rows and by history rows a snapshot pins, and
  // `meta.unique_bytes` sums the sizes of chunks held at least once: what storage bills.
  // Triggers keep both exact, so the many set-wise statements that move chunk rows need no
  // bookkeeping of their own.
  [
    `ALTER TABLE blobs ADD COLUMN held INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE blobs ADD COLUMN absent INTEGER NOT NULL DEFAULT 0`,
    `CREATE INDEX blobs_absent ON blobs (hash) WHERE absent = 1`,
    `CREATE TABLE fork_pins (fork TEXT PRIMARY KEY, rev INTEGER NOT NULL, created_ms INTEGER NOT NULL)`,
    `CREATE TABLE fork_origin (
      one INTEGER PRIMARY KEY CHECK (one = 1),
      source TEXT NOT NULL,
      rev INTEGER NOT NULL,
      forked_ms INTEGER NOT NULL
    )`,
    `UPDATE blobs SET held = uses.n FROM (
       SELECT hash, count(*) AS n FROM (
         SELECT hash FROM file_chunks
         UNION ALL
         SELECT hash FROM file_chunks_hist h
         WHERE EXISTS (SELECT 1 FROM snapshots s WHERE s.rev >= h.born_rev AND s.rev < h.died_rev)
       ) GROUP BY hash
     ) AS uses WHERE uses.hash = blobs.hash`,
    `INSERT OR REPLACE INTO meta (key, value) VALUES ('unique_bytes', (SELECT coalesce(sum(size), 0) FROM blobs WHERE held > 0))`,
    `CREATE TRIGGER file_chunks_held_in AFTER INSERT ON file_chunks
     BEGIN UPDATE blobs SET held = held + 1 WHERE hash = NEW.hash; END`,
    `CREATE TRIGGER file_chunks_held_out AFTER DELETE ON file_chunks
     BEGIN UPDATE blobs SET held = held - 1 WHERE hash = OLD.hash; END`,
    `CREATE TRIGGER file_chunks_hist_held_in AFTER INSERT ON file_chunks_hist
     WHEN EXISTS (SELECT 1 FROM snapshots s WHERE s.rev >= NEW.born_rev AND s.rev < NEW.died_rev)
     BEGIN UPDATE blobs SET held = held + 1 WHERE hash = NEW.hash; END`,
    `CREATE TRIGGER file_chunks_hist_held_out AFTER DELETE ON file_chunks_hist
     WHEN EXISTS (SELECT 1 FROM snapshots s WHERE s.rev >= OLD.born_rev AND s.rev < OLD.died_rev)
     BEGIN UPDATE blobs SET held = held - 1 WHERE hash = OLD.hash; END`,
    `CREATE TRIGGER blobs_unique_bytes AFTER UPDATE OF held ON blobs WHEN (OLD.held > 0) <> (NEW.held > 0)
     BEGIN UPDATE meta SET value = value + CASE WHEN NEW.held > 0 THEN NEW.size ELSE -NEW.size END
     WHERE key = 'unique_bytes'; END`,
  ],
  // 6: the time machine names what it did. A snapshot taken by `snapshot: "before"` on a run
  // records the run's id; a restore's change-log entry records the version it went back to
  // (a snapshot id, or a revision as text), so the history and the timeline can say so.
  // A run keeps one version per row (store/history.ts `collapses`): the revisions it passed through
  // whose versions it replaced itself are noted per run in `run_spans`, [from_rev, to_rev),
  // and are not readable.
  [
    `ALTER TABLE snapshots ADD COLUMN exec_id TEXT`,
    `ALTER TABLE changes ADD COLUMN restored_to TEXT`,
    `CREATE TABLE run_spans (actor TEXT PRIMARY KEY, from_rev INTEGER NOT NULL, to_rev INTEGER NOT NULL)`,
  ],
  // 7: the past, packed (store/pack.ts). A chunk may be stored as the bytes that differ from
  // another, whole chunk (`base`): its first `base_head` bytes and last `base_tail` bytes are
  // the base's, and `data` holds the rest. A packed chunk counts one reference on its base.
  // `pack_*` in `meta` is how far maintenance has looked through `file_chunks_hist`.
  [
    `ALTER TABLE blobs ADD COLUMN base TEXT`,
    `ALTER TABLE blobs ADD COLUMN base_head INTEGER`,
    `ALTER TABLE blobs ADD COLUMN base_tail INTEGER`,
    `CREATE INDEX blobs_base ON blobs (base) WHERE base IS NOT NULL`,
  ],
  // 8: storage bills a packed chunk by the bytes it keeps (BILLED_BYTES), not its whole size:
  // what a snapshot costs after small edits is about what they changed. The held trigger
  // counts the billed size, a second one follows a held chunk being packed or made whole.
  [
    `DROP TRIGGER blobs_unique_bytes`,
    `CREATE TRIGGER blobs_unique_bytes AFTER UPDATE OF held ON blobs WHEN (OLD.held > 0) <> (NEW.held > 0)
     BEGIN UPDATE meta SET value = value + CASE WHEN NEW.held > 0 THEN ${billed("NEW")} ELSE -${billed("NEW")} END
     WHERE key = 'unique_bytes'; END`,
    // Only packing and unpacking move the kept bytes: a fork's copy filling an absent chunk's
    // data (never packed) leaves them alone, and fires nothing.
    `CREATE TRIGGER blobs_unique_bytes_packed AFTER UPDATE OF base, data ON blobs
     WHEN OLD.held > 0 AND NEW.held > 0 AND (OLD.base IS NOT NULL OR NEW.base IS NOT NULL)
     BEGIN UPDATE meta SET value = value + ${billed("NEW")} - ${billed("OLD")} WHERE key = 'unique_bytes'; END`,
    `UPDATE meta SET value = (SELECT coalesce(sum(${BILLED_BYTES}), 0) FROM blobs WHERE held > 0) WHERE key = 'unique_bytes'`,
  ],
];

/** The root directory's row, as a new workspace (or a fork whose import was abandoned) starts with. */
export function insertRoot(sql: SqlStorage, nowMs: number): void {
  sql.exec(
    "INSERT INTO inodes (ino, type, mode, size, mtime_ms, ctime_ms) VALUES (?, 'dir', ?, 0, ?, ?)",
    ROOT_INO,
    0o755,
    nowMs,
    nowMs,
  );
}

/**
 * The filesystem's schema for the shared runner: the steps above, the first of which also
 * makes the root directory (stamped `nowMs`) and the counters.
 */
export function vfsSchema(nowMs: number, steps: readonly (readonly string[])[] = MIGRATIONS): SqlSchema {
  return {
    versionKey: "schema_version",
    steps: steps.map((statements, version) =>
      version === 0
        ? [
            ...statements,
            (sql: SqlStorage) => {
              insertRoot(sql, nowMs);
              for (const key of ["size_bytes", "file_count", "inode_count", "revision"]) {
                sql.exec("INSERT INTO meta (key, value) VALUES (?, 0)", key);
              }
            },
          ]
        : statements,
    ),
  };
}

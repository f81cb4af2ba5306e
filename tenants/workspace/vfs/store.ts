/**
 * The row-level layer under every filesystem operation: inode and directory-entry access,
 * path resolution with symlinks, exact counters, content reference counts and the change
 * log. Operations (ops/*.ts) compose these inside one synchronous transaction each, so a
 * mutation is applied whole or not at all.
 */
import { workspaceLimits } from "../limits.ts";
import { normalizePath } from "../paths.ts";
import { FsAbort, type FsFailure, fail } from "./errors.ts";
import { DEFAULT_OWNER, INODE_COLUMNS, ROOT_INO } from "./schema.ts";
import { nsText, type PreciseTime } from "./times.ts";

export type InodeType = "file" | "dir" | "symlink";

/** A row of `inodes` (a type alias, not an interface, so it satisfies SqlStorage's row constraint). */
export type Inode = {
  ino: number;
  type: InodeType;
  mode: number;
  size: number;
  mtime_ms: number;
  /** Nanoseconds past `mtime_ms` (times.ts). */
  mtime_nsec: number;
  ctime_ms: number;
  etag: string | null;
  target: string | null;
  /** For directories: how many entries name it as their parent. */
  entries: number;
  /** Owner, in the box's ids (schema.ts DEFAULT_OWNER). */
  uid: number;
  gid: number;
  /** Names of a file or link (hard links); for a directory 2 + its subdirectories. */
  nlink: number;
  /** The revision this version of the row was born in (schema.ts, version 4). */
  born_rev: number;
};

export interface Stat {
  path: string;
  name: string;
  type: InodeType;
  size: number;
  mode: number;
  /** RFC 3339, to the millisecond; `mtimeNs` has the exact time. */
  mtime: string;
  /** Nanoseconds since 1970 as a decimal string (JSON numbers cannot hold them exactly). */
  mtimeNs: string;
  ctime: string;
  /** The inode number: two paths with the same one are hard links to one file. */
  ino: number;
  nlink: number;
  uid: number;
  gid: number;
  etag?: string;
  target?: string;
}

/** A resolved path: the inode, and where its name lives. The root has parent 0 and name "". */
export interface Resolved {
  ok: true;
  path: string;
  ino: number;
  inode: Inode;
  parent: number;
  name: string;
}

/** One entry of `Store.addNew`: a new file with its content, or a new empty directory. */
export interface NewEntry {
  /** The directory it is named in: an inode number, or the index of a directory made earlier in the same list. */
  parent: number | { made: number };
  name: string;
  /** Its normalized path, for the change log. */
  path: string;
  type: "file" | "dir";
  mode: number;
  uid: number;
  gid: number;
  /** Its modification time; now when absent. */
  mtime?: PreciseTime | undefined;
  /** A file's size, ETag and chunks (0, null and none for a directory). */
  size: number;
  etag: string | null;
  chunks: readonly { hash: string; size: number }[];
}

/** Resolving up to the last segment: the parent directory exists, the name may not. */
export interface ResolvedParent {
  ok: true;
  path: string;
  parent: number;
  name: string;
  /** The existing entry under that name, if any (not followed). */
  existing: Inode | null;
}

/** The two questions path resolution asks of a tree, live or as it was at a revision. */
export interface TreeReader {
  inode(ino: number): Inode | null;
  lookup(parent: number, name: string): Inode | null;
}

export const DEFAULT_FILE_MODE = 0o644;
export const DEFAULT_DIR_MODE = 0o755;
export const SYMLINK_MODE = 0o777;

type Counter = "size_bytes" | "file_count" | "inode_count" | "revision";

/** Entries kept in the lookup caches before they are dropped wholesale. */
const CACHE_ENTRIES_MAX = 50_000;
/** Directories up to this size are loaded whole on their first lookup. */
const DIRECTORY_PRELOAD_MAX = 4_096;

export class Store implements TreeReader {
  /**
   * Read caches for path resolution, so a stat of a warm path costs no SQL, and the first
   * lookup in a modest directory loads all of it (as the kernel's dentry cache would). Every
   * method that changes `inodes` or `dirents` goes through this class and updates or drops
   * exactly the entries it touched; a rolled-back transaction drops everything.
   */
  private readonly inodeCache = new Map<number, Inode>();
  private readonly entryCache = new Map<string, number | null>();
  /** Directories whose every entry is in `entryCache`, so a miss there means "no such name". */
  private readonly completeDirs = new Set<number>();
  /** The `meta` counters, read once and written back once per transaction. */
  private counters: Record<Counter, number> | null = null;
  private dirtyCounters = new Set<Counter>();
  private depth = 0;
  /**
   * What history must keep (versions.ts): the time window in milliseconds (0: none) and the
   * newest snapshot's revision (-1: none). Read once; snapshot and window changes reset it.
   */
  private retention: { windowMs: number; newestPin: number } | null = null;

  constructor(
    readonly sql: SqlStorage,
    private readonly transactionSync: <T>(fn: () => T) => T,
    readonly nowMs: () => number = Date.now,
  ) {}

  /** Runs `fn` as one transaction; an `FsAbort` inside rolls it back and becomes the failure value. */
  atomically<T>(fn: () => T): T | FsFailure {
    const before = { ...this.counterValues() };
    this.depth++;
    try {
      return this.transactionSync(() => {
        const result = fn();
        this.flushCounters();
        return result;
      });
    } catch (error) {
      // The transaction rolled back: forget what it cached and counted.
      this.forget();
      this.counters = before;
      this.dirtyCounters.clear();
      if (error instanceof FsAbort) return error.failure;
      throw error;
    } finally {
      this.depth--;
    }
  }

  /** Drops every cached row; for changes made behind the store's back (tests, maintenance). */
  forget(): void {
    this.revisionActors.clear();
    this.inodeCache.clear();
    this.entryCache.clear();
    this.completeDirs.clear();
    this.counters = null;
    this.retention = null;
  }

  // ── versions ────────────────────────────────────────────────────────────────────────────

  /** Re-reads the retention rule after a snapshot was taken or deleted or the window changed. */
  retentionChanged(): void {
    this.retention = null;
  }

  private retained(): { windowMs: number; newestPin: number } {
    if (this.retention) return this.retention;
    const windowMs =
      this.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'history_ms'").toArray()[0]?.value ?? 0;
    // A fork still reading its chunks through from here pins its revision as a snapshot does.
    const newestPin =
      this.sql
        .exec<{ rev: number | null }>(
          "SELECT max(rev) AS rev FROM (SELECT max(rev) AS rev FROM snapshots UNION ALL SELECT max(rev) FROM fork_pins)",
        )
        .one().rev ?? -1;
    this.retention = { windowMs, newestPin };
    return this.retention;
  }

  /**
   * The revision the running mutation will commit as: every row it writes is born in it,
   * and every version it ends dies in it.
   */
  private nextRev(): number {
    return this.meta("revision") + 1;
  }

  /**
   * The condition (and its three parameters) under which a live row version about to end
   * must be kept: it was born before this mutation, and the history window is on or a
   * snapshot's revision is at or after its birth (a snapshot at S needs every version alive
   * at S, and a version ending now was alive at every revision since it was born).
   * Null when nothing is kept at all, so the common path runs no extra statement.
   */
  private keepRule(): [string, number, number, number] | null {
    const { windowMs, newestPin } = this.retained();
    if (windowMs === 0 && newestPin < 0) return null;
    return ["born_rev < ? AND (? OR born_rev <= ?)", this.nextRev(), windowMs > 0 ? 1 : 0, newestPin];
  }

  /**
   * One history version per run per row: when a run (`exec:<id>`) ends a version it made
   * itself, which no snapshot or fork pins, the window does not keep it. A run that writes a
   * file a thousand times leaves one version, what the run left, not a thousand. The
   * revisions such a version was alive in are the run's passing states: noted in
   * `run_spans`, they are not readable (versions/retention.ts `isReadable`), so every
   * revision that is reads back exactly.
   */
  private collapses(born: number | undefined, next = this.nextRev()): boolean {
    const actor = this.actor;
    if (born === undefined || !actor?.startsWith("exec:")) return false;
    const { windowMs, newestPin } = this.retained();
    // Without a window only pins keep versions, and a pinned one is never dropped.
    if (windowMs === 0 || born >= next || born <= newestPin || this.actorOf(born) !== actor) return false;
    this.sql.exec(
      `INSERT INTO run_spans (actor, from_rev, to_rev) VALUES (?, ?, ?) ON CONFLICT (actor)
       DO UPDATE SET from_rev = min(from_rev, excluded.from_rev), to_rev = max(to_rev, excluded.to_rev)`,
      actor,
      born,
      next,
    );
    return true;
  }

  /** Who made revision `rev` (the change log's actor), remembered: a committed entry never changes. */
  private actorOf(rev: number): string | null {
    const known = this.revisionActors.get(rev);
    if (known !== undefined) return known;
    const actor =
      this.sql.exec<{ actor: string | null }>("SELECT actor FROM changes WHERE rev = ?", rev).toArray()[0]?.actor ??
      null;
    if (this.revisionActors.size >= CACHE_ENTRIES_MAX) this.revisionActors.clear();
    this.revisionActors.set(rev, actor);
    return actor;
  }
  private readonly revisionActors = new Map<number, string | null>();

  /** Whether the running mutation is a run's, so a version's birth is worth looking up for `collapses`. */
  private get runActing(): boolean {
    return this.actor?.startsWith("exec:") ?? false;
  }

  /** Moves the live version of inode `ino` to history if it must be kept; the caller then changes or deletes it. */
  private retireInode(ino: number): void {
    const rule = this.keepRule();
    if (!rule) return;
    if (this.runActing && this.collapses(this.inode(ino)?.born_rev)) return;
    const [condition, ...params] = rule;
    this.sql.exec(
      `INSERT INTO inodes_hist (${INODE_COLUMNS}, died_rev) SELECT ${INODE_COLUMNS}, ? FROM inodes WHERE ino = ? AND ${condition}`,
      this.nextRev(),
      ino,
      ...params,
    );
  }

  /** Moves the live version of entry (parent, name) to history if it must be kept. */
  private retireEntry(parent: number, name: string): void {
    const rule = this.keepRule();
    if (!rule) return;
    if (this.runActing) {
      const born = this.sql
        .exec<{ born_rev: number }>("SELECT born_rev FROM dirents WHERE parent = ? AND name = ?", parent, name)
        .toArray()[0]?.born_rev;
      if (this.collapses(born)) return;
    }
    const [condition, ...params] = rule;
    this.sql.exec(
      `INSERT INTO dirents_hist (parent, name, ino, born_rev, died_rev)
       SELECT parent, name, ino, born_rev, ? FROM dirents WHERE parent = ? AND name = ? AND ${condition}`,
      this.nextRev(),
      parent,
      name,
      ...params,
    );
  }

  // ── counters ────────────────────────────────────────────────────────────────────────────

  meta(key: Counter): number {
    return this.counterValues()[key];
  }

  addMeta(key: Exclude<Counter, "revision">, delta: number): void {
    if (delta === 0) return;
    this.counterValues()[key] += delta;
    this.dirtyCounters.add(key);
    if (this.depth === 0) this.flushCounters();
  }

  private counterValues(): Record<Counter, number> {
    if (this.counters) return this.counters;
    const values = { size_bytes: 0, file_count: 0, inode_count: 0, revision: 0 };
    for (const row of this.sql.exec<{ key: string; value: number }>("SELECT key, value FROM meta").toArray()) {
      if (row.key in values) values[row.key as Counter] = row.value;
    }
    this.counters = values;
    return values;
  }

  /** Writes every counter in one statement; a transaction changes several together. */
  private flushCounters(): void {
    if (this.dirtyCounters.size === 0) return;
    const c = this.counterValues();
    this.sql.exec(
      `UPDATE meta SET value = CASE key WHEN 'size_bytes' THEN ? WHEN 'file_count' THEN ? WHEN 'inode_count' THEN ?
       ELSE ? END WHERE key IN ('size_bytes', 'file_count', 'inode_count', 'revision')`,
      c.size_bytes,
      c.file_count,
      c.inode_count,
      c.revision,
    );
    this.dirtyCounters.clear();
  }

  // ── inodes and entries ──────────────────────────────────────────────────────────────────

  inode(ino: number): Inode | null {
    const hit = this.inodeCache.get(ino);
    if (hit) return hit;
    const row = this.sql.exec<Inode>("SELECT * FROM inodes WHERE ino = ?", ino).toArray()[0] ?? null;
    if (row) this.remember(row);
    return row;
  }

  lookup(parent: number, name: string): Inode | null {
    const key = `${parent}/${name}`;
    const hit = this.entryCache.get(key);
    if (hit === null) return null;
    if (hit !== undefined) return this.inode(hit);
    if (this.completeDirs.has(parent)) return null;
    const dir = this.inodeCache.get(parent);
    if (dir && dir.entries <= DIRECTORY_PRELOAD_MAX) {
      this.preload(parent);
      return this.lookup(parent, name);
    }
    const row =
      this.sql
        .exec<Inode>(
          "SELECT i.* FROM dirents d JOIN inodes i ON i.ino = d.ino WHERE d.parent = ? AND d.name = ?",
          parent,
          name,
        )
        .toArray()[0] ?? null;
    this.makeRoom();
    this.entryCache.set(key, row?.ino ?? null);
    if (row) this.inodeCache.set(row.ino, row);
    return row;
  }

  /** Loads a whole directory's entries and inodes in one query. */
  private preload(dir: number): void {
    this.makeRoom();
    const rows = this.sql
      .exec<Inode & { name: string }>(
        "SELECT i.*, d.name AS name FROM dirents d JOIN inodes i ON i.ino = d.ino WHERE d.parent = ?",
        dir,
      )
      .toArray();
    for (const { name, ...inode } of rows) {
      this.entryCache.set(`${dir}/${name}`, inode.ino);
      this.inodeCache.set(inode.ino, inode);
    }
    this.completeDirs.add(dir);
  }

  private makeRoom(): void {
    if (this.entryCache.size + this.inodeCache.size >= CACHE_ENTRIES_MAX) {
      this.inodeCache.clear();
      this.entryCache.clear();
      this.completeDirs.clear();
    }
  }

  private remember(row: Inode): void {
    this.makeRoom();
    this.inodeCache.set(row.ino, row);
  }

  createInode(
    type: InodeType,
    mode: number,
    fields: { target?: string; size?: number; etag?: string; uid?: number; gid?: number; mtime?: PreciseTime } = {},
  ): number {
    if (this.meta("inode_count") >= workspaceLimits.inodesMax) {
      throw new FsAbort(fail("ENOSPC", `a workspace holds at most ${workspaceLimits.inodesMax} entries`));
    }
    const now = this.nowMs();
    const row = this.sql
      .exec<{ ino: number }>(
        // The number is past any a history row holds, so one inode number is one file in
        // every version (a diff tells a rename from a delete and a create by it).
        `INSERT INTO inodes (ino, type, mode, size, mtime_ms, mtime_nsec, ctime_ms, etag, target, uid, gid, nlink, born_rev)
         VALUES (max(coalesce((SELECT max(ino) FROM inodes), 0), coalesce((SELECT max(ino) FROM inodes_hist), 0)) + 1,
         ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ino`,
        type,
        mode,
        fields.size ?? 0,
        fields.mtime?.ms ?? now,
        fields.mtime?.nsec ?? 0,
        now,
        fields.etag ?? null,
        fields.target ?? null,
        fields.uid ?? DEFAULT_OWNER.uid,
        fields.gid ?? DEFAULT_OWNER.gid,
        type === "dir" ? 2 : 1,
        this.nextRev(),
      )
      .one();
    // A new directory is empty, so it is complete in the cache from the start.
    if (type === "dir") this.completeDirs.add(row.ino);
    this.addMeta("inode_count", 1);
    if (type === "file") this.addMeta("file_count", 1);
    return row.ino;
  }

  /**
   * Names `ino` (of type `type`) as `name` in directory `parent`, counting it there. A new
   * name for an inode that already has one (a hard link) also needs `addLink`.
   */
  link(parent: number, name: string, ino: number, type: InodeType): void {
    if ((this.inode(parent)?.entries ?? 0) >= workspaceLimits.entriesPerDirectoryMax) {
      throw new FsAbort(fail("EMLINK", `a directory holds at most ${workspaceLimits.entriesPerDirectoryMax} entries`));
    }
    this.sql.exec(
      "INSERT INTO dirents (parent, name, ino, born_rev) VALUES (?, ?, ?, ?)",
      parent,
      name,
      ino,
      this.nextRev(),
    );
    this.entryCache.set(`${parent}/${name}`, ino);
    this.countEntries(parent, 1, type === "dir" ? 1 : 0);
  }

  /** One more name for a file or link: its link count goes up and its ctime moves. */
  addLink(ino: number): void {
    const inode = this.inode(ino);
    if (!inode) return;
    if (inode.nlink >= workspaceLimits.linksPerInodeMax) {
      throw new FsAbort(fail("EMLINK", `a file has at most ${workspaceLimits.linksPerInodeMax} links`));
    }
    this.updateInode(ino, { nlink: inode.nlink + 1 });
  }

  /**
   * Removes the name `name` from `parent`, which names `child`, and lets go of the inode:
   * a file or link keeps living while another name holds it; a directory (emptied by the
   * caller) goes with its one name.
   */
  unlink(parent: number, name: string, child: Inode): void {
    this.retireEntry(parent, name);
    this.sql.exec("DELETE FROM dirents WHERE parent = ? AND name = ?", parent, name);
    this.entryCache.set(`${parent}/${name}`, null);
    this.countEntries(parent, -1, child.type === "dir" ? -1 : 0);
    this.release(child.ino);
  }

  /** Moves an entry to another directory and name: the one-row rename. */
  relink(ino: number, type: InodeType, from: { parent: number; name: string }, to: { parent: number; name: string }) {
    this.retireEntry(from.parent, from.name);
    this.sql.exec(
      "UPDATE dirents SET parent = ?, name = ?, born_rev = ? WHERE parent = ? AND name = ?",
      to.parent,
      to.name,
      this.nextRev(),
      from.parent,
      from.name,
    );
    this.entryCache.set(`${from.parent}/${from.name}`, null);
    this.entryCache.set(`${to.parent}/${to.name}`, ino);
    const subdir = type === "dir" ? 1 : 0;
    this.countEntries(from.parent, -1, -subdir);
    this.countEntries(to.parent, 1, subdir);
  }

  /**
   * Deletes one entry inside a subtree being deleted whole (its parent goes too), and lets
   * go of the inode it names, which lives on if a name outside the subtree holds it.
   */
  dropEntry(entry: { parent: number; name: string; ino: number }): void {
    this.retireEntry(entry.parent, entry.name);
    this.sql.exec("DELETE FROM dirents WHERE parent = ? AND name = ?", entry.parent, entry.name);
    this.entryCache.set(`${entry.parent}/${entry.name}`, null);
    this.release(entry.ino);
  }

  /** One name fewer: at zero the inode and its content go, otherwise its link count drops. */
  private release(ino: number): void {
    const inode = this.inode(ino);
    if (!inode) return;
    if (inode.type === "dir" || inode.nlink <= 1) this.destroyInode(inode);
    else this.updateInode(ino, { nlink: inode.nlink - 1 });
  }

  private countEntries(dir: number, delta: number, subdirDelta: number): void {
    const now = this.nowMs();
    this.retireInode(dir);
    this.sql.exec(
      `UPDATE inodes SET entries = entries + ?, nlink = nlink + ?, mtime_ms = ?, mtime_nsec = 0, ctime_ms = ?, born_rev = ?
       WHERE ino = ?`,
      delta,
      subdirDelta,
      now,
      now,
      this.nextRev(),
      dir,
    );
    this.inodeCache.delete(dir);
  }

  /**
   * Every path naming `ino`, sorted; `known` (one of them) alone when it has one name. A
   * change to an inode's content or metadata changes what each of its names shows, so the
   * change log lists them all (container sync pulls by path).
   */
  namesOf(ino: number, known: string): string[] {
    const inode = this.inode(ino);
    if (!inode || inode.type === "dir" || inode.nlink <= 1) return [known];
    return this.sql
      .exec<{ path: string }>(
        `WITH RECURSIVE up(parent, path) AS (
           SELECT parent, '/' || name FROM dirents WHERE ino = ?
           UNION ALL
           SELECT d.parent, '/' || d.name || up.path FROM up JOIN dirents d ON d.ino = up.parent
         )
         SELECT path FROM up WHERE parent = ? ORDER BY path`,
        ino,
        ROOT_INO,
      )
      .toArray()
      .map((row) => row.path);
  }

  /** Deletes an inode that no entry names any more, releasing its content. */
  destroyInode(inode: Inode): void {
    if (inode.type === "file") {
      this.releaseChunks(inode.ino);
      this.addMeta("size_bytes", -inode.size);
      this.addMeta("file_count", -1);
    }
    this.retireInode(inode.ino);
    this.sql.exec("DELETE FROM inodes WHERE ino = ?", inode.ino);
    this.inodeCache.delete(inode.ino);
    this.completeDirs.delete(inode.ino);
    this.addMeta("inode_count", -1);
  }

  /**
   * Sets some of an inode's fields; ctime always moves, as it does on Linux. `mtime: true`
   * sets the modification time to now, a PreciseTime to exactly that.
   */
  updateInode(
    ino: number,
    fields: {
      mode?: number;
      size?: number;
      etag?: string;
      mtime?: boolean | PreciseTime;
      uid?: number;
      gid?: number;
      nlink?: number;
    },
  ): void {
    const now = this.nowMs();
    const inode = this.inode(ino);
    if (!inode) return;
    const mtime =
      fields.mtime === true
        ? { ms: now, nsec: 0 }
        : fields.mtime
          ? fields.mtime
          : { ms: inode.mtime_ms, nsec: inode.mtime_nsec };
    this.retireInode(ino);
    this.sql.exec(
      `UPDATE inodes SET mode = ?, size = ?, etag = ?, mtime_ms = ?, mtime_nsec = ?, ctime_ms = ?, uid = ?, gid = ?,
       nlink = ?, born_rev = ? WHERE ino = ?`,
      fields.mode ?? inode.mode,
      fields.size ?? inode.size,
      fields.etag ?? inode.etag,
      mtime.ms,
      mtime.nsec,
      now,
      fields.uid ?? inode.uid,
      fields.gid ?? inode.gid,
      fields.nlink ?? inode.nlink,
      this.nextRev(),
      ino,
    );
    this.inodeCache.delete(ino);
  }

  // ── many new entries at once (container sync, execs/syncApply.ts) ────────────────────────

  /**
   * Adds new files (their chunks' blobs already put) and empty directories, each where
   * nothing is, in one statement per table rather than several per entry: what `commitWrite`
   * and `mkdir` with their attributes would do one after another, each entry in a revision
   * of its own, in order. An entry's parent is a directory the tree has or one made earlier
   * in the list. The caller has checked every name and limit (inodes, bytes, entries per
   * directory); this only writes.
   *
   * A directory whose entries change here gets one new version, born at the first revision
   * that added to it, with its final entry count and time (now), not one version per entry
   * added; the entries themselves each have their own revision.
   */
  addNew(entries: readonly NewEntry[]): { ino: number; rev: number }[] {
    if (entries.length === 0) return [];
    const first = this.nextRev();
    const now = this.nowMs();
    const firstIno = this.sql
      .exec<{ ino: number }>(
        `SELECT max(coalesce((SELECT max(ino) FROM inodes), 0), coalesce((SELECT max(ino) FROM inodes_hist), 0)) + 1 AS ino`,
      )
      .one().ino;
    const made = entries.map((_, i) => ({ ino: firstIno + i, rev: first + i }));
    const parentOf = (entry: NewEntry) =>
      typeof entry.parent === "number" ? entry.parent : (made[entry.parent.made] as { ino: number }).ino;
    // What each directory gains: entries, subdirectories, and the first revision that adds to it.
    const gains = new Map<number, { entries: number; subdirs: number; rev: number }>();
    entries.forEach((entry, i) => {
      const parent = parentOf(entry);
      const gain = gains.get(parent) ?? { entries: 0, subdirs: 0, rev: (made[i] as { rev: number }).rev };
      gain.entries++;
      if (entry.type === "dir") gain.subdirs++;
      gains.set(parent, gain);
    });
    const newInos = new Set(made.map((m) => m.ino));
    const rule = this.keepRule();
    for (const [dir, gain] of gains) {
      if (newInos.has(dir)) continue;
      // As retireInode: a run's own version of the directory is not kept (collapses).
      if (rule && !(this.runActing && this.collapses(this.inode(dir)?.born_rev, gain.rev))) {
        const [condition, , windowOn, newestPin] = rule;
        this.sql.exec(
          `INSERT INTO inodes_hist (${INODE_COLUMNS}, died_rev) SELECT ${INODE_COLUMNS}, ? FROM inodes WHERE ino = ? AND ${condition}`,
          gain.rev,
          dir,
          gain.rev,
          windowOn,
          newestPin,
        );
      }
      this.sql.exec(
        `UPDATE inodes SET entries = entries + ?, nlink = nlink + ?, mtime_ms = ?, mtime_nsec = 0, ctime_ms = ?, born_rev = ?
         WHERE ino = ?`,
        gain.entries,
        gain.subdirs,
        now,
        now,
        gain.rev,
        dir,
      );
      this.inodeCache.delete(dir);
    }
    const inodes: Inode[] = entries.map((entry, i) => {
      const { ino, rev } = made[i] as { ino: number; rev: number };
      const gain = gains.get(ino);
      // A directory that gained entries here was changed after its attributes were set: now.
      const mtime = gain || !entry.mtime ? { ms: now, nsec: 0 } : entry.mtime;
      return {
        ino,
        type: entry.type,
        mode: entry.mode,
        size: entry.size,
        mtime_ms: mtime.ms,
        mtime_nsec: mtime.nsec,
        ctime_ms: now,
        etag: entry.etag,
        target: null,
        entries: gain?.entries ?? 0,
        uid: entry.uid,
        gid: entry.gid,
        nlink: entry.type === "dir" ? 2 + (gain?.subdirs ?? 0) : 1,
        born_rev: rev,
      };
    });
    const at = (i: number) => `json_extract(value, '$[${i}]')`;
    this.sql.exec(
      `INSERT INTO inodes (${INODE_COLUMNS}) SELECT ${INODE_COLUMNS.split(", ")
        .map((_, i) => at(i))
        .join(", ")} FROM json_each(?)`,
      JSON.stringify(inodes.map((row) => INODE_COLUMNS.split(", ").map((column) => row[column as keyof Inode]))),
    );
    this.sql.exec(
      `INSERT INTO dirents (parent, name, ino, born_rev) SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)} FROM json_each(?)`,
      JSON.stringify(entries.map((entry, i) => [parentOf(entry), entry.name, made[i]?.ino, made[i]?.rev])),
    );
    const chunks = entries.flatMap((entry, i) =>
      entry.chunks.map((chunk, idx) => [made[i]?.ino, idx, chunk.hash, chunk.size, made[i]?.rev]),
    );
    if (chunks.length > 0) {
      const list = JSON.stringify(chunks);
      this.sql.exec(
        `INSERT INTO file_chunks (ino, idx, hash, size, born_rev) SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)}, ${at(4)} FROM json_each(?)`,
        list,
      );
      // A chunk several new files use gains one reference per use.
      const uses = new Map<string, number>();
      for (const entry of entries)
        for (const chunk of entry.chunks) uses.set(chunk.hash, (uses.get(chunk.hash) ?? 0) + 1);
      this.sql.exec(
        `UPDATE blobs SET refs = refs + ${at(1).replace("value", "u.value")} FROM json_each(?) AS u
         WHERE blobs.hash = ${at(0).replace("value", "u.value")}`,
        JSON.stringify([...uses]),
      );
    }
    this.sql.exec(
      `INSERT INTO changes (rev, at_ms, op, paths, actor) SELECT ${at(0)}, ?, ${at(1)}, ${at(2)}, ? FROM json_each(?)`,
      now,
      this.actor,
      JSON.stringify(
        entries.map((entry, i) => [
          made[i]?.rev,
          entry.type === "dir" ? "mkdir" : "write",
          JSON.stringify([entry.path]),
        ]),
      ),
    );
    const files = entries.filter((entry) => entry.type === "file");
    this.addMeta("inode_count", entries.length);
    this.addMeta("file_count", files.length);
    this.addMeta(
      "size_bytes",
      files.reduce((sum, entry) => sum + entry.size, 0),
    );
    this.counterValues().revision = first + entries.length - 1;
    this.dirtyCounters.add("revision");
    if (this.depth === 0) this.flushCounters();
    this.makeRoom();
    entries.forEach((entry, i) => {
      const row = inodes[i] as Inode;
      this.inodeCache.set(row.ino, row);
      this.entryCache.set(`${parentOf(entry)}/${entry.name}`, row.ino);
      if (row.type === "dir") this.completeDirs.add(row.ino);
    });
    return made;
  }

  // ── restore (versions/restore.ts) ───────────────────────────────────────────────────────

  /**
   * Restore's row work, set-wise (a few statements whatever the number of rows): every
   * live row of `inos` and `entries` born after `rev` ends (kept in history by the usual
   * rule), and each one's version at `rev` comes back as a new version; chunk references
   * and counters move with them. Rows born by `rev` are that revision's already and stay.
   */
  restoreRows(rev: number, inos: readonly number[], entries: readonly { parent: number; name: string }[]): void {
    const d = this.nextRev();
    const rule = this.keepRule();
    const [keep, ...keepParams] = rule ?? ["0"];
    const inoList = JSON.stringify(inos);
    const keyList = JSON.stringify(entries.map((e) => [e.parent, e.name]));
    const INOS = "(SELECT value FROM json_each(?))";
    const KEYS = "(SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))";
    const totals = (from: string, where: string, ...params: (string | number)[]) =>
      this.sql
        .exec<{ n: number; files: number; bytes: number }>(
          `SELECT count(*) AS n, coalesce(sum(type = 'file'), 0) AS files,
           coalesce(sum(CASE WHEN type = 'file' THEN size ELSE 0 END), 0) AS bytes FROM ${from} WHERE ${where}`,
          ...params,
        )
        .one();
    const gone = totals("inodes", `ino IN ${INOS} AND born_rev > ?`, inoList, rev);
    const back = totals("inodes_hist", `ino IN ${INOS} AND born_rev <= ? AND died_rev > ?`, inoList, rev, rev);
    // Chunk lists born after `rev`: kept ones move to history with their references, the rest give theirs up.
    const liveChunks = `file_chunks WHERE ino IN ${INOS} AND born_rev > ?`;
    if (rule) {
      this.sql.exec(
        `INSERT INTO file_chunks_hist (ino, born_rev, idx, hash, size, died_rev)
         SELECT ino, born_rev, idx, hash, size, ? FROM ${liveChunks} AND ${keep}`,
        d,
        inoList,
        rev,
        ...keepParams,
      );
    }
    this.sql.exec(
      `UPDATE blobs SET refs = refs - (SELECT count(*) FROM ${liveChunks.replace("file_chunks", "file_chunks f")}
         AND NOT (${keep}) AND f.hash = blobs.hash)
       WHERE hash IN (SELECT hash FROM ${liveChunks} AND NOT (${keep}))`,
      inoList,
      rev,
      ...keepParams,
      inoList,
      rev,
      ...keepParams,
    );
    this.sql.exec(`DELETE FROM ${liveChunks}`, inoList, rev);
    if (rule) {
      this.sql.exec(
        `INSERT INTO inodes_hist (${INODE_COLUMNS}, died_rev)
         SELECT ${INODE_COLUMNS}, ? FROM inodes WHERE ino IN ${INOS} AND born_rev > ? AND ${keep}`,
        d,
        inoList,
        rev,
        ...keepParams,
      );
      this.sql.exec(
        `INSERT INTO dirents_hist (parent, name, ino, born_rev, died_rev)
         SELECT parent, name, ino, born_rev, ? FROM dirents WHERE (parent, name) IN ${KEYS} AND born_rev > ? AND ${keep}`,
        d,
        keyList,
        rev,
        ...keepParams,
      );
    }
    this.sql.exec(`DELETE FROM inodes WHERE ino IN ${INOS} AND born_rev > ?`, inoList, rev);
    this.sql.exec(`DELETE FROM dirents WHERE (parent, name) IN ${KEYS} AND born_rev > ?`, keyList, rev);
    const columnsBornNow = INODE_COLUMNS.replace("born_rev", "?");
    this.sql.exec(
      `INSERT INTO inodes (${INODE_COLUMNS}) SELECT ${columnsBornNow} FROM inodes_hist
       WHERE ino IN ${INOS} AND born_rev <= ? AND died_rev > ?`,
      d,
      inoList,
      rev,
      rev,
    );
    this.sql.exec(
      `INSERT INTO dirents (parent, name, ino, born_rev) SELECT parent, name, ino, ? FROM dirents_hist
       WHERE (parent, name) IN ${KEYS} AND born_rev <= ? AND died_rev > ?`,
      d,
      keyList,
      rev,
      rev,
    );
    this.sql.exec(
      `INSERT INTO file_chunks (ino, idx, hash, size, born_rev) SELECT ino, idx, hash, size, ? FROM file_chunks_hist
       WHERE ino IN ${INOS} AND born_rev <= ? AND died_rev > ?`,
      d,
      inoList,
      rev,
      rev,
    );
    this.sql.exec(
      `UPDATE blobs SET refs = refs + (SELECT count(*) FROM file_chunks f WHERE f.ino IN ${INOS} AND f.born_rev = ? AND f.hash = blobs.hash)
       WHERE hash IN (SELECT hash FROM file_chunks WHERE ino IN ${INOS} AND born_rev = ?)`,
      inoList,
      d,
      inoList,
      d,
    );
    this.addMeta("inode_count", back.n - gone.n);
    this.addMeta("file_count", back.files - gone.files);
    this.addMeta("size_bytes", back.bytes - gone.bytes);
    this.inodeCache.clear();
    this.entryCache.clear();
    this.completeDirs.clear();
  }

  // ── content ─────────────────────────────────────────────────────────────────────────────

  chunks(ino: number): { idx: number; hash: string; size: number }[] {
    return this.sql
      .exec<{ idx: number; hash: string; size: number }>(
        "SELECT idx, hash, size FROM file_chunks WHERE ino = ? ORDER BY idx",
        ino,
      )
      .toArray();
  }

  /**
   * Adds a blob if it is new (its reference count stays 0 until `setChunks` uses it), or
   * gives a fork's absent chunk its bytes: content addressing makes them the same bytes.
   */
  putBlob(hash: string, data: Uint8Array): void {
    this.sql.exec(
      `INSERT INTO blobs (hash, size, refs, data) VALUES (?, ?, 0, ?)
       ON CONFLICT (hash) DO UPDATE SET data = excluded.data, absent = 0 WHERE blobs.absent = 1`,
      hash,
      data.byteLength,
      data,
    );
  }

  /** A chunk's bytes, which must be here: a fork's absent chunk is read with `chunkBytes`. */
  blob(hash: string): Uint8Array {
    const row = this.sql
      .exec<{ data: ArrayBuffer; absent: number }>("SELECT data, absent FROM blobs WHERE hash = ?", hash)
      .toArray()[0];
    if (!row) throw new Error(`blob ${hash} is missing`);
    if (row.absent) throw new Error(`blob ${hash} has not arrived from the fork's source yet`);
    return new Uint8Array(row.data);
  }

  /**
   * Brings absent chunks (a fork's, not yet copied from its source) here; set by the Vfs
   * of a fork (forks/lend.ts). Null in a workspace that was never a fork: nothing is absent.
   */
  fetchAbsent: ((hashes: readonly string[]) => Promise<void>) | null = null;

  /** A chunk's bytes, reading an absent one through from the fork's source first. */
  async chunkBytes(hash: string): Promise<Uint8Array> {
    if (this.fetchAbsent && this.isAbsent(hash)) await this.fetchAbsent([hash]);
    return this.blob(hash);
  }

  isAbsent(hash: string): boolean {
    return this.sql.exec("SELECT 1 FROM blobs WHERE hash = ? AND absent = 1", hash).toArray().length > 0;
  }

  /** Replaces a file's chunk list, moving reference counts from the old chunks to the new. */
  setChunks(ino: number, chunks: readonly { hash: string; size: number }[], { fresh = false } = {}): void {
    // A file created in this transaction has no chunks to release.
    if (!fresh) this.releaseChunks(ino);
    chunks.forEach((chunk, idx) => {
      this.sql.exec(
        "INSERT INTO file_chunks (ino, idx, hash, size, born_rev) VALUES (?, ?, ?, ?, ?)",
        ino,
        idx,
        chunk.hash,
        chunk.size,
        this.nextRev(),
      );
      this.sql.exec("UPDATE blobs SET refs = refs + 1 WHERE hash = ?", chunk.hash);
    });
  }

  /**
   * Ends a file's chunk list. Rows history must keep move to `file_chunks_hist` with their
   * references (a reference counts a row version, live or not); the others give theirs up.
   * A list is always replaced whole, so its rows share one birth and one fate.
   */
  releaseChunks(ino: number): void {
    const rule = this.keepRule();
    const born = () =>
      this.sql.exec<{ born_rev: number }>("SELECT born_rev FROM file_chunks WHERE ino = ? LIMIT 1", ino).toArray()[0]
        ?.born_rev;
    if (rule && !(this.runActing && this.collapses(born()))) {
      const [condition, ...params] = rule;
      const moved = this.sql.exec(
        `INSERT INTO file_chunks_hist (ino, born_rev, idx, hash, size, died_rev)
         SELECT ino, born_rev, idx, hash, size, ? FROM file_chunks WHERE ino = ? AND ${condition}`,
        this.nextRev(),
        ino,
        ...params,
      ).rowsWritten;
      if (moved > 0) {
        this.sql.exec("DELETE FROM file_chunks WHERE ino = ?", ino);
        return;
      }
    }
    // One statement, so a chunk a file uses twice loses both of its references.
    this.sql.exec(
      `UPDATE blobs SET refs = refs - (SELECT count(*) FROM file_chunks f WHERE f.ino = ? AND f.hash = blobs.hash)
       WHERE hash IN (SELECT hash FROM file_chunks WHERE ino = ?)`,
      ino,
      ino,
    );
    this.sql.exec("DELETE FROM file_chunks WHERE ino = ?", ino);
  }

  // ── change log ──────────────────────────────────────────────────────────────────────────

  /**
   * Who the mutations being run are for (`key:<id>`, `exec:<id>`, `sync`), recorded on each
   * change so a file's history says who made every version. Set by Vfs under its lock.
   */
  actor: string | null = null;

  /** Records a change as the next revision; a restore also names the version it went back to. */
  recordChange(op: string, paths: readonly string[], detail: { restoredTo?: string } = {}): number {
    const revision = this.meta("revision") + 1;
    this.counterValues().revision = revision;
    this.dirtyCounters.add("revision");
    this.sql.exec(
      "INSERT INTO changes (rev, at_ms, op, paths, actor, restored_to) VALUES (?, ?, ?, ?, ?, ?)",
      revision,
      this.nowMs(),
      op,
      JSON.stringify(paths),
      this.actor,
      detail.restoredTo ?? null,
    );
    if (this.depth === 0) this.flushCounters();
    return revision;
  }

  // ── paths ───────────────────────────────────────────────────────────────────────────────

  /**
   * Walks `path` from the root. Symlinks in the middle are always followed; the last one
   * only when `follow`. Relative link targets resolve against the link's directory;
   * absolute ones against the workspace root, so no link leads outside the workspace.
   * `reader` is the tree to walk: the live one, or a past revision's (versions/at.ts).
   */
  resolve(rawPath: string, follow: boolean, reader: TreeReader = this): Resolved | FsFailure {
    const start = this.split(rawPath);
    if (!start.ok) return start;
    let pending = start.segments;
    let hops = 0;
    let parent = 0;
    let ino = ROOT_INO;
    let name = "";
    let done: string[] = [];
    while (pending.length > 0) {
      const [segment, ...rest] = pending as [string, ...string[]];
      const dir = reader.inode(ino);
      if (dir?.type !== "dir") return fail("ENOTDIR", `not a directory: /${done.join("/")}`, `/${done.join("/")}`);
      const child = reader.lookup(ino, segment);
      if (!child) return fail("ENOENT", `no such file or directory: /${[...done, segment].join("/")}`, rawPath);
      if (child.type === "symlink" && (rest.length > 0 || follow)) {
        if (++hops > workspaceLimits.symlinkHopsMax)
          return fail("ELOOP", `too many levels of symbolic links: ${rawPath}`, rawPath);
        const target = child.target ?? "";
        const base = target.startsWith("/") ? [] : done;
        const next = this.split(`/${[...base, target].join("/")}`, true);
        if (!next.ok) return next;
        pending = [...next.segments, ...rest];
        parent = 0;
        ino = ROOT_INO;
        name = "";
        done = [];
        continue;
      }
      parent = ino;
      ino = child.ino;
      name = segment;
      done = [...done, segment];
      pending = rest;
    }
    const inode = reader.inode(ino);
    if (!inode) return fail("ENOENT", `no such file or directory: ${rawPath}`, rawPath);
    return { ok: true, path: `/${done.join("/")}`, ino, inode, parent, name };
  }

  /** Resolves all but the last segment (following links), for operations that create or replace a name. */
  resolveParent(rawPath: string): ResolvedParent | FsFailure {
    const normalized = normalizePath(rawPath);
    if (!normalized.ok) return fail(normalized.code, normalized.detail, rawPath);
    if (normalized.path === "/")
      return fail("EINVAL", "the workspace root cannot be created, replaced or removed", "/");
    const cut = normalized.path.lastIndexOf("/");
    const dirPath = normalized.path.slice(0, cut) || "/";
    const name = normalized.path.slice(cut + 1);
    const dir = this.resolve(dirPath, true);
    if (!dir.ok) return dir;
    if (dir.inode.type !== "dir") return fail("ENOTDIR", `not a directory: ${dirPath}`, dirPath);
    const path = dir.path === "/" ? `/${name}` : `${dir.path}/${name}`;
    return { ok: true, path, parent: dir.ino, name, existing: this.lookup(dir.ino, name) };
  }

  /** Creates missing directories along `dirPath` (mkdir -p) and returns the last one's inode number. */
  ensureDirectory(dirPath: string): number {
    const resolved = this.resolve(dirPath, true);
    if (resolved.ok) {
      if (resolved.inode.type !== "dir") throw new FsAbort(fail("ENOTDIR", `not a directory: ${dirPath}`, dirPath));
      return resolved.ino;
    }
    if (resolved.code !== "ENOENT") throw new FsAbort(resolved);
    const parent = this.resolveParent(dirPath);
    if (!parent.ok) {
      if (parent.code !== "ENOENT") throw new FsAbort(parent);
      const cut = dirPath.lastIndexOf("/");
      this.ensureDirectory(dirPath.slice(0, cut) || "/");
      return this.ensureDirectory(dirPath);
    }
    // The name exists yet does not resolve: a dangling link. mkdir(2) on it is EEXIST, as in mkdir -p.
    if (parent.existing) throw new FsAbort(fail("EEXIST", `file exists: ${parent.path}`, dirPath));
    const ino = this.createInode("dir", DEFAULT_DIR_MODE);
    this.link(parent.parent, parent.name, ino, "dir");
    return ino;
  }

  stat(path: string, inode: Inode): Stat {
    const stat: Stat = {
      path,
      name: path === "/" ? "" : path.slice(path.lastIndexOf("/") + 1),
      type: inode.type,
      size: inode.size,
      mode: inode.mode,
      mtime: new Date(inode.mtime_ms).toISOString(),
      mtimeNs: nsText({ ms: inode.mtime_ms, nsec: inode.mtime_nsec }),
      ctime: new Date(inode.ctime_ms).toISOString(),
      ino: inode.ino,
      nlink: inode.nlink,
      uid: inode.uid,
      gid: inode.gid,
    };
    if (inode.etag) stat.etag = inode.etag;
    if (inode.target !== null) stat.target = inode.target;
    return stat;
  }

  private split(rawPath: string, fromLink = false): { ok: true; segments: string[] } | FsFailure {
    const normalized = normalizePath(rawPath, { allowDotDot: fromLink });
    if (!normalized.ok) return fail(normalized.code, normalized.detail, rawPath);
    if (normalized.path === "/") return { ok: true, segments: [] };
    const segments = normalized.path.slice(1).split("/");
    if (segments.length > workspaceLimits.depthMax) {
      return fail("ENAMETOOLONG", `paths may be at most ${workspaceLimits.depthMax} directories deep`, rawPath);
    }
    return { ok: true, segments };
  }
}

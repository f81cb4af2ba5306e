import { FsAbort, type FsFailure, fail } from "./errors.ts";
import { addNew } from "./store/addNew.ts";
import { DIRECTORY_PRELOAD_MAX, RowCache } from "./store/cache.ts";
import { Chunks } from "./store/chunks.ts";
import { type Counter, Counters } from "./store/counters.ts";
import { History } from "./store/history.ts";
import type { StoreParts } from "./store/parts.ts";
import { type Removal, removeNames } from "./store/removeNames.ts";
import { resolve, resolveParent, statOf } from "./store/resolve.ts";
import { restoreRows } from "./store/restoreRows.ts";
import { TreeWriter } from "./store/tree.ts";
import {
  DEFAULT_DIR_MODE,
  type Inode,
  type InodeType,
  type NewEntry,
  type Resolved,
  type ResolvedParent,
  type Stat,
  type TreeReader,
} from "./store/types.ts";
import type { PreciseTime } from "./times.ts";

export type {
  Inode,
  InodeType,
  NewEntry,
  Resolved,
  ResolvedParent,
  Stat,
  TreeReader,
} from "./store/types.ts";
export { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE, SYMLINK_MODE } from "./store/types.ts";

export class Store implements TreeReader, StoreParts {
  /**
   * Read caches for path resolution (store/cache.ts). Every method that changes `inodes`
   * or `dirents` goes through this class and updates or drops exactly the entries it
   * touched; a rolled-back transaction drops everything.
   */
  readonly cache = new RowCache();
  readonly counters: Counters;
  readonly history: History;
  readonly content: Chunks;
  private readonly tree: TreeWriter;

  /**
   * Who the mutations being run are for (`key:<id>`, `exec:<id>`, `sync`), recorded on each
   * change so a file's history says who made every version. Set by Vfs under its lock.
   */
  actor: string | null = null;

  constructor(
    readonly sql: SqlStorage,
    private readonly transactionSync: <T>(fn: () => T) => T,
    readonly nowMs: () => number = Date.now,
  ) {
    this.counters = new Counters(sql);
    this.history = new History(
      sql,
      this.counters,
      () => this.actor,
      (ino) => this.inode(ino),
    );
    this.content = new Chunks(sql, this.history);
    this.tree = new TreeWriter(this, this.content);
  }

  /** Runs `fn` as one transaction; an `FsAbort` inside rolls it back and becomes the failure value. */
  atomically<T>(fn: () => T): T | FsFailure {
    const before = this.counters.save();
    this.counters.depth++;
    try {
      return this.transactionSync(() => {
        const result = fn();
        this.counters.flush();
        return result;
      });
    } catch (error) {
      // The transaction rolled back: forget what it cached and counted.
      this.forget();
      this.counters.restore(before);
      if (error instanceof FsAbort) return error.failure;
      throw error;
    } finally {
      this.counters.depth--;
    }
  }

  /** Drops every cached row; for changes made behind the store's back (tests, maintenance). */
  forget(): void {
    this.history.forget();
    this.cache.clear();
    this.counters.restore(null);
  }

  /** Re-reads the retention rule after a snapshot was taken or deleted or the window changed. */
  retentionChanged(): void {
    this.history.changed();
  }

  // ── counters ────────────────────────────────────────────────────────────────────────────

  meta(key: Counter): number {
    return this.counters.get(key);
  }

  addMeta(key: Exclude<Counter, "revision">, delta: number): void {
    this.counters.add(key, delta);
  }

  // ── inodes and entries ──────────────────────────────────────────────────────────────────

  inode(ino: number): Inode | null {
    const hit = this.cache.inodes.get(ino);
    if (hit) return hit;
    const row = this.sql.exec<Inode>("SELECT * FROM inodes WHERE ino = ?", ino).toArray()[0] ?? null;
    if (row) this.cache.remember(row);
    return row;
  }

  lookup(parent: number, name: string): Inode | null {
    const key = `${parent}/${name}`;
    const hit = this.cache.entries.get(key);
    if (hit === null) return null;
    if (hit !== undefined) return this.inode(hit);
    if (this.cache.completeDirs.has(parent)) return null;
    const dir = this.cache.inodes.get(parent);
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
    this.cache.makeRoom();
    this.cache.entries.set(key, row?.ino ?? null);
    if (row) this.cache.inodes.set(row.ino, row);
    return row;
  }

  /** Loads a whole directory's entries and inodes in one query. */
  private preload(dir: number): void {
    this.cache.makeRoom();
    const rows = this.sql
      .exec<Inode & { name: string }>(
        "SELECT i.*, d.name AS name FROM dirents d JOIN inodes i ON i.ino = d.ino WHERE d.parent = ?",
        dir,
      )
      .toArray();
    for (const { name, ...inode } of rows) {
      this.cache.entries.set(`${dir}/${name}`, inode.ino);
      this.cache.inodes.set(inode.ino, inode);
    }
    this.cache.completeDirs.add(dir);
  }

  // ── inode and entry changes (store/tree.ts) ─────────────────────────────────────────────

  createInode(
    type: InodeType,
    mode: number,
    fields: { target?: string; size?: number; etag?: string; uid?: number; gid?: number; mtime?: PreciseTime } = {},
  ): number {
    return this.tree.createInode(type, mode, fields);
  }

  link(parent: number, name: string, ino: number, type: InodeType): void {
    this.tree.link(parent, name, ino, type);
  }

  addLink(ino: number): void {
    this.tree.addLink(ino);
  }

  unlink(parent: number, name: string, child: Inode): void {
    this.tree.unlink(parent, name, child);
  }

  relink(ino: number, type: InodeType, from: { parent: number; name: string }, to: { parent: number; name: string }) {
    this.tree.relink(ino, type, from, to);
  }

  dropEntry(entry: { parent: number; name: string; ino: number }): void {
    this.tree.dropEntry(entry);
  }

  namesOf(ino: number, known: string): string[] {
    return this.tree.namesOf(ino, known);
  }

  destroyInode(inode: Inode): void {
    this.tree.destroyInode(inode);
  }

  updateInode(ino: number, fields: Parameters<TreeWriter["updateInode"]>[1]): void {
    this.tree.updateInode(ino, fields);
  }

  // ── set-wise steps (store/addNew.ts, store/removeNames.ts, store/restoreRows.ts) ────────

  /** Adds new files and empty directories, each where nothing is (store/addNew.ts). */
  addNew(entries: readonly NewEntry[]): { ino: number; rev: number }[] {
    return addNew(this, entries);
  }

  /** Removes single-named files and links and emptied directories, each in a revision (store/removeNames.ts). */
  removeNames(removals: readonly Removal[]): number[] {
    return removeNames(this, removals);
  }

  /** Brings `inos` and `entries` back to their versions at `rev` (store/restoreRows.ts). */
  restoreRows(rev: number, inos: readonly number[], entries: readonly { parent: number; name: string }[]): void {
    restoreRows(this, rev, inos, entries);
  }

  // ── content (store/chunks.ts) ───────────────────────────────────────────────────────────

  chunks(ino: number): { idx: number; hash: string; size: number }[] {
    return this.content.list(ino);
  }

  putBlob(hash: string, data: Uint8Array): void {
    this.content.putBlob(hash, data);
  }

  putBlobs(blobs: readonly { hash: string; data: Uint8Array }[]): void {
    this.content.putBlobs(blobs);
  }

  blob(hash: string): Uint8Array {
    return this.content.blob(hash);
  }

  isAbsent(hash: string): boolean {
    return this.content.isAbsent(hash);
  }

  setChunks(ino: number, chunks: readonly { hash: string; size: number }[], options: { fresh?: boolean } = {}): void {
    this.content.set(ino, chunks, options);
  }

  releaseChunks(ino: number): void {
    this.content.release(ino);
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

  // ── change log ──────────────────────────────────────────────────────────────────────────

  /** Records a change as the next revision; a restore also names the version it went back to. */
  recordChange(op: string, paths: readonly string[], detail: { restoredTo?: string } = {}): number {
    const revision = this.meta("revision") + 1;
    this.sql.exec(
      "INSERT INTO changes (rev, at_ms, op, paths, actor, restored_to) VALUES (?, ?, ?, ?, ?, ?)",
      revision,
      this.nowMs(),
      op,
      JSON.stringify(paths),
      this.actor,
      detail.restoredTo ?? null,
    );
    // Set after the insert, as before the split: outside a transaction it is written at once.
    this.counters.setRevision(revision);
    return revision;
  }

  // ── paths (store/resolve.ts) ────────────────────────────────────────────────────────────

  /** Walks `path` through `reader`: the live tree, or a past revision's (versions/at.ts). */
  resolve(rawPath: string, follow: boolean, reader: TreeReader = this): Resolved | FsFailure {
    return resolve(reader, rawPath, follow);
  }

  /** Resolves all but the last segment (following links), for operations that create or replace a name. */
  resolveParent(rawPath: string): ResolvedParent | FsFailure {
    return resolveParent(this, rawPath);
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
    return statOf(path, inode);
  }
}

/**
 * The workspace filesystem over a Durable Object's SQLite: the one object the
 * WorkspaceDO (and tests) talk to. Mutations run one at a time behind a lock, because a
 * streaming write or a GC pass awaits between statements and must not interleave with
 * another mutation; reads never wait for it.
 */
import { type Change, changesSince, compactChanges } from "./changes.ts";
import type { FsResult } from "./errors.ts";
import { collectGarbage, hasGarbage, storedBytes } from "./gc.ts";
import { type BatchOp, batch } from "./ops/batch.ts";
import { copy } from "./ops/copy.ts";
import { type FindOptions, find } from "./ops/find.ts";
import { type GrepOptions, grep } from "./ops/grep.ts";
import { link } from "./ops/link.ts";
import { type ListOptions, list } from "./ops/list.ts";
import { mkdir } from "./ops/mkdir.ts";
import { move } from "./ops/move.ts";
import { type ReadOptions, read, readBytes } from "./ops/read.ts";
import { type RemoveOptions, remove } from "./ops/remove.ts";
import { type Attrs, chmod, chown, setattr, utimes } from "./ops/setattr.ts";
import { lstat, readlink, stat } from "./ops/stat.ts";
import { symlink } from "./ops/symlink.ts";
import { truncate } from "./ops/truncate.ts";
import { type WriteOptions, write } from "./ops/write.ts";
import { migrate } from "./schema.ts";
import { Store } from "./store.ts";
import type { PreciseTime } from "./times.ts";

export interface VfsStats {
  sizeBytes: number;
  fileCount: number;
  entryCount: number;
  revision: number;
  chunkCount: number;
  chunkBytes: number;
}

export class Vfs {
  readonly store: Store;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(sql: SqlStorage, transactionSync: <T>(fn: () => T) => T, nowMs: () => number = Date.now) {
    migrate(sql, nowMs());
    // Uploads staged by a previous instance died with it; their chunks become garbage.
    sql.exec("DELETE FROM upload_chunks");
    this.store = new Store(sql, transactionSync, nowMs);
  }

  /**
   * Runs `fn` after every earlier mutation has finished. Public for ConfinedVfs, whose
   * check must run under the same lock as the mutation it guards.
   */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => {});
    return run.finally(() => this.announce());
  }

  private readonly listeners = new Set<(revision: number) => void>();
  private announced = -1;

  /**
   * Calls `listener` with the new revision after every mutation that changed the tree, from
   * any caller (the API, an executor, container sync). Returns the unsubscribe function.
   */
  onChange(listener: (revision: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private announce(): void {
    if (this.listeners.size === 0) return;
    const revision = this.revision();
    if (revision === this.announced) return;
    this.announced = revision;
    for (const listener of this.listeners) listener(revision);
  }

  // Reads.
  read = (path: string, options?: ReadOptions) => read(this.store, path, options);
  readBytes = (path: string) => readBytes(this.store, path);
  stat = (path: string) => stat(this.store, path);
  lstat = (path: string) => lstat(this.store, path);
  readlink = (path: string) => readlink(this.store, path);
  list = (path: string, options?: ListOptions) => list(this.store, path, options);
  find = (path: string, options?: FindOptions) => find(this.store, path, options);
  grep = (pattern: string, path: string, options?: GrepOptions) => grep(this.store, pattern, path, options);
  changesSince = (rev: number, limit?: number): { changes: Change[]; oldestRev: number; revision: number } =>
    changesSince(this.store, rev, limit);

  // Mutations.
  write = (path: string, body: ReadableStream<Uint8Array> | Uint8Array, options?: WriteOptions) =>
    this.exclusive(() => write(this.store, path, body, options));
  truncate = (path: string, size: number) => this.exclusive(() => truncate(this.store, path, size));
  mkdir = (path: string, options?: { recursive?: boolean; mode?: number }) =>
    this.exclusive(() => mkdir(this.store, path, options));
  remove = (path: string, options?: RemoveOptions) => this.exclusive(() => remove(this.store, path, options));
  move = (from: string, to: string, options?: { overwrite?: boolean }) =>
    this.exclusive(() => move(this.store, from, to, options));
  copy = (from: string, to: string, options?: { overwrite?: boolean }) =>
    this.exclusive(() => copy(this.store, from, to, options));
  symlink = (target: string, path: string) => this.exclusive(() => symlink(this.store, target, path));
  chmod = (path: string, mode: number) => this.exclusive(() => chmod(this.store, path, mode));
  chown = (path: string, owner: { uid?: number; gid?: number }, options?: { follow?: boolean }) =>
    this.exclusive(() => chown(this.store, path, owner, options));
  utimes = (path: string, mtime: PreciseTime | "now", options?: { follow?: boolean }) =>
    this.exclusive(() => utimes(this.store, path, mtime, options));
  setattr = (path: string, attrs: Attrs, options?: { follow?: boolean }) =>
    this.exclusive(() => setattr(this.store, path, attrs, options));
  link = (existing: string, path: string) => this.exclusive(() => link(this.store, existing, path));
  batch = (ops: readonly BatchOp[]) => this.exclusive(() => batch(this.store, ops));

  /** One bounded GC and compaction pass; `remaining` says whether to run again. */
  maintain = () =>
    this.exclusive(() => {
      const gc = collectGarbage(this.store);
      const compacted = compactChanges(this.store);
      return { deleted: gc.deleted, compacted, remaining: gc.remaining };
    });

  hasGarbage = () => hasGarbage(this.store);

  /** The exact counters that feed the index, quotas and the storage meter; cheap. */
  counters(): { sizeBytes: number; fileCount: number } {
    return { sizeBytes: this.store.meta("size_bytes"), fileCount: this.store.meta("file_count") };
  }

  /** The change-log revision: increases with every committed mutation. */
  revision(): number {
    return this.store.meta("revision");
  }

  stats(): VfsStats {
    const stored = storedBytes(this.store);
    return {
      sizeBytes: this.store.meta("size_bytes"),
      fileCount: this.store.meta("file_count"),
      entryCount: this.store.meta("inode_count"),
      revision: this.store.meta("revision"),
      ...stored,
    };
  }
}

export type { BatchOp, FsResult };

/**
 * The workspace filesystem over a Durable Object's SQLite: the one object the
 * WorkspaceDO (and tests) talk to. Mutations run one at a time behind a lock, because a
 * streaming write or a GC pass awaits between statements and must not interleave with
 * another mutation; reads never wait for it.
 */

import { migrateSchema } from "../../sqlMigrations.ts";
import { normalizePath } from "../paths.ts";
import { type Change, changesSince, compactChanges } from "./changes.ts";
import { type FsResult, fail } from "./errors.ts";
import type { ForkCursor, ForkPage } from "./forks/export.ts";
import { borrowFrom, copyAbsent, doneBorrowing, exportFork, forgetOrigin, lend, pinForFork } from "./forks/fork.ts";
import {
  abandonImport,
  type ForkCounts,
  type ForkOrigin,
  forkOrigin,
  importCall,
  isImporting,
  isPristine,
  resumeCursor,
  startImport,
} from "./forks/import.ts";
import type { ChunkLender } from "./forks/lend.ts";
import { forkPins, releaseFork } from "./forks/pins.ts";
import { type ForkRead, readForFork } from "./forks/reads.ts";
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
import { packPast } from "./pack.ts";
import { vfsSchema } from "./schema.ts";
import { Store } from "./store.ts";
import type { PreciseTime } from "./times.ts";
import { type Diff, diff, patch } from "./versions/diff.ts";
import { history } from "./versions/history.ts";
import { listAt, readAt, statAt } from "./versions/read.ts";
import { restore } from "./versions/restore.ts";
import { historyWindowMs, pruneHistory, revisionOf, setHistoryWindow } from "./versions/retention.ts";
import {
  createSnapshot,
  deleteSnapshot,
  getSnapshot,
  listSnapshots,
  snapshotCount,
  snapshotsBeforeRuns,
} from "./versions/snapshots.ts";

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
    migrateSchema({ sql, transactionSync }, vfsSchema(nowMs()));
    // Uploads staged by a previous instance died with it; their chunks become garbage.
    sql.exec("DELETE FROM upload_chunks");
    // So did a fork's import that came in several calls and never finished (forks/import.ts).
    abandonImport(sql, nowMs());
    this.store = new Store(sql, transactionSync, nowMs);
    this.importing = isImporting(sql);
  }

  /**
   * Runs `fn` after every earlier mutation has finished. Public for ConfinedVfs, whose
   * check must run under the same lock as the mutation it guards.
   */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    // The actor is the one acting when the mutation was asked for, not when it runs.
    const actor = this.actor;
    const inLock = async () => {
      if (this.windowGate && this.windowDue(this.windowGate)) await this.settleWindow(this.windowGate);
      if (this.importGate && this.importing) await this.importGate();
      this.store.actor = actor;
      return fn();
    };
    const run = this.tail.then(inLock, inLock);
    this.tail = run.catch(() => {});
    return run.finally(() => this.announce());
  }

  /**
   * Where the history window comes from (the tenant's plan), asked under the lock before the
   * first mutation of this instance, whoever makes it: an API call, a run's file calls, a
   * container's push or a restore. So no change is ever recorded before the plan's window
   * applies, and the version it replaces is kept (docs/vfs.md, "Versions"). Asked until it
   * answers once, and again before a mutation once `refreshMs` has passed since it last
   * answered, so a plan change reaches an object that stays awake; while it cannot answer,
   * the window stored before stays in force.
   */
  private windowGate: { ask: () => Promise<number>; refreshMs: number; answeredMs: number | null } | null = null;

  keepHistoryFor(windowMs: () => Promise<number>, refreshMs = Number.POSITIVE_INFINITY): void {
    this.windowGate = { ask: windowMs, refreshMs, answeredMs: null };
  }

  private windowDue(gate: { refreshMs: number; answeredMs: number | null }): boolean {
    return gate.answeredMs === null || this.store.nowMs() - gate.answeredMs >= gate.refreshMs;
  }

  private async settleWindow(gate: NonNullable<Vfs["windowGate"]>): Promise<void> {
    let windowMs: number;
    try {
      windowMs = await gate.ask();
    } catch (error) {
      console.error("the history window could not be read; the stored one applies", error);
      return;
    }
    // An explicit setHistoryWindow may have come meanwhile (it clears the gate): it wins.
    if (this.windowGate !== gate) return;
    gate.answeredMs = this.store.nowMs();
    setHistoryWindow(this.store, windowMs);
  }

  /**
   * Whether a fork's rows are still arriving (the `fork_importing` mark, kept here so reads
   * and changes ask no statement for it: only `startFork` and `importCall` move the mark).
   */
  private importing: boolean;

  /** What a mutation awaits while a fork's rows are still arriving: the end of the import (forks.ts). */
  private importGate: (() => Promise<void>) | null = null;

  holdChangesDuringImport(untilImported: () => Promise<void>): void {
    this.importGate = untilImported;
  }

  private actor: string | null = null;

  /**
   * Runs `fn`, recording `actor` (`key:<id>`, `exec:<id>`) on every change and snapshot the
   * mutations `fn` asks for synchronously make: what a file's history shows as their author.
   */
  actingAs<T>(actor: string | null, fn: () => T): T {
    const before = this.actor;
    this.actor = actor;
    try {
      return fn();
    } finally {
      this.actor = before;
    }
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

  // Versions (versions/): snapshots, reading the past, the history window.
  snapshot = (fields: { name?: string; description?: string; execId?: string } = {}) =>
    this.exclusive(() => createSnapshot(this.store, fields));
  listSnapshots = (options: { limit: number; cursor?: string | undefined }) => listSnapshots(this.store, options);
  getSnapshot = (id: string) => getSnapshot(this.store, id);
  snapshotsBeforeRuns = (execIds: readonly string[]) => snapshotsBeforeRuns(this.store, execIds);
  snapshotCount = () => snapshotCount(this.store);
  deleteSnapshot = (id: string) => this.exclusive(() => deleteSnapshot(this.store, id));
  /** A snapshot id, a revision number or `live`, as a readable revision (retention.ts). */
  revisionOf = (ref: string | number) => revisionOf(this.store, ref);
  readAt = (ref: string | number, path: string, options?: ReadOptions) => {
    const at = revisionOf(this.store, ref);
    return at.ok ? readAt(this.store, at.revision, path, options) : at;
  };
  statAt = (ref: string | number, path: string, follow = true) => {
    const at = revisionOf(this.store, ref);
    return at.ok ? statAt(this.store, at.revision, path, follow) : at;
  };
  listAt = (
    ref: string | number,
    path: string,
    options?: { recursive?: boolean; limit?: number; cursor?: string | undefined },
  ) => {
    const at = revisionOf(this.store, ref);
    return at.ok ? listAt(this.store, at.revision, path, options) : at;
  };
  findAt = (ref: string | number, path: string, options?: FindOptions) => {
    const at = revisionOf(this.store, ref);
    return at.ok ? find(this.store, path, options, at.revision) : at;
  };
  grepAt = async (ref: string | number, pattern: string, path: string, options?: GrepOptions) => {
    const at = revisionOf(this.store, ref);
    return at.ok ? grep(this.store, pattern, path, options, at.revision) : at;
  };
  /**
   * What changed from one version to another (`to` defaults to live); `path` keeps what is at
   * or under it; `patch` adds unified diff text (EFBIG past `patchBytesMax`).
   */
  diff = async (
    fromRef: string | number,
    toRef: string | number = "live",
    options: { patch?: boolean; path?: string; patchBytesMax?: number } = {},
  ): Promise<FsResult<Diff & { patch?: string }>> => {
    const from = revisionOf(this.store, fromRef);
    if (!from.ok) return from;
    const to = revisionOf(this.store, toRef);
    if (!to.ok) return to;
    let within: string | null = null;
    if (options.path !== undefined) {
      const normal = normalizePath(options.path);
      if (!normal.ok) return fail(normal.code, normal.detail, options.path);
      within = normal.path;
    }
    const result = diff(this.store, from.revision, to.revision, undefined, within);
    if (!options.patch) return { ok: true as const, ...result };
    const text = await patch(this.store, result, options.patchBytesMax);
    return text.ok ? { ok: true as const, ...result, patch: text.patch } : text;
  };
  history = (path: string) => history(this.store, path);
  /** Makes the live tree equal to a version's, as a new revision (so it can be undone). */
  restore = (ref: string | number) =>
    this.exclusive(() => {
      const at = revisionOf(this.store, ref);
      return at.ok ? restore(this.store, { revision: at.revision, snapshotId: at.snapshotId ?? null }) : at;
    });
  /** How long every version is kept (a plan's history window; 0 keeps only snapshots). */
  setHistoryWindow = (windowMs: number) => {
    // Set explicitly (tests, benchmarks), the window is settled: the plan's gate no longer applies.
    this.windowGate = null;
    return this.exclusive(() => setHistoryWindow(this.store, windowMs));
  };
  historyWindowMs = () => historyWindowMs(this.store);

  /** One bounded GC, history pruning, packing and compaction pass; `remaining` says whether to run again. */
  maintain = () =>
    this.exclusive(() => {
      // Pruning first: the chunk references it gives back become garbage this same pass.
      const history = pruneHistory(this.store);
      // Then what the past still holds is packed against what replaced it (pack.ts), which
      // may leave a base nothing needs: garbage this same pass too.
      const pack = packPast(this.store);
      const gc = collectGarbage(this.store);
      const compacted = compactChanges(this.store);
      return {
        deleted: gc.deleted,
        pruned: history.pruned,
        packed: pack.packed,
        compacted,
        remaining: gc.remaining || history.remaining || pack.remaining,
      };
    });

  hasGarbage = () => hasGarbage(this.store);

  // Forks (forks/, docs/vfs.md "Forks"). The source's side needs no lock: a pin, an
  // export call and a read are synchronous, so no mutation lands inside one.
  pinForFork = (fork: string, ref: string | number) => pinForFork(this.store, fork, ref);
  exportFork = (fork: string, cursor: ForkCursor | null, callBytesMax?: number) =>
    exportFork(this.store, fork, cursor, callBytesMax);
  readForFork = (fork: string, request: ForkRead) => readForFork(this.store, fork, request);
  lend = (fork: string, hashes: readonly string[]) => lend(this.store, fork, hashes);
  releaseFork = (fork: string) => releaseFork(this.store, fork);
  forkPins = () => forkPins(this.store);
  /**
   * Makes this new, empty workspace a fork of `origin` whose rows come later (import.ts),
   * under the lock, recorded as one change by the acting caller.
   */
  startFork = (origin: ForkOrigin, counts: ForkCounts) =>
    this.exclusive((): FsResult<{ revision: number }> => {
      if (!isPristine(this.store)) return fail("EEXIST", "only a new, empty workspace can become a fork");
      const revision = this.store.atomically(() => startImport(this.store, origin, counts));
      if (typeof revision === "number") this.importing = true;
      return typeof revision === "number" ? { ok: true, revision } : revision;
    });
  /** Whether a fork's rows are still arriving. */
  isImporting = () => this.importing;
  /** Where the import resumes (from the rows already here). */
  importCursor = () => resumeCursor(this.store.sql);
  /** Adds one import call's pages; `last` finishes the import in the same transaction. */
  importCall = (pages: readonly ForkPage[], last: boolean) => {
    importCall(this.store, pages, last);
    if (last) this.importing = false;
  };
  forkOrigin = () => forkOrigin(this.store);
  /** Where absent chunks are read through from (null: nowhere, this is no fork). */
  borrowFrom = (lender: ChunkLender | null) => borrowFrom(this.store, lender);
  copyAbsent = (max: number) => copyAbsent(this.store, max);
  doneBorrowing = () => doneBorrowing(this.store);
  forgetOrigin = () => forgetOrigin(this.store);

  /**
   * What storage bills (docs/billing.md): the bytes of the distinct chunks the live tree and
   * the snapshots reach, copied here yet or not. Kept exact by triggers (schema.ts, 5).
   */
  uniqueBytes(): number {
    return (
      this.store.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'unique_bytes'").toArray()[0]?.value ??
      0
    );
  }

  /** Whether any retired version is kept, so maintenance must come back to slide the window. */
  hasHistory = () => this.store.sql.exec("SELECT 1 FROM inodes_hist LIMIT 1").toArray().length > 0;

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

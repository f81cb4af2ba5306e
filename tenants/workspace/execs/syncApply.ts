/**
 * Applies a batch of the container's ops (container/wire SyncOp) to the workspace in one
 * transaction, under the conflict rule (container/wire/conflict.ts; docs/container-sync.md,
 * "Conflicts"): an op lands only while its path still holds the op's base, or already holds
 * what the op wants. Otherwise both sides changed the path: the object's version stays, and
 * the container's is saved beside it under a conflict name, so an acknowledged API write is
 * never replaced by a change the container made before it knew of that write.
 *
 * Link and metadata ops follow the same rule: a `link` replaces its path like a write (its
 * base is the path's state, and what it wants there is the state of the file it names), and a
 * `setattr` is a mode change's like: it lands on the version it was made on, or is dropped.
 * Owners and exact times travel with the op that makes a path, and only what differs is set.
 *
 * Each op runs in its own savepoint inside the batch's transaction, so an op the workspace
 * refuses (a quota, every conflict name taken) fails alone and the rest commits. Everything
 * here is synchronous: content was hashed before the transaction began.
 *
 * The object also remembers, per path, the last state a push of the container's gave it and
 * the base that push carried (`container_pushed`), for the one thing a base cannot say: that
 * an op was already applied once and computerd died before it heard so. It then sends the
 * same base again, and: a path still holding the state pushed is the container's own, as good
 * as the base; a path that moved on from it took a write made after the container's version
 * landed, which is sequential, not a conflict.
 */

import {
  ancestorsOf,
  conflictLimits,
  conflictName,
  conflictStamp,
  type SyncWant,
  sameState,
  syncVerdict,
} from "../../../container/wire/conflict.ts";
import type { ApplyResult, RemoteEntry, SyncBase, SyncOp } from "../../../container/wire/index.ts";
import { workspaceLimits } from "../limits.ts";
import { normalizePath } from "../paths.ts";
import type { ChunkRef } from "../vfs/content.ts";
import { FsAbort, type FsFailure, fail } from "../vfs/errors.ts";
import { link } from "../vfs/ops/link.ts";
import { mkdir } from "../vfs/ops/mkdir.ts";
import { removeIn } from "../vfs/ops/remove.ts";
import { chmod, ID_MAX } from "../vfs/ops/setattr.ts";
import { symlink } from "../vfs/ops/symlink.ts";
import { commitWrite } from "../vfs/ops/write.ts";
import { DEFAULT_OWNER, ROOT_INO } from "../vfs/schema.ts";
import { DEFAULT_FILE_MODE, type Inode, type NewEntry, type Store } from "../vfs/store.ts";
import { isPreciseTime, type PreciseTime } from "../vfs/times.ts";
import { attrsIfNeeded, attrsOf, opAttrs, writeAttrs } from "./syncAttrs.ts";

/** A file op's content, ready before the transaction: hashed (`write`) or staged (`commitUpload`). */
export interface Content {
  ok: true;
  chunks: readonly ChunkRef[];
  size: number;
  etag: string;
  /** Each chunk's bytes, stored only if the content is used; null when staging already stored them. */
  blobs: readonly Uint8Array[] | null;
}

/** Per op: its content, why it cannot be applied (an unknown upload), or null (not a file op). */
export type Prepared = Content | FsFailure | null;

type Applied = { conflict: false; unchanged?: true } | { conflict: true; savedAs: string | null };

/**
 * Paths whose last pushed state is remembered. Only a batch whose answer was lost needs it
 * (computerd sends one batch at a time), so the newest few thousand are plenty.
 */
const PUSHED_KEPT = 10_000;

/** Creates the table of the container's last pushed state per path; idempotent, run before the first batch. */
export function preparePushed(sql: SqlStorage): void {
  sql.exec(
    "CREATE TABLE IF NOT EXISTS container_pushed (path TEXT PRIMARY KEY, base TEXT NOT NULL, state TEXT NOT NULL, rev INTEGER NOT NULL)",
  );
  // Pruning finds the oldest rows by revision after every batch.
  sql.exec("CREATE INDEX IF NOT EXISTS container_pushed_rev ON container_pushed (rev)");
}

/** The state the container's last push made `path` hold, if that push carried `base` too. */
function pushedOnBase(store: Store, path: string, base: SyncBase): SyncBase | undefined {
  const row = store.sql
    .exec<{ base: string; state: string }>("SELECT base, state FROM container_pushed WHERE path = ?", path)
    .toArray()[0];
  if (!row || !sameState(JSON.parse(row.base) as SyncBase, base)) return undefined;
  return JSON.parse(row.state) as SyncBase;
}

function rememberPushed(store: Store, path: string, base: SyncBase, state: SyncBase): void {
  store.sql.exec(
    "INSERT OR REPLACE INTO container_pushed (path, base, state, rev) VALUES (?, ?, ?, ?)",
    path,
    JSON.stringify(base),
    JSON.stringify(state),
    store.meta("revision"),
  );
}

function rememberPushedMany(
  store: Store,
  rows: readonly { path: string; base: SyncBase; state: SyncBase; rev: number }[],
): void {
  const at = (i: number) => `json_extract(value, '$[${i}]')`;
  store.sql.exec(
    `INSERT OR REPLACE INTO container_pushed (path, base, state, rev) SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)} FROM json_each(?)`,
    JSON.stringify(rows.map((row) => [row.path, JSON.stringify(row.base), JSON.stringify(row.state), row.rev])),
  );
}

function prunePushed(store: Store): void {
  store.sql.exec(
    `DELETE FROM container_pushed WHERE rev < (SELECT rev FROM container_pushed ORDER BY rev DESC LIMIT 1 OFFSET ?)`,
    PUSHED_KEPT,
  );
}

const APPLIED: Applied = { conflict: false };

export function applyBatch(
  store: Store,
  ops: readonly SyncOp[],
  prepared: readonly Prepared[],
  entryAt: (path: string) => RemoteEntry | null,
): ApplyResult {
  const result: ApplyResult = {
    ok: true,
    revs: [],
    revsFrom: [],
    entries: [],
    revision: 0,
    failures: [],
    conflicts: [],
    unchanged: [],
  };
  const one = (index: number) => {
    const op = ops[index] as SyncOp;
    const before = store.meta("revision");
    const outcome = store.atomically((): Applied & { ok: true } => ({
      ok: true,
      ...applyOne(store, op, prepared[index] ?? null),
    }));
    if (!outcome.ok) result.failures.push({ index, code: outcome.code, message: outcome.message });
    else if (outcome.conflict) result.conflicts?.push({ index, path: op.path, savedAs: outcome.savedAs });
    else if (outcome.unchanged) result.unchanged?.push(index);
    const after = store.meta("revision");
    result.revs.push(after === before ? 0 : after);
    result.revsFrom?.push(before);
    result.entries.push(entryAt(op.path));
  };
  // Ops that only add (a command's new files and directories, the usual bulk of a push) are
  // gathered while they follow one another and written together (addRun); any other op
  // first writes what was gathered, then applies alone.
  const run = new AddRun(store);
  const flush = () => {
    const adding = run.take();
    if (adding.length > 0) addRun(store, adding, result, entryAt, one);
  };
  ops.forEach((op, index) => {
    if (run.add(op, index, prepared[index] ?? null)) return;
    flush();
    one(index);
  });
  flush();
  prunePushed(store);
  result.revision = store.meta("revision");
  return result;
}

/** One op of a run of adds: where it goes, and what it makes there. */
interface Adding {
  index: number;
  entry: NewEntry;
  want: NonNullable<SyncBase>;
  /** A file's chunks' bytes, stored with it. */
  blobs: readonly Uint8Array[];
}

/**
 * Gathers ops that only add: a `write` of content given inline or a `mkdir`, each on the base
 * "nothing here" where the object has nothing either (the verdict is then "apply", and the
 * op is a create), under a directory the object has, reached without a symlink, or one an
 * earlier op of the run makes; within the workspace's limits. What the run leaves out (any
 * other op, a path the run already has, a limit it would reach) goes the usual way, alone.
 */
class AddRun {
  private adding: Adding[] = [];
  /** The run's paths, with each one's index in `adding`. */
  private readonly paths = new Map<string, number>();
  /** Entries the run adds to each directory the object has. */
  private readonly added = new Map<number, number>();
  private bytes = 0;

  constructor(private readonly store: Store) {}

  add(op: SyncOp, index: number, prepared: Prepared): boolean {
    if (op.base !== null || (op.op !== "write" && op.op !== "mkdir")) return false;
    let content: Content | null = null;
    if (op.op === "write") {
      if (prepared?.ok !== true || prepared.blobs === null) return false;
      content = prepared;
    }
    const norm = normalizePath(op.path);
    if (!norm.ok || norm.path === "/" || this.paths.has(norm.path)) return false;
    const path = norm.path;
    const attrs = attrsOf(op);
    const mode = op.op === "mkdir" ? op.mode : (op.mode ?? DEFAULT_FILE_MODE);
    if (!validAttrs({ ...attrs, mode })) return false;
    if (path.split("/").length - 1 > workspaceLimits.depthMax) return false;
    const { store } = this;
    const cut = path.lastIndexOf("/");
    const dirPath = path.slice(0, cut) || "/";
    const name = path.slice(cut + 1);
    let parent: NewEntry["parent"];
    const madeHere = this.paths.get(dirPath);
    if (madeHere !== undefined) {
      if (this.adding[madeHere]?.entry.type !== "dir") return false;
      parent = { made: madeHere };
    } else {
      const dir = store.resolve(dirPath, true);
      if (!dir.ok || dir.inode.type !== "dir" || dir.path !== dirPath) return false;
      if (store.lookup(dir.ino, name) !== null) return false;
      const added = this.added.get(dir.ino) ?? 0;
      if (dir.inode.entries + added + 1 > workspaceLimits.entriesPerDirectoryMax) return false;
      this.added.set(dir.ino, added + 1);
      parent = dir.ino;
    }
    const size = content?.size ?? 0;
    if (store.meta("inode_count") + this.adding.length + 1 > workspaceLimits.inodesMax) return false;
    if (store.meta("size_bytes") + this.bytes + size > workspaceLimits.workspaceBytesMax) return false;
    this.bytes += size;
    this.paths.set(path, this.adding.length);
    this.adding.push({
      index,
      entry: {
        parent,
        name,
        path,
        type: op.op === "mkdir" ? "dir" : "file",
        mode,
        uid: attrs.uid ?? DEFAULT_OWNER.uid,
        gid: attrs.gid ?? DEFAULT_OWNER.gid,
        mtime: attrs.mtime === "now" ? undefined : attrs.mtime,
        size,
        etag: content?.etag ?? null,
        chunks: content?.chunks ?? [],
      },
      want: content ? { type: "file", etag: content.etag } : { type: "dir" },
      blobs: content?.blobs ?? [],
    });
    return true;
  }

  /** The run gathered so far, which starts again empty. */
  take(): Adding[] {
    const adding = this.adding;
    this.adding = [];
    this.paths.clear();
    this.added.clear();
    this.bytes = 0;
    return adding;
  }
}

/** What setattr would accept: the slow way refuses the rest, alone. */
function validAttrs(attrs: { mode: number; uid?: number | undefined; gid?: number | undefined; mtime?: unknown }) {
  const id = (n: number | undefined) => n === undefined || (Number.isInteger(n) && n >= 0 && n <= ID_MAX);
  const time = attrs.mtime;
  return (
    Number.isInteger(attrs.mode) &&
    attrs.mode >= 0 &&
    attrs.mode <= 0o7777 &&
    id(attrs.uid) &&
    id(attrs.gid) &&
    (time === undefined || time === "now" || isPreciseTime(time as PreciseTime))
  );
}

/**
 * Writes a run of adds in one savepoint, a statement per table (Store.addNew): each op
 * still has a revision of its own and the answer it would have had alone. Should the
 * savepoint fail anyway, each op is applied alone (`one`), and fails or lands as it would.
 */
function addRun(
  store: Store,
  adding: readonly Adding[],
  result: ApplyResult,
  entryAt: (path: string) => RemoteEntry | null,
  one: (index: number) => void,
): void {
  const made = store.atomically(() => {
    for (const { entry, blobs } of adding)
      for (const [i, blob] of blobs.entries()) store.putBlob((entry.chunks[i] as ChunkRef).hash, blob);
    const made = store.addNew(adding.map((a) => a.entry));
    rememberPushedMany(
      store,
      adding.map(({ entry, want }, i) => ({ path: entry.path, base: null, state: want, rev: made[i]?.rev ?? 0 })),
    );
    return { ok: true as const, made };
  });
  if (!made.ok) {
    for (const { index } of adding) one(index);
    return;
  }
  adding.forEach(({ entry }, i) => {
    const rev = made.made[i]?.rev ?? 0;
    result.revs.push(rev);
    result.revsFrom?.push(rev - 1);
    result.entries.push(entryAt(entry.path));
  });
}

function applyOne(store: Store, op: SyncOp, prepared: Prepared): Applied {
  if (prepared?.ok === false) throw new FsAbort(prepared);
  const content = prepared;
  const path = normalized(op.path);
  if (op.base === undefined) {
    replace(store, op, path, content, stateAt(store, path).state, true);
    return APPLIED;
  }
  const shadow = shadowingAncestor(store, path);
  if (shadow) return redirected(store, op, path, content, shadow);
  const current = stateAt(store, path);
  const want = wantOf(store, op, content);
  const pushed = pushedOnBase(store, path, op.base);
  // Still what the container's unacknowledged push made it: its own version.
  const base = pushed !== undefined && sameState(current.state, pushed) ? current.state : op.base;
  let verdict = syncVerdict(base, current.state, want, current.empty);
  // The container's version landed once and was written over since: that write came after it.
  if (verdict === "conflict" && pushed !== undefined && want !== "attrs" && sameState(want, pushed)) {
    verdict = "unchanged";
  }
  switch (verdict) {
    // Already what the op wants: replacing it only brings the metadata in line (and makes a
    // link one inode with its file, or gives a file the box replaced a name of its own).
    case "same":
    case "apply":
      replace(store, op, path, content, current.state, false);
      if (want !== "attrs") rememberPushed(store, path, op.base, want);
      return APPLIED;
    case "unchanged":
      return { conflict: false, unchanged: true };
    case "conflict":
      if (metadataOnly(op) || op.op === "remove") return { conflict: true, savedAs: null };
      return { conflict: true, savedAs: saveCopy(store, op, path, content, current.state) };
  }
}

/**
 * Makes `path` hold what `op` says, over `current`. Directories are only ever removed empty
 * (the verdict saw to it), except for an op without a base, which replaces as it always did.
 */
function replace(
  store: Store,
  op: SyncOp,
  path: string,
  content: Content | null,
  current: SyncBase,
  recursive: boolean,
): void {
  const clear = (state: SyncBase = current) => {
    if (state) removeIn(store, path, { recursive });
  };
  const attrs = opAttrs(op);
  switch (op.op) {
    case "remove":
      clear();
      return;
    case "chmod":
      if (current) succeed(chmod(store, path, op.mode));
      return;
    case "setattr":
      if (current) attrsIfNeeded(store, path, attrsOf(op));
      return;
    case "mkdir":
      if (current?.type !== "dir") {
        clear();
        succeed(mkdir(store, path, { recursive: true, mode: op.mode }));
      }
      attrsIfNeeded(store, path, attrs);
      return;
    case "symlink":
      if (current?.type !== "symlink" || current.target !== op.target) {
        clear();
        ensureParent(store, path);
        succeed(symlink(store, op.target, path));
      }
      attrsIfNeeded(store, path, attrs);
      return;
    case "link": {
      const source = linkSource(store, op.existing);
      const here = store.resolve(path, false);
      if (here.ok && here.ino === source.ino) return;
      clear();
      ensureParent(store, path);
      succeed(link(store, op.existing, path));
      return;
    }
    case "write":
    case "commitUpload": {
      const file = content as Content;
      let there = current;
      // The box's file has this name only while the object's has others: the box replaced
      // it rather than writing through it, so this name gets a file of its own.
      if (there?.type === "file" && op.nlink === 1 && namesOfFileAt(store, path) > 1) {
        removeIn(store, path);
        there = null;
      }
      if (there?.type !== "file") clear(there);
      else if (there.etag === file.etag) {
        // The same content again (a resent batch, a file saved unchanged): only metadata.
        attrsIfNeeded(store, path, attrs);
        return;
      }
      for (const [i, blob] of (file.blobs ?? []).entries()) store.putBlob((file.chunks[i] as ChunkRef).hash, blob);
      commitWrite(store, path, file.chunks, file.size, file.etag, {
        mode: "overwrite",
        fileMode: op.mode,
        attrs: writeAttrs(attrs),
      });
      attrsIfNeeded(store, path, attrs);
      return;
    }
  }
}

/** The file or link a `link` op names, which must exist and not be a directory (as link(2)). */
function linkSource(store: Store, existing: string): { ino: number; inode: Inode } {
  const source = store.resolve(existing, false);
  if (!source.ok) throw new FsAbort(source);
  if (source.inode.type === "dir") throw new FsAbort(fail("EPERM", `${existing} is a directory`, existing));
  return source;
}

/** How many names the file at `path` has on the object (its hard links); 0 when none is there. */
function namesOfFileAt(store: Store, path: string): number {
  const resolved = store.resolve(path, false);
  return resolved.ok ? resolved.inode.nlink : 0;
}

/** A mode or metadata change, which has no version of its own to save when it conflicts. */
function metadataOnly(op: SyncOp): boolean {
  return op.op === "chmod" || op.op === "setattr";
}

/**
 * Saves the container's version of `path` beside the object's: at the first conflict name
 * that is free, or that already holds exactly this version (the same batch sent again).
 */
function saveCopy(store: Store, op: SyncOp, path: string, content: Content | null, kept: SyncBase): string {
  const want = wantOf(store, op, content);
  const stamp = conflictStamp(kept);
  for (let attempt = 1; attempt <= conflictLimits.namesTriedMax; attempt++) {
    const name = conflictName(path, stamp, attempt);
    const there = stateAt(store, name).state;
    if (there === null) {
      replace(store, op, name, content, null, false);
      return name;
    }
    if (want !== "attrs" && sameState(there, want)) {
      attrsIfNeeded(store, name, opAttrs(op));
      return name;
    }
  }
  throw new FsAbort(fail("EEXIST", `every name tried for the container's copy of ${path} is taken`, path));
}

/**
 * An op under a directory the object has since replaced with a file or link (`shadow`): the
 * container's directory lives on as that path's conflict copy, a directory of the same
 * conflict name, and the op lands inside it as a new entry. A removal or metadata change there
 * is moot: what it changed went with the directory.
 */
function redirected(
  store: Store,
  op: SyncOp,
  path: string,
  content: Content | null,
  shadow: { path: string; kept: SyncBase },
): Applied {
  if (op.op === "remove" || metadataOnly(op)) return APPLIED;
  const root = copyRoot(store, shadow);
  const target = root + path.slice(shadow.path.length);
  const inner = applyOne(store, { ...op, path: target, base: null }, content);
  return { conflict: true, savedAs: inner.conflict ? inner.savedAs : target };
}

/** The conflict name of `shadow` that is free or already a directory (the container's, from an earlier op). */
function copyRoot(store: Store, shadow: { path: string; kept: SyncBase }): string {
  const stamp = conflictStamp(shadow.kept);
  for (let attempt = 1; attempt <= conflictLimits.namesTriedMax; attempt++) {
    const name = conflictName(shadow.path, stamp, attempt);
    const there = stateAt(store, name).state;
    if (there === null || there.type === "dir") return name;
  }
  throw new FsAbort(fail("EEXIST", `every name tried for the container's copy of ${shadow.path} is taken`));
}

/** The nearest-the-root ancestor of `path` that the object holds as something other than a directory. */
function shadowingAncestor(store: Store, path: string): { path: string; kept: SyncBase } | null {
  let dir = ROOT_INO;
  for (const ancestor of ancestorsOf(path)) {
    const child = store.lookup(dir, ancestor.slice(ancestor.lastIndexOf("/") + 1));
    if (!child) return null;
    if (child.type !== "dir") return { path: ancestor, kept: stateOf(child) };
    dir = child.ino;
  }
  return null;
}

function stateAt(store: Store, path: string): { state: SyncBase; empty: boolean } {
  const resolved = store.resolve(path, false);
  if (resolved.ok) return { state: stateOf(resolved.inode), empty: resolved.inode.entries === 0 };
  if (resolved.code === "ENOENT" || resolved.code === "ENOTDIR") return { state: null, empty: true };
  throw new FsAbort(resolved);
}

function stateOf(inode: Inode): NonNullable<SyncBase> {
  if (inode.type === "dir") return { type: "dir" };
  if (inode.type === "symlink") return { type: "symlink", target: inode.target ?? "" };
  return { type: "file", etag: inode.etag ?? "" };
}

/** What `op` makes its path hold; for a link, what the file it names holds (refused as link(2) would). */
function wantOf(store: Store, op: SyncOp, content: Content | null): SyncWant {
  switch (op.op) {
    case "remove":
      return null;
    case "chmod":
    case "setattr":
      return "attrs";
    case "link":
      return stateOf(linkSource(store, op.existing).inode);
    case "mkdir":
      return { type: "dir" };
    case "symlink":
      return { type: "symlink", target: op.target };
    case "write":
    case "commitUpload":
      return { type: "file", etag: (content as Content).etag };
  }
}

/** Creates the directories above `path` (a link's parent may be gone: the API removed it). */
function ensureParent(store: Store, path: string): void {
  store.ensureDirectory(path.slice(0, path.lastIndexOf("/")) || "/");
}

function normalized(path: string): string {
  const result = normalizePath(path);
  if (!result.ok) throw new FsAbort(fail(result.code, result.detail, path));
  return result.path;
}

function succeed(result: { ok: true } | FsFailure): void {
  if (!result.ok) throw new FsAbort(result);
}

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
 *
 * Each part has a file of its own: what a path holds and what an op wants (./syncState.ts),
 * the runs of adds and of removals written together (./syncAddRun.ts, ./syncRemoveRun.ts),
 * the remembered pushes (./syncPushed.ts)
 * and the metadata an op carries (./syncAttrs.ts). This file is the rule's verdict per op,
 * and what each verdict does to the tree.
 */

import {
  conflictLimits,
  conflictName,
  conflictStamp,
  sameState,
  syncVerdict,
} from "../../../container/wire/conflict.ts";
import type { ApplyResult, RemoteEntry, SyncBase, SyncOp } from "../../../container/wire/index.ts";
import type { ChunkRef } from "../vfs/content.ts";
import { FsAbort, fail } from "../vfs/errors.ts";
import { link } from "../vfs/ops/link.ts";
import { mkdir } from "../vfs/ops/mkdir.ts";
import { removeIn } from "../vfs/ops/remove.ts";
import { chmod } from "../vfs/ops/setattr.ts";
import { symlink } from "../vfs/ops/symlink.ts";
import { commitWrite } from "../vfs/ops/write.ts";
import type { Store } from "../vfs/store.ts";
import { AddRun, addRun } from "./syncAddRun.ts";
import { attrsIfNeeded, attrsOf, opAttrs, writeAttrs } from "./syncAttrs.ts";
import { prunePushed, pushedOnBase, rememberPushed } from "./syncPushed.ts";
import { RemoveRun, removeRun } from "./syncRemoveRun.ts";
import {
  type Content,
  ensureParent,
  linkSource,
  metadataOnly,
  namesOfFileAt,
  normalized,
  type Prepared,
  shadowingAncestor,
  stateAt,
  succeed,
  wantOf,
} from "./syncState.ts";

type Applied = { conflict: false; unchanged?: true } | { conflict: true; savedAs: string | null };

const APPLIED: Applied = { conflict: false };

/**
 * Applies a batch: `prepared` holds each op's content (hashed or staged before the
 * transaction), and `entryAt` reads a path back for the op's answer.
 */
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
  // gathered while they follow one another and written together (addRun), and so are
  // removals the rule lets land (removeRun); any other op first writes what was gathered,
  // then applies alone. Each run is written before an op of another kind is looked at, so
  // every op sees the tree as the ops before it left it.
  const adds = new AddRun(store);
  const removes = new RemoveRun(store);
  const flushAdds = () => {
    const adding = adds.take();
    if (adding.length > 0) addRun(store, adding, result, entryAt, one);
  };
  const flushRemoves = () => {
    const removing = removes.take();
    if (removing.length > 0) removeRun(store, removing, result, one);
  };
  ops.forEach((op, index) => {
    if (op.op === "remove") {
      flushAdds();
      if (removes.add(op, index)) return;
    } else {
      flushRemoves();
      if (adds.add(op, index, prepared[index] ?? null)) return;
    }
    flushAdds();
    flushRemoves();
    one(index);
  });
  flushAdds();
  flushRemoves();
  prunePushed(store);
  result.revision = store.meta("revision");
  return result;
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

/**
 * Both sides of the conflict rule (container/wire/conflict.ts) as the object reads them from
 * its store: the state a path holds now, and the state an op of the container's wants there
 * (for a file, its content, hashed before the transaction began). Also the small checks the
 * applying code shares: a path normalized or refused, a link's source, a result that must
 * have succeeded. Used by ./syncApply.ts and ./syncAddRun.ts.
 */
import { ancestorsOf, type SyncWant } from "../../../container/wire/conflict.ts";
import type { SyncBase, SyncOp } from "../../../container/wire/index.ts";
import { normalizePath } from "../paths.ts";
import type { ChunkRef } from "../vfs/content.ts";
import { FsAbort, type FsFailure, fail } from "../vfs/errors.ts";
import { ROOT_INO } from "../vfs/schema.ts";
import type { Inode, Store } from "../vfs/store.ts";

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

/** The file or link a `link` op names, which must exist and not be a directory (as link(2)). */
export function linkSource(store: Store, existing: string): { ino: number; inode: Inode } {
  const source = store.resolve(existing, false);
  if (!source.ok) throw new FsAbort(source);
  if (source.inode.type === "dir") throw new FsAbort(fail("EPERM", `${existing} is a directory`, existing));
  return source;
}

/** How many names the file at `path` has on the object (its hard links); 0 when none is there. */
export function namesOfFileAt(store: Store, path: string): number {
  const resolved = store.resolve(path, false);
  return resolved.ok ? resolved.inode.nlink : 0;
}

/** A mode or metadata change, which has no version of its own to save when it conflicts. */
export function metadataOnly(op: SyncOp): boolean {
  return op.op === "chmod" || op.op === "setattr";
}

/** The nearest-the-root ancestor of `path` that the object holds as something other than a directory. */
export function shadowingAncestor(store: Store, path: string): { path: string; kept: SyncBase } | null {
  let dir = ROOT_INO;
  for (const ancestor of ancestorsOf(path)) {
    const child = store.lookup(dir, ancestor.slice(ancestor.lastIndexOf("/") + 1));
    if (!child) return null;
    if (child.type !== "dir") return { path: ancestor, kept: stateOf(child) };
    dir = child.ino;
  }
  return null;
}

/** What `path` holds now, and whether it is an empty directory (or nothing). */
export function stateAt(store: Store, path: string): { state: SyncBase; empty: boolean } {
  const resolved = store.resolve(path, false);
  if (resolved.ok) return { state: stateOf(resolved.inode), empty: resolved.inode.entries === 0 };
  if (resolved.code === "ENOENT" || resolved.code === "ENOTDIR") return { state: null, empty: true };
  throw new FsAbort(resolved);
}

/** An inode's state as the wire's bases carry it. */
export function stateOf(inode: Inode): NonNullable<SyncBase> {
  if (inode.type === "dir") return { type: "dir" };
  if (inode.type === "symlink") return { type: "symlink", target: inode.target ?? "" };
  return { type: "file", etag: inode.etag ?? "" };
}

/** What `op` makes its path hold; for a link, what the file it names holds (refused as link(2) would). */
export function wantOf(store: Store, op: SyncOp, content: Content | null): SyncWant {
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
export function ensureParent(store: Store, path: string): void {
  store.ensureDirectory(path.slice(0, path.lastIndexOf("/")) || "/");
}

/** `path` normalized; a path the workspace refuses aborts the op. */
export function normalized(path: string): string {
  const result = normalizePath(path);
  if (!result.ok) throw new FsAbort(fail(result.code, result.detail, path));
  return result.path;
}

/** Aborts the op with a filesystem call's failure. */
export function succeed(result: { ok: true } | FsFailure): void {
  if (!result.ok) throw new FsAbort(result);
}

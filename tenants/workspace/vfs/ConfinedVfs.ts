/**
 * The workspace filesystem as a credential confined to a path prefix sees it: the same
 * operations as Vfs, each refused with EACCES when a path it reaches is, or leads through a
 * symlink to, somewhere outside the prefix (confine.ts has the rule).
 *
 * A check is only as good as the moment it is made, so each one runs where nothing can
 * change the tree between it and the operation: a mutation's check runs under the Vfs
 * mutation lock, a batch's inside its transaction before each step, and a read's in the
 * same synchronous step that resolves its path. grep, which resolves each file again as it
 * scans, runs under the lock too.
 */
import { confine, confineLinkTarget, entry, follows, type Reach } from "./confine.ts";
import type { FsFailure } from "./errors.ts";
import { type BatchOp, batch } from "./ops/batch.ts";
import { copy } from "./ops/copy.ts";
import type { FindOptions } from "./ops/find.ts";
import type { GrepOptions } from "./ops/grep.ts";
import { link } from "./ops/link.ts";
import type { ListOptions } from "./ops/list.ts";
import { mkdir } from "./ops/mkdir.ts";
import { move } from "./ops/move.ts";
import type { ReadOptions } from "./ops/read.ts";
import { type RemoveOptions, remove } from "./ops/remove.ts";
import { chmod, chown, utimes } from "./ops/setattr.ts";
import { symlink } from "./ops/symlink.ts";
import { truncate } from "./ops/truncate.ts";
import { type WriteOptions, write } from "./ops/write.ts";
import type { PreciseTime } from "./times.ts";
import type { Vfs } from "./Vfs.ts";

/** The filesystem operations, whole or confined; what WorkspaceDO and executors call. */
export type VfsOps = Pick<
  Vfs,
  | "read"
  | "readBytes"
  | "stat"
  | "lstat"
  | "readlink"
  | "list"
  | "find"
  | "grep"
  | "write"
  | "truncate"
  | "mkdir"
  | "remove"
  | "move"
  | "copy"
  | "symlink"
  | "chmod"
  | "chown"
  | "utimes"
  | "link"
  | "batch"
>;

/** The paths a batch step reaches, as the step itself reaches them. */
function batchReaches(op: BatchOp): Reach[] {
  if (op.op === "write") return [follows(op.path)];
  if (op.op === "delete") return [entry(op.path)];
  return [entry(op.from), entry(op.to)];
}

export class ConfinedVfs implements VfsOps {
  constructor(
    private readonly vfs: Vfs,
    readonly prefix: string,
  ) {}

  /** The failure for the first reach outside the prefix, or null. */
  refuse(reaches: readonly Reach[], options: { ancestors?: boolean } = {}): FsFailure | null {
    return confine(this.vfs.store, this.prefix, reaches, options);
  }

  // Reads: the check and the path resolution happen in one synchronous step.
  read: Vfs["read"] = (path: string, options?: ReadOptions) =>
    this.refuse([follows(path)]) ?? this.vfs.read(path, options);
  readBytes: Vfs["readBytes"] = async (path: string) => this.refuse([follows(path)]) ?? this.vfs.readBytes(path);
  stat: Vfs["stat"] = (path: string) => this.refuse([follows(path)], { ancestors: true }) ?? this.vfs.stat(path);
  lstat: Vfs["lstat"] = (path: string) => this.refuse([entry(path)], { ancestors: true }) ?? this.vfs.lstat(path);
  readlink: Vfs["readlink"] = (path: string) => this.refuse([entry(path)]) ?? this.vfs.readlink(path);
  list: Vfs["list"] = (path: string, options?: ListOptions) =>
    this.refuse([follows(path)]) ?? this.vfs.list(path, options);
  find: Vfs["find"] = (path: string, options?: FindOptions) =>
    this.refuse([follows(path)]) ?? this.vfs.find(path, options);
  grep: Vfs["grep"] = (pattern: string, path: string, options?: GrepOptions) =>
    this.vfs.exclusive(async () => this.refuse([follows(path)]) ?? this.vfs.grep(pattern, path, options));

  // Mutations: the check runs under the mutation lock, right before the operation.
  write: Vfs["write"] = (path: string, body: ReadableStream<Uint8Array> | Uint8Array, options?: WriteOptions) =>
    this.locked([follows(path)], () => write(this.vfs.store, path, body, options));
  truncate: Vfs["truncate"] = (path: string, size: number) =>
    this.locked([follows(path)], () => truncate(this.vfs.store, path, size));
  mkdir: Vfs["mkdir"] = (path: string, options?: { recursive?: boolean; mode?: number }) =>
    this.locked([entry(path)], () => mkdir(this.vfs.store, path, options));
  remove: Vfs["remove"] = (path: string, options?: RemoveOptions) =>
    this.locked([entry(path)], () => remove(this.vfs.store, path, options));
  move: Vfs["move"] = (from: string, to: string, options?: { overwrite?: boolean }) =>
    this.locked([entry(from), entry(to)], () => move(this.vfs.store, from, to, options));
  copy: Vfs["copy"] = (from: string, to: string, options?: { overwrite?: boolean }) =>
    this.locked([follows(from), entry(to)], () => copy(this.vfs.store, from, to, options));
  chmod: Vfs["chmod"] = (path: string, mode: number) =>
    this.locked([follows(path)], () => chmod(this.vfs.store, path, mode));
  chown: Vfs["chown"] = (path: string, owner: { uid?: number; gid?: number }, options?: { follow?: boolean }) =>
    this.locked([options?.follow === false ? entry(path) : follows(path)], () =>
      chown(this.vfs.store, path, owner, options),
    );
  utimes: Vfs["utimes"] = (path: string, mtime: PreciseTime | "now", options?: { follow?: boolean }) =>
    this.locked([options?.follow === false ? entry(path) : follows(path)], () =>
      utimes(this.vfs.store, path, mtime, options),
    );
  // Both names must be inside the prefix: the new one, and the file it names.
  link: Vfs["link"] = (existing: string, path: string) =>
    this.locked([entry(existing), entry(path)], () => link(this.vfs.store, existing, path));
  symlink: Vfs["symlink"] = (target: string, path: string) =>
    this.vfs.exclusive(
      () =>
        this.refuse([entry(path)]) ??
        confineLinkTarget(this.vfs.store, this.prefix, target, path) ??
        symlink(this.vfs.store, target, path),
    );
  batch: Vfs["batch"] = (ops: readonly BatchOp[]) =>
    this.vfs.exclusive(() => batch(this.vfs.store, ops, (op) => this.refuse(batchReaches(op))));

  private locked<T>(reaches: readonly Reach[], run: () => T | Promise<T>): Promise<T | FsFailure> {
    return this.vfs.exclusive(() => this.refuse(reaches) ?? run());
  }
}

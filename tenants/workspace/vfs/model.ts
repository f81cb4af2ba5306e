/**
 * An in-memory twin of the workspace filesystem, for model-based tests only: a map from
 * physical path to node, with the same operations, the same symlink rules and the same
 * error codes (and precedence) as `Vfs`. It is meant to be obviously correct rather than
 * fast: every operation works on the map directly, and a failure restores the map taken
 * before it, which is what the real filesystem's one transaction per operation promises.
 *
 * Hard links: a node carries its inode's `id`, and every path naming that inode holds a node
 * with the same id and the same fields; changing an inode replaces the node at each of its
 * paths (nodes are never mutated in place). A file's mtime is known exactly only once
 * `utimes` set it (null: "some recent time", which the tests do not compare); directories'
 * mtimes move with every entry and are never compared.
 */
import { workspaceLimits } from "../limits.ts";
import type { FsCode } from "./errors.ts";
import { DEFAULT_OWNER } from "./schema.ts";

interface InodeFields {
  /** The inode: equal ids are hard links to one file. */
  id: number;
  mode: number;
  uid: number;
  gid: number;
  /** Nanoseconds since 1970 as set by utimes, or null once anything set it to "now". */
  mtime: string | null;
}

export type ModelNode =
  | (InodeFields & { type: "file"; content: Uint8Array })
  | (InodeFields & { type: "dir" })
  | (InodeFields & { type: "symlink"; target: string });

export type ModelBatchOp =
  | { op: "write"; path: string; content: Uint8Array; exclusive?: boolean }
  | { op: "delete"; path: string; recursive?: boolean }
  | { op: "move"; from: string; to: string; overwrite?: boolean };

/** The operations both the model and the real filesystem run; paths are normalized workspace paths. */
export type ModelOp =
  | {
      op: "write";
      path: string;
      content: Uint8Array;
      mode?: "overwrite" | "append" | "exclusive";
      parents?: boolean;
      ifNoneMatch?: "*";
    }
  | { op: "truncate"; path: string; size: number }
  | { op: "mkdir"; path: string; recursive?: boolean; mode?: number }
  | { op: "remove"; path: string; recursive?: boolean }
  | { op: "move"; from: string; to: string; overwrite?: boolean }
  | { op: "copy"; from: string; to: string; overwrite?: boolean }
  | { op: "symlink"; target: string; path: string }
  | { op: "chmod"; path: string; mode: number }
  | { op: "chown"; path: string; uid?: number; gid?: number; follow: boolean }
  /** `mtime`: decimal nanoseconds since 1970, or "now". */
  | { op: "utimes"; path: string; mtime: string; follow: boolean }
  | { op: "link"; existing: string; path: string }
  | { op: "batch"; ops: ModelBatchOp[] }
  | { op: "stat"; path: string; follow: boolean }
  | { op: "read"; path: string; offset?: number; length?: number };

/** What the tests compare: an entry as `list` and `stat` show it. */
export interface ModelEntry {
  path: string;
  type: ModelNode["type"];
  size: number;
  mode: number;
  nlink: number;
  uid: number;
  gid: number;
  /** Only where the model knows it exactly (see the file comment). */
  mtimeNs?: string;
  target?: string;
}

export type ModelResult =
  | { ok: true; entry?: ModelEntry; bytes?: Uint8Array }
  | { ok: false; code: FsCode; index?: number };

type Lookup = { ok: true; path: string; node: ModelNode } | { ok: false; code: FsCode };
type ParentLookup = { ok: true; path: string; existing: ModelNode | undefined } | { ok: false; code: FsCode };

const FILE_MODE = 0o644;
const DIR_MODE = 0o755;
const LINK_MODE = 0o777;

/** Thrown inside an operation to abandon it; `apply` restores the map and returns the code. */
class Abort {
  constructor(
    readonly code: FsCode,
    readonly index?: number,
  ) {}
}

function abort(code: FsCode): never {
  throw new Abort(code);
}

export function join(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

export function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function pathOf(segments: readonly string[]): string {
  return `/${segments.join("/")}`;
}

/** `path` is strictly below `dir`. */
function isBelow(path: string, dir: string): boolean {
  return dir === "/" ? path !== "/" : path.startsWith(`${dir}/`);
}

/**
 * A request path as the filesystem reads it: the leading slash is optional, one trailing
 * slash and `.` segments are dropped, and empty segments (`//`) and `..` are refused.
 */
export function normalize(raw: string): { ok: true; path: string } | { ok: false; code: "EINVAL" } {
  const trimmed = raw.length > 1 && raw.endsWith("/") ? raw.slice(0, -1) : raw;
  const segments = (trimmed.startsWith("/") ? trimmed.slice(1) : trimmed).split("/");
  if (trimmed === "/" || trimmed === "") return { ok: true, path: "/" };
  if (segments.some((segment) => segment === "" || segment === "..")) return { ok: false, code: "EINVAL" };
  return { ok: true, path: pathOf(segments.filter((segment) => segment !== ".")) };
}

/** Link targets are read lexically: empty and `.` segments vanish, `..` drops one and stops at the root. */
function lexical(segments: readonly string[]): string[] {
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") kept.pop();
    else kept.push(segment);
  }
  return kept;
}

/** The largest uid or gid (ops/setattr.ts ID_MAX). */
const ID_MAX = 0xffff_fffe;

export class FsModel {
  private lastId = 0;
  nodes = new Map<string, ModelNode>([["/", { type: "dir", ...this.fresh(DIR_MODE) }]]);

  /** The fields of a new inode: a new id, the default owner, a time the model does not know. */
  private fresh(mode: number): InodeFields {
    this.lastId += 1;
    return { id: this.lastId, mode, uid: DEFAULT_OWNER.uid, gid: DEFAULT_OWNER.gid, mtime: null };
  }

  /** Replaces the node at every path of inode `id` (all its hard links) with the changed one. */
  private change(id: number, patch: Partial<ModelNode>): void {
    for (const [path, node] of this.nodes) {
      if (node.id === id) this.nodes.set(path, { ...node, ...patch } as ModelNode);
    }
  }

  /** Runs one operation; on failure the tree is exactly what it was before. */
  apply(op: ModelOp): ModelResult {
    const before = new Map(this.nodes);
    try {
      return this.run(op);
    } catch (error) {
      if (!(error instanceof Abort)) throw error;
      this.nodes = before;
      return error.index === undefined
        ? { ok: false, code: error.code }
        : { ok: false, code: error.code, index: error.index };
    }
  }

  /** Every entry but the root, sorted by path. */
  entries(): ModelEntry[] {
    return [...this.nodes.keys()]
      .filter((path) => path !== "/")
      .sort()
      .map((path) => this.entry(path, this.nodes.get(path) as ModelNode));
  }

  /** Bytes and files counted once per inode, however many names it has. */
  counters(): { sizeBytes: number; fileCount: number } {
    let sizeBytes = 0;
    let fileCount = 0;
    for (const node of this.inodes().values()) {
      if (node.type !== "file") continue;
      sizeBytes += node.content.byteLength;
      fileCount++;
    }
    return { sizeBytes, fileCount };
  }

  /** One node per inode. */
  inodes(): Map<number, ModelNode> {
    return new Map([...this.nodes.values()].map((node) => [node.id, node]));
  }

  /** Names of a file or link; 2 + subdirectories for a directory, as Linux counts. */
  nlink(path: string, node: ModelNode): number {
    if (node.type !== "dir") return [...this.nodes.values()].filter((other) => other.id === node.id).length;
    return (
      2 +
      [...this.nodes].filter(([other, child]) => child.type === "dir" && other !== "/" && dirOf(other) === path).length
    );
  }

  entry(path: string, node: ModelNode): ModelEntry {
    const size =
      node.type === "file"
        ? node.content.byteLength
        : node.type === "dir"
          ? 0
          : new TextEncoder().encode(node.target).byteLength;
    const entry: ModelEntry = {
      path,
      type: node.type,
      size,
      mode: node.mode,
      nlink: this.nlink(path, node),
      uid: node.uid,
      gid: node.gid,
    };
    if (node.type !== "dir" && node.mtime !== null) entry.mtimeNs = node.mtime;
    if (node.type === "symlink") entry.target = node.target;
    return entry;
  }

  private run(op: ModelOp): ModelResult {
    switch (op.op) {
      case "write": {
        const target = this.locate(op.path, op);
        const old = target.existing?.type === "file" ? target.existing.content : undefined;
        const content = op.mode === "append" && old ? concat(old, op.content) : op.content;
        this.commitWrite(op.path, content, { ...op, mode: op.mode === "append" ? "overwrite" : op.mode });
        return { ok: true };
      }
      case "truncate":
        return this.truncate(op.path, op.size);
      case "mkdir":
        return this.mkdir(op.path, op.recursive ?? false, op.mode);
      case "remove":
        return this.remove(op.path, op.recursive ?? false);
      case "move":
        return this.move(op.from, op.to, op.overwrite ?? true);
      case "copy":
        return this.copy(op.from, op.to, op.overwrite ?? false);
      case "symlink":
        return this.symlink(op.target, op.path);
      case "chmod":
        return this.chmod(op.path, op.mode);
      case "chown":
        return this.chown(op.path, op.uid, op.gid, op.follow);
      case "utimes":
        return this.utimes(op.path, op.mtime, op.follow);
      case "link":
        return this.link(op.existing, op.path);
      case "batch":
        return this.batch(op.ops);
      case "stat": {
        const found = this.found(op.path, op.follow);
        return { ok: true, entry: this.entry(found.path, found.node) };
      }
      case "read":
        return this.read(op.path, op.offset ?? 0, op.length);
    }
  }

  // ── resolution, as Store.resolve / resolveParent ────────────────────────────────────────

  resolve(raw: string, follow: boolean): Lookup {
    const normal = normalize(raw);
    if (!normal.ok) return normal;
    let pending = normal.path.split("/").filter((segment) => segment !== "");
    let done: string[] = [];
    let hops = 0;
    while (pending.length > 0) {
      const [segment, ...rest] = pending as [string, ...string[]];
      if (this.nodes.get(pathOf(done))?.type !== "dir") return { ok: false, code: "ENOTDIR" };
      const child = this.nodes.get(pathOf([...done, segment]));
      if (!child) return { ok: false, code: "ENOENT" };
      if (child.type === "symlink" && (rest.length > 0 || follow)) {
        if (++hops > workspaceLimits.symlinkHopsMax) return { ok: false, code: "ELOOP" };
        const base = child.target.startsWith("/") ? [] : done;
        pending = [...lexical([...base, ...child.target.split("/")]), ...rest];
        done = [];
        continue;
      }
      done = [...done, segment];
      pending = rest;
    }
    return { ok: true, path: pathOf(done), node: this.nodes.get(pathOf(done)) as ModelNode };
  }

  private resolveParent(raw: string): ParentLookup {
    const normal = normalize(raw);
    if (!normal.ok) return normal;
    const path = normal.path;
    if (path === "/") return { ok: false, code: "EINVAL" };
    const dir = this.resolve(dirOf(path), true);
    if (!dir.ok) return dir;
    if (dir.node.type !== "dir") return { ok: false, code: "ENOTDIR" };
    const physical = join(dir.path, baseOf(path));
    return { ok: true, path: physical, existing: this.nodes.get(physical) };
  }

  private normal(raw: string): string {
    const normal = normalize(raw);
    return normal.ok ? normal.path : abort(normal.code);
  }

  private found(path: string, follow: boolean): { path: string; node: ModelNode } {
    const found = this.resolve(path, follow);
    return found.ok ? found : abort(found.code);
  }

  private parent(path: string): { path: string; existing: ModelNode | undefined } {
    const parent = this.resolveParent(path);
    return parent.ok ? parent : abort(parent.code);
  }

  /** mkdir -p, following links; returns the directory's physical path. */
  private ensureDirectory(raw: string): string {
    const dirPath = this.normal(raw);
    const found = this.resolve(dirPath, true);
    if (found.ok) return found.node.type === "dir" ? found.path : abort("ENOTDIR");
    if (found.code !== "ENOENT") abort(found.code);
    const parent = this.resolveParent(dirPath);
    if (!parent.ok) {
      if (parent.code !== "ENOENT") abort(parent.code);
      this.ensureDirectory(dirOf(dirPath));
      return this.ensureDirectory(dirPath);
    }
    // The name exists but does not resolve: a dangling link. mkdir(2) on it is EEXIST.
    if (parent.existing) abort("EEXIST");
    this.nodes.set(parent.path, { type: "dir", ...this.fresh(DIR_MODE) });
    return parent.path;
  }

  /** The physical path a write lands on, and the file already there (write.ts `locate`). */
  private locate(
    path: string,
    options: { mode?: string | undefined; parents?: boolean | undefined; ifNoneMatch?: "*" | undefined },
  ): { path: string; existing: ModelNode | undefined } {
    const followed = this.resolve(path, true);
    let target: { path: string; existing: ModelNode | undefined };
    if (followed.ok) {
      if (followed.node.type === "dir") abort("EISDIR");
      target = { path: followed.path, existing: followed.node };
    } else if (followed.code === "ENOENT") {
      const parent = this.resolveParent(path);
      if (!parent.ok && !(parent.code === "ENOENT" && options.parents !== false)) abort(parent.code);
      if (parent.ok && parent.existing?.type === "symlink") abort("ENOENT");
      target = { path: parent.ok ? parent.path : this.normal(path), existing: undefined };
    } else {
      abort(followed.code);
    }
    if (options.mode === "exclusive" && target.existing) abort("EEXIST");
    if (options.ifNoneMatch === "*" && target.existing) abort("EPRECONDITION");
    return target;
  }

  /** A byte range; starting past the end is EINVAL except for the empty read of an empty file. */
  private read(path: string, start: number, length: number | undefined): ModelResult {
    const found = this.found(path, true);
    if (found.node.type !== "file") abort("EISDIR");
    const size = found.node.content.byteLength;
    if (start < 0 || (start > 0 && start >= size) || (length !== undefined && length < 0)) abort("EINVAL");
    return { ok: true, bytes: found.node.content.subarray(start, length === undefined ? size : start + length) };
  }

  // ── mutations ───────────────────────────────────────────────────────────────────────────

  private commitWrite(
    path: string,
    content: Uint8Array,
    options: { mode?: string | undefined; parents?: boolean | undefined },
  ): void {
    const target = this.locate(path, options);
    if (target.existing) {
      // Every name of the file shows the new content, and its time is now.
      this.change(target.existing.id, { content, mtime: null });
      return;
    }
    const dir = this.ensureDirectory(dirOf(target.path));
    this.nodes.set(join(dir, baseOf(target.path)), { type: "file", ...this.fresh(FILE_MODE), content });
  }

  private truncate(path: string, size: number): ModelResult {
    if (!Number.isSafeInteger(size) || size < 0) abort("EINVAL");
    const found = this.found(path, true);
    if (found.node.type !== "file") abort("EISDIR");
    const content = new Uint8Array(size);
    content.set(found.node.content.subarray(0, Math.min(size, found.node.content.byteLength)));
    this.change(found.node.id, { content, mtime: null });
    return { ok: true };
  }

  private mkdir(path: string, recursive: boolean, mode = DIR_MODE): ModelResult {
    if (!recursive) {
      // The root always exists: mkdir(2) on `/` is EEXIST.
      const normal = normalize(path);
      if (normal.ok && normal.path === "/") abort("EEXIST");
      const parent = this.parent(path);
      if (parent.existing) abort("EEXIST");
      this.nodes.set(parent.path, { type: "dir", ...this.fresh(mode & 0o7777) });
      return { ok: true };
    }
    const found = this.resolve(path, true);
    if (found.ok) return found.node.type === "dir" ? { ok: true } : abort("EEXIST");
    if (found.code !== "ENOENT") abort(found.code);
    // mkdir -p -m: missing parents get the default mode, the last directory the given one.
    const made = this.ensureDirectory(path);
    const node = this.nodes.get(made);
    if (node) this.nodes.set(made, { ...node, mode: mode & 0o7777 });
    return { ok: true };
  }

  private remove(path: string, recursive: boolean): ModelResult {
    const found = this.found(path, false);
    if (found.path === "/") abort("EINVAL");
    const below = this.below(found.path);
    if (below.length > 0 && !recursive) abort("ENOTEMPTY");
    for (const entry of [found.path, ...below]) this.nodes.delete(entry);
    return { ok: true };
  }

  private move(from: string, to: string, overwrite: boolean): ModelResult {
    const source = this.found(from, false);
    if (source.path === "/") abort("EINVAL");
    const dest = this.parent(to);
    if (source.node.type === "dir" && (dest.path === source.path || isBelow(dest.path, source.path))) abort("EINVAL");
    // rename(2) of a name onto another name of the same inode (or itself) does nothing.
    if (dest.existing && dest.existing.id === source.node.id) return { ok: true };
    if (dest.existing) {
      if (!overwrite) abort("EEXIST");
      if (source.node.type === "dir" && dest.existing.type !== "dir") abort("ENOTDIR");
      if (source.node.type !== "dir" && dest.existing.type === "dir") abort("EISDIR");
      if (this.below(dest.path).length > 0) abort("ENOTEMPTY");
      this.nodes.delete(dest.path);
    }
    for (const path of [source.path, ...this.below(source.path)]) {
      const node = this.nodes.get(path) as ModelNode;
      this.nodes.delete(path);
      this.nodes.set(dest.path + path.slice(source.path.length), node);
    }
    return { ok: true };
  }

  private copy(from: string, to: string, overwrite: boolean): ModelResult {
    const source = this.found(from, true);
    const dest = this.parent(to);
    if (source.node.type === "dir" && (dest.path === source.path || isBelow(dest.path, source.path))) abort("EINVAL");
    if (dest.existing) {
      if (!overwrite || dest.existing.type === "dir" || source.node.type === "dir") abort("EEXIST");
      // cp refuses to copy a file onto itself, by any of its names ("are the same file").
      if (dest.existing.id === source.node.id) abort("EINVAL");
      this.nodes.delete(dest.path);
    }
    // Every copy is a new inode, the default owner's, of now: hard links inside become separate files.
    for (const path of [source.path, ...this.below(source.path)]) {
      const node = this.nodes.get(path) as ModelNode;
      this.nodes.set(dest.path + path.slice(source.path.length), { ...node, ...this.fresh(node.mode) });
    }
    return { ok: true };
  }

  private symlink(target: string, path: string): ModelResult {
    if (target.length === 0) abort("EINVAL");
    const parent = this.parent(path);
    if (parent.existing) abort("EEXIST");
    this.nodes.set(parent.path, { type: "symlink", ...this.fresh(LINK_MODE), target });
    return { ok: true };
  }

  private chmod(path: string, mode: number): ModelResult {
    if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) abort("EINVAL");
    const found = this.found(path, true);
    this.change(found.node.id, { mode });
    return { ok: true };
  }

  private chown(path: string, uid: number | undefined, gid: number | undefined, follow: boolean): ModelResult {
    const bad = (id: number | undefined) => id !== undefined && (!Number.isInteger(id) || id < 0 || id > ID_MAX);
    if (bad(uid) || bad(gid)) abort("EINVAL");
    const found = this.found(path, follow);
    this.change(found.node.id, { ...(uid !== undefined ? { uid } : {}), ...(gid !== undefined ? { gid } : {}) });
    return { ok: true };
  }

  private utimes(path: string, mtime: string, follow: boolean): ModelResult {
    const found = this.found(path, follow);
    this.change(found.node.id, { mtime: mtime === "now" ? null : mtime });
    return { ok: true };
  }

  /** link(2): the final symlink of `existing` is not followed; a directory is EPERM. */
  private link(existing: string, path: string): ModelResult {
    const source = this.found(existing, false);
    if (source.node.type === "dir") abort("EPERM");
    const dest = this.parent(path);
    if (dest.existing) abort("EEXIST");
    this.nodes.set(dest.path, source.node);
    return { ok: true };
  }

  private batch(ops: readonly ModelBatchOp[]): ModelResult {
    for (const [index, op] of ops.entries()) {
      try {
        if (op.op === "write") this.commitWrite(op.path, op.content, { mode: op.exclusive ? "exclusive" : undefined });
        else if (op.op === "delete") this.remove(op.path, op.recursive ?? false);
        else this.move(op.from, op.to, op.overwrite ?? true);
      } catch (error) {
        if (error instanceof Abort) throw new Abort(error.code, index);
        throw error;
      }
    }
    return { ok: true };
  }

  /** Every path strictly below `dir`. */
  private below(dir: string): string[] {
    return [...this.nodes.keys()].filter((path) => isBelow(path, dir));
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

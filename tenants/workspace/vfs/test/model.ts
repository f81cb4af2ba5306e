import { ModelTree } from "./modelTree.ts";
import {
  Abort,
  abort,
  baseOf,
  DIR_MODE,
  dirOf,
  FILE_MODE,
  ID_MAX,
  isBelow,
  join,
  LINK_MODE,
  type ModelBatchOp,
  type ModelNode,
  type ModelOp,
  type ModelResult,
  normalize,
} from "./modelTypes.ts";

export type { ModelBatchOp, ModelEntry, ModelNode, ModelOp, ModelResult } from "./modelTypes.ts";
export { dirOf, join, normalize } from "./modelTypes.ts";

export class FsModel extends ModelTree {
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
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

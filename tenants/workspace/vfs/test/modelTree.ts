/**
 * The model's tree: the map from physical path to node, what it shows (entries, counters,
 * link counts), and path resolution with the same symlink rules as `Store.resolve`. The
 * operations that change it are in test/model.ts.
 */
import { workspaceLimits } from "../../limits.ts";
import { DEFAULT_OWNER } from "../schema.ts";
import {
  abort,
  baseOf,
  DIR_MODE,
  dirOf,
  type InodeFields,
  isBelow,
  join,
  type Lookup,
  lexical,
  type ModelEntry,
  type ModelNode,
  type ModelResult,
  normalize,
  type ParentLookup,
  pathOf,
} from "./modelTypes.ts";

export class ModelTree {
  protected lastId = 0;
  nodes = new Map<string, ModelNode>([["/", { type: "dir", ...this.fresh(DIR_MODE) }]]);

  /** The fields of a new inode: a new id, the default owner, a time the model does not know. */
  protected fresh(mode: number): InodeFields {
    this.lastId += 1;
    return { id: this.lastId, mode, uid: DEFAULT_OWNER.uid, gid: DEFAULT_OWNER.gid, mtime: null };
  }

  /** Replaces the node at every path of inode `id` (all its hard links) with the changed one. */
  protected change(id: number, patch: Partial<ModelNode>): void {
    for (const [path, node] of this.nodes) {
      if (node.id === id) this.nodes.set(path, { ...node, ...patch } as ModelNode);
    }
  }

  /** Runs one operation; on failure the tree is exactly what it was before. */
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

  protected resolveParent(raw: string): ParentLookup {
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

  protected normal(raw: string): string {
    const normal = normalize(raw);
    return normal.ok ? normal.path : abort(normal.code);
  }

  protected found(path: string, follow: boolean): { path: string; node: ModelNode } {
    const found = this.resolve(path, follow);
    return found.ok ? found : abort(found.code);
  }

  protected parent(path: string): { path: string; existing: ModelNode | undefined } {
    const parent = this.resolveParent(path);
    return parent.ok ? parent : abort(parent.code);
  }

  /** mkdir -p, following links; returns the directory's physical path. */
  protected ensureDirectory(raw: string): string {
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
  protected locate(
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
  protected read(path: string, start: number, length: number | undefined): ModelResult {
    const found = this.found(path, true);
    if (found.node.type !== "file") abort("EISDIR");
    const size = found.node.content.byteLength;
    if (start < 0 || (start > 0 && start >= size) || (length !== undefined && length < 0)) abort("EINVAL");
    return { ok: true, bytes: found.node.content.subarray(start, length === undefined ? size : start + length) };
  }

  /** Every path strictly below `dir`. */
  protected below(dir: string): string[] {
    return [...this.nodes.keys()].filter((path) => isBelow(path, dir));
  }
}

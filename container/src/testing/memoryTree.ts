/**
 * The tree of computerd's in-memory test twin (./memoryWorkspace.ts): paths in a Map, a
 * change log with revisions, ETags that are SHA-256 of the content, and the writes a test
 * makes "through the API" (each one a change in the log, as the object's). Hard links are one
 * Node object under several paths (so a change to it shows under each), numbered by `ino`;
 * owners and exact times are kept as the wire carries them.
 *
 * The low-level edits at the bottom (putNode, removeTree, record, ...) are for the twin's
 * apply (./memoryApply.ts), not for tests.
 */
import { createHash } from "node:crypto";
import { RpcTarget } from "capnweb";
import type { RemoteEntry, SyncAttrs, SyncBase } from "../../wire/index.ts";
import { BOX_DEFAULT_OWNER } from "../../wire/index.ts";

export interface Node {
  type: "file" | "dir" | "symlink";
  mode: number;
  mtimeMs: number;
  mtimeNsec?: number;
  uid?: number;
  gid?: number;
  /** Given when the node is stored (putNode); one number for all of a node's names. */
  ino?: number;
  content?: Uint8Array;
  etag?: string;
  target?: string;
}

export const etagOf = (bytes: Uint8Array) => `"${createHash("sha256").update(bytes).digest("hex")}"`;
export const parentOf = (path: string) => path.slice(0, Math.max(path.lastIndexOf("/"), 1));
export const under = (path: string, dir: string) => dir === "/" || path === dir || path.startsWith(`${dir}/`);

/** A workspace tree and its change log, served to computerd by MemoryWorkspace. */
export class MemoryTree extends RpcTarget {
  readonly nodes = new Map<string, Node>([["/", { type: "dir", mode: 0o755, mtimeMs: Date.now() }]]);
  readonly log: { rev: number; paths: string[] }[] = [];
  revision = 0;
  oldestRev = 1;
  private lastIno = 1;

  // ---- the object's own writes (what a test does through "the API") ----

  /**
   * Writes a file as the API would; returns the new revision (pass it to `changed`). An
   * existing file is written through, so every hard link of it changes, and the change
   * names them all, as the object's does.
   */
  writeFile(path: string, content: string | Uint8Array, mode = 0o644): number {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const existing = this.nodes.get(path);
    if (existing?.type === "file") {
      Object.assign(existing, { content: bytes, etag: etagOf(bytes), mtimeMs: Date.now(), mtimeNsec: 0 });
      return this.record(this.namesOf(existing));
    }
    this.putNode(path, { type: "file", mode, mtimeMs: Date.now(), content: bytes, etag: etagOf(bytes) });
    return this.record([path]);
  }

  /** A hard link, as the API's fs/link makes it. */
  link(existing: string, path: string): number {
    const node = this.nodes.get(existing);
    if (!node || node.type === "dir") throw new Error(`cannot link ${existing}`);
    this.removeTree(path);
    this.putNode(path, node);
    return this.record([path]);
  }

  /** Owner and exact time, as the API's chown and utimes set them; every name of the file changes. */
  setattr(path: string, attrs: SyncAttrs & { mode?: number }): number {
    const node = this.nodes.get(path);
    if (!node) throw new Error(`no ${path}`);
    this.assignAttrs(node, attrs);
    if (attrs.mode !== undefined && node.type !== "symlink") node.mode = attrs.mode;
    return this.record(this.namesOf(node));
  }

  mkdir(path: string): number {
    this.putNode(path, { type: "dir", mode: 0o755, mtimeMs: Date.now() });
    return this.record([path]);
  }

  remove(path: string): number {
    this.removeTree(path);
    return this.record([path]);
  }

  /** A move is one change of two paths, and a directory's subtree moves with it. */
  rename(from: string, to: string): number {
    const moved = [...this.nodes.entries()].filter(([p]) => under(p, from));
    this.removeTree(to);
    for (const [p] of moved) this.nodes.delete(p);
    for (const [p, node] of moved) this.nodes.set(to + p.slice(from.length), node);
    return this.record([from, to]);
  }

  /** Many files in one change (a seeded tree), without a log entry per file. */
  seed(files: Record<string, string | Uint8Array>): number {
    for (const [path, content] of Object.entries(files)) {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      this.putNode(path, { type: "file", mode: 0o644, mtimeMs: Date.now(), content: bytes, etag: etagOf(bytes) });
    }
    return this.record(Object.keys(files));
  }

  text(path: string): string | null {
    const node = this.nodes.get(path);
    return node?.type === "file" ? new TextDecoder().decode(node.content) : null;
  }

  /** Paths in `dir` (not below it) whose name starts with `prefix`: conflict copies, for instance. */
  namesIn(dir: string, prefix: string): string[] {
    return [...this.nodes.keys()]
      .filter((p) => parentOf(p) === dir && p.slice(dir === "/" ? 1 : dir.length + 1).startsWith(prefix))
      .sort();
  }

  bytes(path: string): Uint8Array | null {
    return this.nodes.get(path)?.content ?? null;
  }

  entry(path: string, links: Map<Node | string, number> = this.linkCounts()): RemoteEntry | null {
    const node = this.nodes.get(path);
    if (!node) return null;
    const nlink = node.type === "dir" ? 2 + (links.get(path) ?? 0) : (links.get(node) ?? 1);
    return {
      path,
      type: node.type,
      size: node.content?.byteLength ?? (node.type === "symlink" ? (node.target?.length ?? 0) : 0),
      mode: node.mode,
      mtimeMs: node.mtimeMs,
      mtimeNsec: node.mtimeNsec ?? 0,
      uid: node.uid ?? BOX_DEFAULT_OWNER.uid,
      gid: node.gid ?? BOX_DEFAULT_OWNER.gid,
      ino: node.ino ?? 0,
      nlink,
      ...(node.etag ? { etag: node.etag } : {}),
      ...(node.target !== undefined ? { target: node.target } : {}),
    };
  }

  /** Names per node, and subdirectories per directory path. */
  protected linkCounts(): Map<Node | string, number> {
    const counts = new Map<Node | string, number>();
    for (const [path, node] of this.nodes) {
      if (node.type !== "dir") counts.set(node, (counts.get(node) ?? 0) + 1);
      else if (path !== "/") counts.set(parentOf(path), (counts.get(parentOf(path)) ?? 0) + 1);
    }
    return counts;
  }

  /** Every path naming `node` (its hard links), sorted. */
  namesOf(node: Node): string[] {
    return [...this.nodes]
      .filter(([, n]) => n === node)
      .map(([p]) => p)
      .sort();
  }
  state(path: string): SyncBase {
    const node = this.nodes.get(path);
    if (!node) return null;
    if (node.type === "file") return { type: "file", etag: node.etag ?? "" };
    if (node.type === "symlink") return { type: "symlink", target: node.target ?? "" };
    return { type: "dir" };
  }
  assignAttrs(node: Node, attrs: SyncAttrs): void {
    if (attrs.uid !== undefined) node.uid = attrs.uid;
    if (attrs.gid !== undefined) node.gid = attrs.gid;
    if (attrs.mtimeMs !== undefined) {
      node.mtimeMs = attrs.mtimeMs;
      node.mtimeNsec = attrs.mtimeNsec ?? 0;
    }
  }

  putNode(path: string, node: Node): void {
    if (this.nodes.get(path)?.type === "dir" && node.type !== "dir") this.removeTree(path);
    for (let p = parentOf(path); p !== "/" && !this.nodes.has(p); p = parentOf(p)) {
      this.nodes.set(p, { type: "dir", mode: 0o755, mtimeMs: Date.now(), ino: ++this.lastIno });
    }
    node.ino ??= ++this.lastIno;
    this.nodes.set(path, node);
  }

  removeTree(path: string): void {
    for (const p of [...this.nodes.keys()]) if (p !== "/" && under(p, path)) this.nodes.delete(p);
  }

  record(paths: string[]): number {
    this.revision++;
    this.log.push({ rev: this.revision, paths });
    return this.revision;
  }
}

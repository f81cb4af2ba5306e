/**
 * An in-memory twin of the workspace object's side of container/wire, for computerd's
 * tests: a tree in a Map, a change log with revisions, ETags that are SHA-256 of the
 * content, and counters that let a test prove what computerd downloaded. It is served to
 * computerd as a capnweb RpcTarget through `hello`. It applies ops by the same conflict rule
 * as the object (container/wire/conflict.ts), so computerd's side of it is tested here.
 *
 * Hard links are one Node object under several paths (so a change to it shows under each),
 * numbered by `ino`; owners and exact times are kept as the wire carries them.
 */
import { createHash, randomUUID } from "node:crypto";
import { RpcTarget } from "capnweb";
import {
  ancestorsOf,
  conflictLimits,
  conflictName,
  conflictStamp,
  type SyncWant,
  sameState,
  syncVerdict,
} from "../../wire/conflict.ts";
import type {
  ApplyResult,
  RemoteEntry,
  SyncAttrs,
  SyncBase,
  SyncOp,
  UploadApi,
  WireError,
  WorkspaceSyncApi,
} from "../../wire/index.ts";
import { BOX_DEFAULT_OWNER, wireLimits } from "../../wire/index.ts";

interface Node {
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

const etagOf = (bytes: Uint8Array) => `"${createHash("sha256").update(bytes).digest("hex")}"`;
const parentOf = (path: string) => path.slice(0, Math.max(path.lastIndexOf("/"), 1));
const under = (path: string, dir: string) => dir === "/" || path === dir || path.startsWith(`${dir}/`);

/** An op the twin refuses as the object would (a link to nothing, an unknown upload): a failure of that op alone. */
class Refused extends Error {
  readonly code: string;
  // A plain field, not a parameter property: bench scripts load this file with Node's type stripping.
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

type Outcome = { conflict: false; unchanged?: true } | { conflict: true; savedAs: string | null };

class Upload extends RpcTarget implements UploadApi {
  readonly chunks: Uint8Array[] = [];
  readonly uploadId = randomUUID();
  async append(bytes: Uint8Array): Promise<void> {
    this.chunks.push(bytes);
  }
  async id(): Promise<string> {
    return this.uploadId;
  }
}

export class MemoryWorkspace extends RpcTarget implements WorkspaceSyncApi {
  readonly nodes = new Map<string, Node>([["/", { type: "dir", mode: 0o755, mtimeMs: Date.now() }]]);
  readonly log: { rev: number; paths: string[] }[] = [];
  revision = 0;
  oldestRev = 1;
  ackedRev = 0;
  /** read() calls per path: proves laziness. */
  readonly reads = new Map<string, number>();
  /** Paths the daemon asked about with lstatMany or walk, in order (a pull reading them back). */
  readonly asked: string[] = [];
  /** Paths in every apply() batch, in order. */
  readonly applied: SyncOp[] = [];
  /** A path the test wants refused (quota, prefix). */
  refuse: ((op: SyncOp) => boolean) | null = null;
  /** A batch the test wants applied and its answer lost, as when the session drops mid-call. */
  loseAnswer: ((ops: SyncOp[]) => boolean) | null = null;
  private readonly uploads = new Map<string, Upload>();
  private lastIno = 1;
  /** The last state a push gave each path, and the base it carried. */
  private readonly pushed = new Map<string, { base: SyncBase; state: SyncBase }>();

  // ---- the wire (what computerd calls) ----

  async changes(afterRev: number, limit: number) {
    const changes = this.log.filter((c) => c.rev > afterRev).slice(0, Math.min(limit, wireLimits.changesPageMax));
    return { changes, revision: this.revision, oldestRev: this.oldestRev };
  }

  async ack(rev: number): Promise<void> {
    this.ackedRev = Math.max(this.ackedRev, rev);
  }

  async lstatMany(paths: string[]): Promise<(RemoteEntry | null)[]> {
    this.asked.push(...paths);
    return paths.map((p) => this.entry(p));
  }

  async walk(path: string, cursor: string | null) {
    this.asked.push(path);
    const node = this.nodes.get(path);
    if (!node) return { ok: false as const, code: "ENOENT", message: path };
    if (node.type !== "dir") return { ok: false as const, code: "ENOTDIR", message: path };
    const all = [...this.nodes.keys()].filter((p) => p !== path && under(p, path)).sort();
    const start = cursor ? Number(cursor) : 0;
    const page = all.slice(start, start + wireLimits.walkPageMax);
    const next = start + page.length < all.length ? String(start + page.length) : null;
    // Link counts for the whole page at once: counting per entry would be quadratic in the tree.
    const links = this.linkCounts();
    return { ok: true as const, entries: page.map((p) => this.entry(p, links)!), next, revision: this.revision };
  }

  async read(path: string, offset: number, length: number) {
    this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
    const node = this.nodes.get(path);
    if (!node) return { ok: false as const, code: "ENOENT", message: path } satisfies WireError;
    if (node.type !== "file") return { ok: false as const, code: "EISDIR", message: path } satisfies WireError;
    const content = node.content!;
    const bytes = content.slice(offset, offset + Math.min(length, wireLimits.chunkBytesMax));
    return { ok: true as const, bytes, etag: node.etag!, size: content.byteLength };
  }

  async upload(): Promise<UploadApi> {
    const upload = new Upload();
    this.uploads.set(upload.uploadId, upload);
    return upload;
  }

  async apply(ops: SyncOp[]): Promise<ApplyResult | WireError> {
    if (ops.length > wireLimits.applyOpsMax) return { ok: false, code: "E2BIG", message: "too many ops" };
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
    ops.forEach((op, index) => {
      this.applied.push(op);
      const before = this.revision;
      try {
        if (this.refuse?.(op)) throw new Refused("EACCES", "refused by test");
        const outcome = this.applyChecked(op, this.contentOf(op));
        if (outcome.conflict) result.conflicts?.push({ index, path: op.path, savedAs: outcome.savedAs });
        else if (outcome.unchanged) result.unchanged?.push(index);
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        // As the object answers a link to nothing: a failure of that op, the rest applied.
        result.failures.push({ index, code: err.code, message: err.message });
      }
      result.revs.push(this.revision === before ? 0 : this.revision);
      result.revsFrom?.push(before);
      result.entries.push(this.entry(op.path));
    });
    result.revision = this.revision;
    if (this.loseAnswer?.(ops)) throw new Error("the answer was lost (test)");
    return result;
  }

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

  totalReads(): number {
    let n = 0;
    for (const v of this.reads.values()) n += v;
    return n;
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
  private linkCounts(): Map<Node | string, number> {
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

  // ---- internals ----

  /** A file op's bytes (an upload is spent here); null for other ops. */
  private contentOf(op: SyncOp): Uint8Array | null {
    if (op.op === "write") return new Uint8Array(op.bytes);
    if (op.op !== "commitUpload") return null;
    const upload = this.uploads.get(op.uploadId);
    if (!upload) throw new Refused("EINVAL", `no upload ${op.uploadId} in this session`);
    this.uploads.delete(op.uploadId);
    return Buffer.concat(upload.chunks);
  }

  /** The object's algorithm (tenants/workspace/execs/syncApply.ts), over the Map. */
  private applyChecked(op: SyncOp, content: Uint8Array | null): Outcome {
    if (op.base === undefined) {
      this.applyOp(op, content);
      return { conflict: false };
    }
    const shadow = ancestorsOf(op.path)
      .map((path) => ({ path, node: this.nodes.get(path) }))
      .find(({ node }) => node && node.type !== "dir");
    if (shadow) {
      if (op.op === "remove" || metadataOnly(op)) return { conflict: false };
      const stamp = conflictStamp(this.state(shadow.path));
      let root = "";
      for (let attempt = 1; attempt <= conflictLimits.namesTriedMax && !root; attempt++) {
        const name = conflictName(shadow.path, stamp, attempt);
        const there = this.nodes.get(name);
        if (!there || there.type === "dir") root = name;
      }
      if (!root) throw new Refused("EEXIST", `every name tried for the container's copy of ${shadow.path} is taken`);
      const target = root + op.path.slice(shadow.path.length);
      const inner = this.applyChecked({ ...op, path: target, base: null }, content);
      return { conflict: true, savedAs: inner.conflict ? inner.savedAs : target };
    }
    const current = this.state(op.path);
    const want = this.wantOf(op, content);
    const empty = ![...this.nodes.keys()].some((p) => p !== op.path && under(p, op.path));
    // The object remembers its last push per path with the base it carried (syncApply.ts).
    const last = this.pushed.get(op.path);
    const pushed = last && sameState(last.base, op.base) ? last.state : undefined;
    const base = pushed !== undefined && sameState(current, pushed) ? current : op.base;
    let verdict = syncVerdict(base, current, want, empty);
    if (verdict === "conflict" && pushed !== undefined && want !== "attrs" && sameState(want, pushed)) {
      verdict = "unchanged";
    }
    switch (verdict) {
      // Already what the op wants: applying it only brings the metadata in line (and makes a
      // link one node with its file, or gives a file the box replaced a node of its own).
      case "same":
      case "apply":
        this.applyOp(op, content);
        if (want !== "attrs") this.pushed.set(op.path, { base: op.base, state: want });
        return { conflict: false };
      case "unchanged":
        return { conflict: false, unchanged: true };
      case "conflict": {
        if (op.op === "remove" || metadataOnly(op)) return { conflict: true, savedAs: null };
        const stamp = conflictStamp(current);
        for (let attempt = 1; attempt <= conflictLimits.namesTriedMax; attempt++) {
          const name = conflictName(op.path, stamp, attempt);
          const there = this.state(name);
          if (there === null) this.applyOp({ ...op, path: name }, content);
          else if (want === "attrs" || !sameState(there, want)) continue;
          else this.attrsOn(name, op);
          return { conflict: true, savedAs: name };
        }
        throw new Refused("EEXIST", `every name tried for the container's copy of ${op.path} is taken`);
      }
    }
  }

  private state(path: string): SyncBase {
    const node = this.nodes.get(path);
    if (!node) return null;
    if (node.type === "file") return { type: "file", etag: node.etag ?? "" };
    if (node.type === "symlink") return { type: "symlink", target: node.target ?? "" };
    return { type: "dir" };
  }

  /** What `op` makes its path hold; for a link, what the file it names holds. */
  private wantOf(op: SyncOp, content: Uint8Array | null): SyncWant {
    if (op.op === "remove") return null;
    if (op.op === "chmod" || op.op === "setattr") return "attrs";
    if (op.op === "mkdir") return { type: "dir" };
    if (op.op === "symlink") return { type: "symlink", target: op.target };
    if (op.op === "link") {
      this.linkSource(op.existing);
      return this.state(op.existing);
    }
    return { type: "file", etag: etagOf(content ?? new Uint8Array()) };
  }

  /** The file or link a `link` op names, refused as the object refuses it (link(2)'s codes). */
  private linkSource(existing: string): Node {
    const node = this.nodes.get(existing);
    if (!node) throw new Refused("ENOENT", `no such file or directory: ${existing}`);
    if (node.type === "dir") throw new Refused("EPERM", `${existing} is a directory`);
    return node;
  }

  /**
   * A pushed file: written through an existing file (all its names see it) unless the box's
   * file has this name only (`nlink` 1) while the twin's has others, as the object does. The
   * same content again only brings the metadata in line.
   */
  private putFile(path: string, op: { mode: number; nlink?: number } & SyncAttrs, content: Uint8Array): void {
    const existing = this.nodes.get(path);
    const through = existing?.type === "file" && !(op.nlink === 1 && this.namesOf(existing).length > 1);
    if (through && existing.etag === etagOf(content)) {
      existing.mode = op.mode;
      this.assignAttrs(existing, op);
      return;
    }
    const node: Node = through ? (existing as Node) : { type: "file", mode: op.mode, mtimeMs: Date.now() };
    Object.assign(node, { content, etag: etagOf(content), mode: op.mode, mtimeMs: Date.now(), mtimeNsec: 0 });
    this.assignAttrs(node, op);
    if (!through) this.putNode(path, node);
  }

  private assignAttrs(node: Node, attrs: SyncAttrs): void {
    if (attrs.uid !== undefined) node.uid = attrs.uid;
    if (attrs.gid !== undefined) node.gid = attrs.gid;
    if (attrs.mtimeMs !== undefined) {
      node.mtimeMs = attrs.mtimeMs;
      node.mtimeNsec = attrs.mtimeNsec ?? 0;
    }
  }

  /** The op's mode, owner and time on what is already at `path` (a conflict copy made before). */
  private attrsOn(path: string, op: SyncOp): void {
    const node = this.nodes.get(path);
    if (!node || op.op === "remove" || op.op === "link") return;
    const before = JSON.stringify(this.entry(path));
    if ("mode" in op && op.mode !== undefined && node.type !== "symlink") node.mode = op.mode;
    if (op.op !== "chmod") this.assignAttrs(node, op);
    if (JSON.stringify(this.entry(path)) !== before) this.record(this.namesOf(node));
  }

  /** Makes `op.path` what the op says, as the object's `replace` does; one change when anything changed. */
  private applyOp(op: SyncOp, content: Uint8Array | null): void {
    const before = JSON.stringify(this.entry(op.path));
    switch (op.op) {
      case "write":
      case "commitUpload":
        this.putFile(op.path, op, content ?? new Uint8Array());
        break;
      case "mkdir": {
        const dir = this.nodes.get(op.path);
        if (dir?.type === "dir") dir.mode = op.mode;
        else {
          // As the object does: the directory is made (one change), then its owner and
          // times are set (another), so one op logs two revisions.
          this.putNode(op.path, { type: "dir", mode: op.mode, mtimeMs: Date.now() });
          this.record([op.path]);
        }
        this.assignAttrs(this.nodes.get(op.path) as Node, op);
        break;
      }
      case "symlink": {
        const there = this.nodes.get(op.path);
        if (there?.type === "symlink" && there.target === op.target) {
          this.assignAttrs(there, op);
          break;
        }
        const node: Node = { type: "symlink", mode: 0o777, mtimeMs: Date.now(), target: op.target };
        this.assignAttrs(node, op);
        this.putNode(op.path, node);
        break;
      }
      case "link": {
        const node = this.linkSource(op.existing);
        if (this.nodes.get(op.path) !== node) {
          this.removeTree(op.path);
          this.putNode(op.path, node);
        }
        break;
      }
      case "remove":
        this.removeTree(op.path);
        break;
      case "chmod": {
        const node = this.nodes.get(op.path);
        if (node) node.mode = op.mode;
        break;
      }
      case "setattr": {
        const node = this.nodes.get(op.path);
        if (!node) break;
        if (op.mode !== undefined && node.type !== "symlink") node.mode = op.mode;
        this.assignAttrs(node, op);
        break;
      }
    }
    if (JSON.stringify(this.entry(op.path)) === before) return;
    // A change to a file shows under every name of it, as the object's change log lists them.
    const node = this.nodes.get(op.path);
    this.record(node && node.type !== "dir" ? this.namesOf(node) : [op.path]);
  }

  private putNode(path: string, node: Node): void {
    if (this.nodes.get(path)?.type === "dir" && node.type !== "dir") this.removeTree(path);
    for (let p = parentOf(path); p !== "/" && !this.nodes.has(p); p = parentOf(p)) {
      this.nodes.set(p, { type: "dir", mode: 0o755, mtimeMs: Date.now(), ino: ++this.lastIno });
    }
    node.ino ??= ++this.lastIno;
    this.nodes.set(path, node);
  }

  private removeTree(path: string): void {
    for (const p of [...this.nodes.keys()]) if (p !== "/" && under(p, path)) this.nodes.delete(p);
  }

  private record(paths: string[]): number {
    this.revision++;
    this.log.push({ rev: this.revision, paths });
    return this.revision;
  }
}

/** A mode or metadata change, which has no version of its own to save when it conflicts. */
function metadataOnly(op: SyncOp): boolean {
  return op.op === "chmod" || op.op === "setattr";
}

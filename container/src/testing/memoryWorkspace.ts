/**
 * An in-memory twin of the workspace object's side of container/wire, for computerd's
 * tests: a tree in a Map, a change log with revisions, ETags that are SHA-256 of the
 * content, and counters that let a test prove what computerd downloaded. It is served to
 * computerd as a capnweb RpcTarget through `hello`. It applies ops by the same conflict rule
 * as the object (container/wire/conflict.ts), so computerd's side of it is tested here.
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
  SyncBase,
  SyncOp,
  UploadApi,
  WireError,
  WorkspaceSyncApi,
} from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";

interface Node {
  type: "file" | "dir" | "symlink";
  mode: number;
  mtimeMs: number;
  content?: Uint8Array;
  etag?: string;
  target?: string;
}

const etagOf = (bytes: Uint8Array) => `"${createHash("sha256").update(bytes).digest("hex")}"`;
const parentOf = (path: string) => path.slice(0, Math.max(path.lastIndexOf("/"), 1));
const under = (path: string, dir: string) => dir === "/" || path === dir || path.startsWith(`${dir}/`);

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
  /** Paths in every apply() batch, in order. */
  readonly applied: SyncOp[] = [];
  /** A path the test wants refused (quota, prefix). */
  refuse: ((op: SyncOp) => boolean) | null = null;
  /** A batch the test wants applied and its answer lost, as when the session drops mid-call. */
  loseAnswer: ((ops: SyncOp[]) => boolean) | null = null;
  private readonly uploads = new Map<string, Upload>();
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
    return paths.map((p) => this.entry(p));
  }

  async walk(path: string, cursor: string | null) {
    const node = this.nodes.get(path);
    if (!node) return { ok: false as const, code: "ENOENT", message: path };
    if (node.type !== "dir") return { ok: false as const, code: "ENOTDIR", message: path };
    const all = [...this.nodes.keys()].filter((p) => p !== path && under(p, path)).sort();
    const start = cursor ? Number(cursor) : 0;
    const page = all.slice(start, start + wireLimits.walkPageMax);
    const next = start + page.length < all.length ? String(start + page.length) : null;
    return { ok: true as const, entries: page.map((p) => this.entry(p)!), next, revision: this.revision };
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
      entries: [],
      revision: 0,
      failures: [],
      conflicts: [],
      unchanged: [],
    };
    ops.forEach((op, index) => {
      this.applied.push(op);
      if (this.refuse?.(op)) {
        result.failures.push({ index, code: "EACCES", message: "refused by test" });
        result.revs.push(0);
        result.entries.push(this.entry(op.path));
        return;
      }
      const before = this.revision;
      const content = this.contentOf(op);
      const outcome = this.applyChecked(op, content);
      if (outcome.conflict) result.conflicts?.push({ index, path: op.path, savedAs: outcome.savedAs });
      else if (outcome.unchanged) result.unchanged?.push(index);
      result.revs.push(this.revision === before ? 0 : this.revision);
      result.entries.push(this.entry(op.path));
    });
    result.revision = this.revision;
    if (this.loseAnswer?.(ops)) throw new Error("the answer was lost (test)");
    return result;
  }

  // ---- the object's own writes (what a test does through "the API") ----

  /** Writes a file as the API would; returns the new revision (pass it to `changed`). */
  writeFile(path: string, content: string | Uint8Array, mode = 0o644): number {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    this.putNode(path, { type: "file", mode, mtimeMs: Date.now(), content: bytes, etag: etagOf(bytes) });
    return this.record([path]);
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

  entry(path: string): RemoteEntry | null {
    const node = this.nodes.get(path);
    if (!node) return null;
    return {
      path,
      type: node.type,
      size: node.content?.byteLength ?? (node.type === "symlink" ? (node.target?.length ?? 0) : 0),
      mode: node.mode,
      mtimeMs: node.mtimeMs,
      ...(node.etag ? { etag: node.etag } : {}),
      ...(node.target !== undefined ? { target: node.target } : {}),
    };
  }

  // ---- internals ----

  private putFile(path: string, mode: number, content: Uint8Array): void {
    this.putNode(path, { type: "file", mode, mtimeMs: Date.now(), content, etag: etagOf(content) });
  }

  /** A file op's bytes (an upload is spent here); null for other ops. */
  private contentOf(op: SyncOp): Uint8Array | null {
    if (op.op === "write") return new Uint8Array(op.bytes);
    if (op.op !== "commitUpload") return null;
    const upload = this.uploads.get(op.uploadId);
    if (!upload) throw new Error(`unknown upload ${op.uploadId}`);
    this.uploads.delete(op.uploadId);
    return Buffer.concat(upload.chunks);
  }

  /** The object's algorithm (tenants/workspace/execs/syncApply.ts), over the Map. */
  private applyChecked(
    op: SyncOp,
    content: Uint8Array | null,
  ): { conflict: false; unchanged?: true } | { conflict: true; savedAs: string | null } {
    if (op.base === undefined) {
      this.applyOp(op, content);
      return { conflict: false };
    }
    const shadow = ancestorsOf(op.path)
      .map((path) => ({ path, node: this.nodes.get(path) }))
      .find(({ node }) => node && node.type !== "dir");
    if (shadow) {
      if (op.op === "remove" || op.op === "chmod") return { conflict: false };
      const stamp = conflictStamp(this.state(shadow.path));
      let root = "";
      for (let attempt = 1; attempt <= conflictLimits.namesTriedMax && !root; attempt++) {
        const name = conflictName(shadow.path, stamp, attempt);
        const there = this.nodes.get(name);
        if (!there || there.type === "dir") root = name;
      }
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
      case "same":
        if (op.op !== "remove" && op.op !== "symlink") this.setMode(op.path, op.mode);
        if (want !== "attrs") this.pushed.set(op.path, { base: op.base, state: want });
        return { conflict: false };
      case "apply":
        this.applyOp(op, content);
        if (want !== "attrs") this.pushed.set(op.path, { base: op.base, state: want });
        return { conflict: false };
      case "unchanged":
        return { conflict: false, unchanged: true };
      case "conflict": {
        if (op.op === "remove" || op.op === "chmod") return { conflict: true, savedAs: null };
        const stamp = conflictStamp(current);
        for (let attempt = 1; attempt <= conflictLimits.namesTriedMax; attempt++) {
          const name = conflictName(op.path, stamp, attempt);
          const there = this.state(name);
          if (there === null) this.applyOp({ ...op, path: name }, content);
          else if (want === "attrs" || !sameState(there, want)) continue;
          return { conflict: true, savedAs: name };
        }
        throw new Error(`every conflict name for ${op.path} is taken`);
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

  private wantOf(op: SyncOp, content: Uint8Array | null): SyncWant {
    if (op.op === "remove") return null;
    if (op.op === "chmod") return "attrs";
    if (op.op === "mkdir") return { type: "dir" };
    if (op.op === "symlink") return { type: "symlink", target: op.target };
    return { type: "file", etag: etagOf(content ?? new Uint8Array()) };
  }

  private setMode(path: string, mode: number): void {
    const node = this.nodes.get(path);
    if (node && node.mode !== mode) {
      node.mode = mode;
      this.record([path]);
    }
  }

  private applyOp(op: SyncOp, content: Uint8Array | null): number {
    const before = JSON.stringify(this.entry(op.path));
    switch (op.op) {
      case "write":
      case "commitUpload":
        if (this.nodes.get(op.path)?.etag === etagOf(content ?? new Uint8Array())) {
          this.setMode(op.path, op.mode);
          return 0;
        }
        this.putFile(op.path, op.mode, content ?? new Uint8Array());
        break;
      case "mkdir":
        if (this.nodes.get(op.path)?.type === "dir") this.nodes.get(op.path)!.mode = op.mode;
        else this.putNode(op.path, { type: "dir", mode: op.mode, mtimeMs: Date.now() });
        break;
      case "symlink":
        this.putNode(op.path, { type: "symlink", mode: 0o777, mtimeMs: Date.now(), target: op.target });
        break;
      case "remove":
        this.removeTree(op.path);
        break;
      case "chmod": {
        const node = this.nodes.get(op.path);
        if (node) node.mode = op.mode;
        break;
      }
    }
    if (JSON.stringify(this.entry(op.path)) === before && op.op !== "write" && op.op !== "commitUpload") return 0;
    return this.record([op.path]);
  }

  private putNode(path: string, node: Node): void {
    if (this.nodes.get(path)?.type === "dir" && node.type !== "dir") this.removeTree(path);
    for (let p = parentOf(path); p !== "/" && !this.nodes.has(p); p = parentOf(p)) {
      this.nodes.set(p, { type: "dir", mode: 0o755, mtimeMs: Date.now() });
    }
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

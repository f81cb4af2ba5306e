/**
 * An in-memory twin of the workspace object's side of container/wire, for computerd's
 * tests: a tree in a Map, a change log with revisions, ETags that are SHA-256 of the
 * content, and counters that let a test prove what computerd downloaded. It is served to
 * computerd as a capnweb RpcTarget through `hello`. It applies ops by the same conflict rule
 * as the object (container/wire/conflict.ts), so computerd's side of it is tested here.
 *
 * Hard links are one Node object under several paths (so a change to it shows under each),
 * numbered by `ino`; owners and exact times are kept as the wire carries them.
 *
 * The tree and the API's writes are ./memoryTree.ts; applying the container's ops by the
 * object's rule is ./memoryApply.ts. This file is the wire: what computerd calls, and the
 * counters and knobs a test reads and sets.
 */

import { randomUUID } from "node:crypto";
import { RpcTarget } from "capnweb";
import type { ApplyResult, RemoteEntry, SyncOp, UploadApi, WireError, WorkspaceSyncApi } from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";
import { applyChecked, type Pushed, Refused } from "./memoryApply.ts";
import { MemoryTree, under } from "./memoryTree.ts";

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

export class MemoryWorkspace extends MemoryTree implements WorkspaceSyncApi {
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
  /** The last state a push gave each path, and the base it carried. */
  private readonly pushed: Pushed = new Map();

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
        const outcome = applyChecked(this, this.pushed, op, this.contentOf(op));
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

  totalReads(): number {
    let n = 0;
    for (const v of this.reads.values()) n += v;
    return n;
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
}

/**
 * Push (mount → object). Dirty paths are pushed as their *current* state (a file's whole
 * content, a directory, a link, or a removal), in `apply` batches of at most applyOpsMax
 * ops and about one chunk of bytes; files larger than a chunk are staged with `upload()`.
 * A path's dirty row is cleared only when the op succeeded and the path did not change
 * again meanwhile, so nothing the container wrote is ever dropped; repeating a push is harmless.
 *
 * Every op carries the box's owner (metadata.ts maps replica ids to box ids) and exact
 * mtime (a bigint lstat), so a pushed file lands with the box's times, not the commit's. A
 * file with several names (st_nlink > 1) whose inode the object already has under another
 * name goes as a `link`, not a second copy. FIFOs, sockets and device nodes are never pushed:
 * the object has no such thing, and they mean nothing outside the box.
 */
import type { BigIntStats } from "node:fs";
import { lstat, open, readFile, readlink } from "node:fs/promises";
import type { RemoteEntry, SyncAttrs, SyncOp, WorkspaceSyncApi } from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";
import { daemonLimits } from "../limits.ts";
import { materialize, placeholderOf } from "../native/placeholders.ts";
import type { SyncContext } from "./context.ts";
import type { Hydrator } from "./hydrate.ts";
import { type IdMap, wireTime } from "./metadata.ts";

/** One op of a batch, with the dirty generation of its path when its state was read. */
interface Item {
  op: SyncOp;
  gen: number;
  /** Files: the replica inode and mtime the op was read from, kept in `files` once it lands. */
  local?: { ino: number; mtimeNs: string };
}

/** The box's owner and exact mtime of a replica entry, as the wire carries them. */
function attrsOf(st: BigIntStats, ids: IdMap): Required<SyncAttrs> {
  return { uid: ids.toBox(Number(st.uid)), gid: ids.toBox(Number(st.gid)), ...wireTime(st.mtimeNs) };
}

async function lstatBig(file: string): Promise<BigIntStats | null> {
  try {
    return await lstat(file, { bigint: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw err;
  }
}

export class Pusher {
  private readonly ctx: SyncContext;
  private readonly hydrator: Hydrator;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private firstTouchMs = 0;
  private lastTouchMs = 0;
  /** Paths the object refused, with the generation refused: retried once they change or a new session starts. */
  private readonly refused = new Map<string, number>();
  /** Paths whose `link` the object refused (the other name went meanwhile): pushed as content instead. */
  private readonly unlinkable = new Set<string>();

  constructor(ctx: SyncContext, hydrator: Hydrator) {
    this.ctx = ctx;
    this.hydrator = hydrator;
    ctx.session.onSession(() => {
      this.refused.clear();
      this.kick();
    });
  }

  /** Called on every local change: pushes once the mount was quiet for pushDebounceMs (or pushDelayMsMax passed). */
  touched(): void {
    const now = Date.now();
    this.lastTouchMs = now;
    if (this.timer) return;
    this.firstTouchMs = now;
    this.arm(daemonLimits.pushDebounceMs);
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => {
      const now = Date.now();
      const quietMs = now - this.lastTouchMs;
      if (quietMs < daemonLimits.pushDebounceMs && now - this.firstTouchMs < daemonLimits.pushDelayMsMax) {
        this.arm(daemonLimits.pushDebounceMs - quietMs);
        return;
      }
      this.timer = null;
      this.kick();
    }, delayMs);
  }

  kick(): Promise<void> {
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /**
   * Pushes everything dirty now; resolves with the object's revision after. `retryRefused`
   * (an explicit flush from the object) also retries paths the object refused before.
   */
  async flush(retryRefused = false): Promise<number> {
    while (this.running) await this.running;
    if (retryRefused) this.refused.clear();
    await this.kick();
    return this.ctx.revision.value;
  }

  private async run(): Promise<void> {
    for (;;) {
      const ws = this.ctx.session.workspace;
      if (!ws) return;
      const paths = this.ctx.dirty
        .list()
        .filter((p) => this.refused.get(p) !== this.ctx.dirty.gen(p))
        .sort();
      if (paths.length === 0) return;
      try {
        await this.pushPaths(ws, paths);
      } catch (err) {
        this.ctx.log(`push failed: ${(err as Error).message}`);
        return;
      }
    }
  }

  private async pushPaths(ws: WorkspaceSyncApi, paths: string[]): Promise<void> {
    let batch: Item[] = [];
    let batchBytes = 0;
    // Replica inodes pushed whole in this pass, so a second name of one goes as a link to it.
    const pushed = new Map<bigint, string>();
    for (const path of paths) {
      if (!this.ctx.dirty.has(path)) continue;
      const gen = this.ctx.dirty.gen(path);
      const items = await this.itemsFor(ws, path, gen, pushed);
      const bytes = items.reduce((sum, { op }) => sum + (op.op === "write" ? op.bytes.byteLength : 0), 0);
      const full =
        batch.length + items.length > wireLimits.applyOpsMax || batchBytes + bytes > wireLimits.chunkBytesMax;
      if (full && batch.length > 0) {
        await this.send(ws, batch);
        batch = [];
        batchBytes = 0;
      }
      if (items.length === 0) {
        // FIFOs, sockets and devices have no place on the object; nothing to push.
        this.ctx.dirty.clearIf(path, gen);
        continue;
      }
      batch.push(...items);
      batchBytes += bytes;
    }
    if (batch.length > 0) await this.send(ws, batch);
  }

  /** The ops that make the object hold what the replica holds at `path` now. */
  private async itemsFor(
    ws: WorkspaceSyncApi,
    path: string,
    gen: number,
    pushed: Map<bigint, string>,
  ): Promise<Item[]> {
    const { replica, state } = this.ctx;
    const local = replica.local(path);
    let st = await lstatBig(local);
    if (!st) return [{ op: { op: "remove", path }, gen }];
    const row = state.file(path);
    if (this.ctx.native && st.isFile()) {
      // A placeholder still where the object has its content: only its metadata can have
      // changed. One the command moved or linked elsewhere is filled first, so its real
      // bytes are pushed and never the placeholder's zeros (computerd reads them unheld).
      const key = placeholderOf(local);
      if (key && !(key.path === path && row?.etag === key.etag)) {
        if (!(await materialize(this.hydrator, local, key))) throw new Error(`cannot fill ${path} to push it`);
        st = await lstatBig(local);
        if (!st) return [{ op: { op: "remove", path }, gen }];
      } else if (key) {
        return [{ op: { op: "setattr", path, mode: Number(st.mode & 0o7777n), ...attrsOf(st, this.ctx.ids) }, gen }];
      }
    }
    const mode = Number(st.mode & 0o7777n);
    const attrs = attrsOf(st, this.ctx.ids);
    if (st.isDirectory()) return [{ op: { op: "mkdir", path, mode, ...attrs }, gen }];
    if (st.isSymbolicLink()) return [{ op: { op: "symlink", path, target: await readlink(local), ...attrs }, gen }];
    if (!st.isFile()) return [];
    // A placeholder whose metadata changed: the object already has the content.
    if (!this.ctx.native && row && !row.hydrated) return [{ op: { op: "setattr", path, mode, ...attrs }, gen }];
    const here = { ino: Number(st.ino), mtimeNs: String(st.mtimeNs) };
    const link = st.nlink > 1n ? this.linkFor(path, st, pushed) : null;
    if (link?.unchanged) return [{ op: link.op, gen, local: here }];
    let content: SyncOp;
    const nlink = Number(st.nlink);
    if (st.size <= BigInt(wireLimits.chunkBytesMax)) {
      const bytes = await readFile(local).catch(() => null);
      if (bytes === null) return [{ op: { op: "remove", path }, gen }];
      const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      content = { op: "write", path, bytes: view, mode, nlink, ...attrs };
    } else {
      content = { op: "commitUpload", path, uploadId: await this.upload(ws, local), mode, nlink, ...attrs };
    }
    pushed.set(st.ino, path);
    // A link whose content may have changed since its other name was pushed: link, then write through it.
    return link
      ? [
          { op: link.op, gen },
          { op: content, gen, local: here },
        ]
      : [{ op: content, gen, local: here }];
  }

  /**
   * A `link` op when `path` is a new name of a file the object already has under another
   * name: pushed earlier in this pass, or pushed before and still that same replica inode.
   * `unchanged` when nothing can have changed the content since (its mtime is the one pushed).
   */
  private linkFor(
    path: string,
    st: BigIntStats,
    pushed: Map<bigint, string>,
  ): { op: SyncOp; unchanged: boolean } | null {
    const { state } = this.ctx;
    if (this.unlinkable.has(path) || state.file(path)?.localIno === Number(st.ino)) return null;
    const earlier = pushed.get(st.ino);
    if (earlier !== undefined && earlier !== path)
      return { op: { op: "link", path, existing: earlier }, unchanged: true };
    for (const other of state.filesWithLocalIno(Number(st.ino))) {
      if (other.path === path || !other.hydrated) continue;
      return {
        op: { op: "link", path, existing: other.path },
        unchanged: other.localMtimeNs === String(st.mtimeNs) && other.size === Number(st.size),
      };
    }
    return null;
  }

  private async upload(ws: WorkspaceSyncApi, local: string): Promise<string> {
    const upload = await ws.upload();
    const fh = await open(local, "r");
    try {
      const buf = Buffer.allocUnsafe(wireLimits.chunkBytesMax);
      for (let offset = 0; ; ) {
        const { bytesRead } = await fh.read(buf, 0, buf.byteLength, offset);
        if (bytesRead === 0) break;
        await upload.append(new Uint8Array(buf.buffer, buf.byteOffset, bytesRead).slice());
        offset += bytesRead;
      }
      return await upload.id();
    } finally {
      await fh.close();
      (upload as Partial<Disposable>)[Symbol.dispose]?.();
    }
  }

  private async send(ws: WorkspaceSyncApi, batch: Item[]): Promise<void> {
    await this.ctx.lock.run(async () => {
      const result = await ws.apply(batch.map((item) => item.op));
      if (!result.ok) {
        for (const { op, gen } of batch) this.refused.set(op.path, gen);
        this.ctx.log(`apply refused: ${result.code} ${result.message}`);
        return;
      }
      const failed = new Map(result.failures.map((f) => [f.index, f]));
      batch.forEach(({ op, gen }, i) => {
        const rev = result.revs[i] ?? 0;
        if (rev > 0 && this.ctx.ownRevs.size < daemonLimits.ownRevsKeptMax) this.ctx.ownRevs.add(rev);
        const failure = failed.get(i);
        if (failure && op.op === "link") {
          // Not refused for good: the next round pushes the content instead.
          this.unlinkable.add(op.path);
          this.ctx.log(`push ${op.path}: link refused (${failure.code}), sending its content`);
          return;
        }
        if (failure) {
          this.refused.set(op.path, gen);
          this.ctx.log(`push ${op.path}: ${failure.code} ${failure.message}`);
          return;
        }
        if (op.op !== "link") this.unlinkable.delete(op.path);
        this.remember(op.path, op, result.entries[i] ?? null, batch[i]?.local);
        // A link followed by its content: the path is clean only once the content landed too.
        if (batch[i + 1]?.op.path !== op.path) this.ctx.dirty.clearIf(op.path, gen);
      });
      if (result.revision > this.ctx.revision.value) this.ctx.revision.value = result.revision;
    });
  }

  /**
   * Records the ETag the object gave what we pushed, so the next pull does not download it
   * back, with the object's and the replica's inode numbers (hard links) and the replica's
   * mtime (so a later second name can go as a link alone).
   */
  private remember(path: string, op: SyncOp, entry: RemoteEntry | null, local?: { ino: number; mtimeNs: string }) {
    const { state } = this.ctx;
    if (entry?.type === "file" && entry.etag) {
      const metadataOnly = op.op === "chmod" || op.op === "setattr";
      const hydrated = !metadataOnly || (state.file(path)?.hydrated ?? true);
      state.putFile({
        path,
        etag: entry.etag,
        size: entry.size,
        hydrated,
        ino: entry.ino ?? null,
        localIno: local?.ino ?? null,
        localMtimeNs: local?.mtimeNs ?? (metadataOnly ? (state.file(path)?.localMtimeNs ?? null) : null),
      });
    } else if (op.op !== "remove") {
      state.forgetFile(path);
    }
  }
}

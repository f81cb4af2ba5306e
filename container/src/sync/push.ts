/**
 * Push (mount → object). Dirty paths are pushed as their *current* state (a file's whole
 * content, a directory, a link, or a removal), in `apply` batches of at most applyOpsMax
 * ops and about one chunk of bytes; files larger than a chunk are staged with `upload()`.
 * A path's dirty row is cleared only when the op succeeded and the path did not change
 * again meanwhile, so nothing the container wrote is ever dropped; repeating a push is harmless.
 */
import { constants } from "node:fs";
import { open, readFile, readlink } from "node:fs/promises";
import type { RemoteEntry, SyncOp, WorkspaceSyncApi } from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";
import { daemonLimits } from "../limits.ts";
import type { SyncContext } from "./context.ts";

/**
 * Pushing reads a file the command wrote; O_NOATIME keeps that read from moving its access
 * time, which belongs to the command (a push of a file whose mtime is newer than its atime
 * would otherwise stamp the atime with the time of the push). computerd is root, whom the
 * kernel lets use it on any file.
 */
const readQuietly = constants.O_RDONLY | constants.O_NOATIME;

/** One op of a batch, with the dirty generation of its path when its state was read. */
interface Item {
  op: SyncOp;
  gen: number;
}

export class Pusher {
  private readonly ctx: SyncContext;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private firstTouchMs = 0;
  private lastTouchMs = 0;
  /** Paths the object refused, with the generation refused: retried once they change or a new session starts. */
  private readonly refused = new Map<string, number>();

  constructor(ctx: SyncContext) {
    this.ctx = ctx;
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
    for (const path of paths) {
      if (!this.ctx.dirty.has(path)) continue;
      const gen = this.ctx.dirty.gen(path);
      const op = await this.opFor(ws, path);
      const bytes = op?.op === "write" ? op.bytes.byteLength : 0;
      const full = batch.length >= wireLimits.applyOpsMax || batchBytes + bytes > wireLimits.chunkBytesMax;
      if (full && batch.length > 0) {
        await this.send(ws, batch);
        batch = [];
        batchBytes = 0;
      }
      if (!op) {
        // Sockets and FIFOs have no place on the object; nothing to push.
        this.ctx.dirty.clearIf(path, gen);
        continue;
      }
      batch.push({ op, gen });
      batchBytes += bytes;
    }
    if (batch.length > 0) await this.send(ws, batch);
  }

  /** The op that makes the object hold what the replica holds at `path` now. */
  private async opFor(ws: WorkspaceSyncApi, path: string): Promise<SyncOp | null> {
    const { replica, state } = this.ctx;
    const st = await replica.lstat(path);
    if (!st) return { op: "remove", path };
    const mode = st.mode & 0o7777;
    if (st.isDirectory()) return { op: "mkdir", path, mode };
    if (st.isSymbolicLink()) return { op: "symlink", path, target: await readlink(replica.local(path)) };
    if (!st.isFile()) return null;
    // A placeholder whose mode changed: the object already has the content.
    const row = state.file(path);
    if (row && !row.hydrated) return { op: "chmod", path, mode };
    const local = replica.local(path);
    if (st.size <= wireLimits.chunkBytesMax) {
      const bytes = await readFile(local, { flag: readQuietly }).catch(() => null);
      if (bytes === null) return { op: "remove", path };
      return { op: "write", path, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), mode };
    }
    return { op: "commitUpload", path, uploadId: await this.upload(ws, local), mode };
  }

  private async upload(ws: WorkspaceSyncApi, local: string): Promise<string> {
    const upload = await ws.upload();
    const fh = await open(local, readQuietly);
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
        if (failure) {
          this.refused.set(op.path, gen);
          this.ctx.log(`push ${op.path}: ${failure.code} ${failure.message}`);
          return;
        }
        this.remember(op.path, op, result.entries[i] ?? null);
        this.ctx.dirty.clearIf(op.path, gen);
      });
      if (result.revision > this.ctx.revision.value) this.ctx.revision.value = result.revision;
    });
  }

  /** Records the ETag the object gave what we pushed, so the next pull does not download it back. */
  private remember(path: string, op: SyncOp, entry: RemoteEntry | null): void {
    const { state } = this.ctx;
    if (entry?.type === "file" && entry.etag) {
      const hydrated = op.op !== "chmod" || (state.file(path)?.hydrated ?? true);
      state.putFile({ path, etag: entry.etag, size: entry.size, hydrated });
    } else if (op.op !== "remove") {
      state.forgetFile(path);
    }
  }
}

/**
 * Lazy hydration: a remote file first appears in the replica as a sparse placeholder of
 * the right size, mode and mtime, and its content is downloaded on first open (or before
 * a rename or truncate that would otherwise carry the placeholder's zeros along). The
 * download goes to a temporary file and is renamed over the placeholder, so a reader sees
 * either no content yet (it waits) or all of it.
 */
import {
  type BigIntStats,
  chmodSync,
  copyFileSync,
  lchownSync,
  lstatSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { open, rm } from "node:fs/promises";
import { wireLimits } from "../../wire/index.ts";
import { EIO, errnoOf } from "../fs/errno.ts";
import { daemonLimits } from "../limits.ts";
import type { SyncContext } from "./context.ts";
import { copyTimes } from "./metadata.ts";

/** 0 when the path's content is local, else a negative errno for FUSE. */
export type HydrateResult = number;

/** A downloaded version of a file: in a temporary file, or in memory when small (Hydrator.fetch). */
export type Fetched = { ok: true; etag: string; size: number } & ({ tmp: string } | { bytes: Uint8Array });

export class Hydrator {
  private readonly ctx: SyncContext;
  private readonly inflight = new Map<string, Promise<HydrateResult>>();
  /** Files downloaded since start, for tests and health. */
  downloads = 0;

  constructor(ctx: SyncContext) {
    this.ctx = ctx;
  }

  /** Makes sure `path` holds its real content. Cheap (one indexed lookup) when it already does. */
  ensure(path: string): Promise<HydrateResult> | HydrateResult {
    const row = this.ctx.state.file(path);
    if (!row || row.hydrated) return 0;
    let pending = this.inflight.get(path);
    if (!pending) {
      pending = this.download(path).finally(() => this.inflight.delete(path));
      this.inflight.set(path, pending);
    }
    return pending;
  }

  /** Hydrates every placeholder under `dir`, before the directory is renamed. */
  async ensureUnder(dir: string): Promise<HydrateResult> {
    for (const path of this.ctx.state.unhydratedUnder(dir)) {
      const result = await this.ensure(path);
      if (result !== 0) return result;
    }
    return 0;
  }

  private async download(path: string): Promise<HydrateResult> {
    for (let attempt = 0; attempt <= daemonLimits.hydrateRestartsMax; attempt++) {
      const row = this.ctx.state.file(path);
      if (!row || row.hydrated || this.ctx.dirty.has(path)) return 0;
      const fetched = await this.fetch(path);
      if (!fetched.ok) return fetched.errno;
      if ("tmp" in fetched && this.install(path, row.etag, fetched.tmp, fetched.etag, fetched.size)) return 0;
    }
    this.ctx.log(`hydrate ${path}: the file kept changing while it was downloaded`);
    return EIO;
  }

  /**
   * Downloads the object's current content of `path`: into a new temporary file (the caller
   * installs or removes it), or, when it fits one message and `inlineBytesMax`, as bytes.
   * Restarts when the file changes on the object mid-download, so the bytes are always one
   * version's. `tmpPath` names the file (default: the replica's temporaries, on its filesystem).
   */
  async fetch(
    path: string,
    options: { tmpPath?: () => string; inlineBytesMax?: number } = {},
  ): Promise<Fetched | { ok: false; errno: number }> {
    for (let attempt = 0; attempt <= daemonLimits.hydrateRestartsMax; attempt++) {
      const ws = await this.ctx.session.waitFor(daemonLimits.hydrateSessionWaitMs);
      if (!ws) return { ok: false, errno: EIO };
      const first = await ws.read(path, 0, wireLimits.chunkBytesMax);
      if (!first.ok) {
        this.ctx.log(`hydrate ${path}: ${first.code} ${first.message}`);
        return { ok: false, errno: errnoOf(first.code) };
      }
      const whole = first.bytes.byteLength >= first.size;
      if (whole && first.size <= (options.inlineBytesMax ?? -1)) {
        return { ok: true, bytes: first.bytes, etag: first.etag, size: first.size };
      }
      const tmp = options.tmpPath ? options.tmpPath() : this.ctx.replica.tmpPath();
      if (whole) {
        // Most files fit one chunk: written with direct syscalls on the replica (never the mount).
        writeFileSync(tmp, first.bytes);
      } else {
        const rest = await this.fetchRest(ws, path, tmp, first);
        if (rest !== 0) {
          await rm(tmp, { force: true });
          if (rest === RESTART) continue;
          return { ok: false, errno: rest };
        }
      }
      return { ok: true, tmp, etag: first.etag, size: first.size };
    }
    this.ctx.log(`hydrate ${path}: the file kept changing while it was downloaded`);
    return { ok: false, errno: EIO };
  }

  /**
   * Renames the download over the placeholder, keeping the placeholder's mode, owner and
   * times. The placeholder may have been replaced by a pull (new row) or written locally
   * while we downloaded; install only over the one we set out to fill. A newer ETag than the
   * row's is fine: it is the object's current content, and the next pull will match it.
   *
   * A placeholder with other names (hard links, apply.ts) is filled in place instead, so
   * every name keeps naming one file, and each of those names is hydrated with it.
   */
  private install(path: string, rowEtag: string, tmp: string, etag: string, size: number): boolean {
    const now = this.ctx.state.file(path);
    const local = this.ctx.replica.local(path);
    let placeholder: BigIntStats | null = null;
    try {
      placeholder = lstatSync(local, { bigint: true });
    } catch {}
    if (!now || now.hydrated || this.ctx.dirty.has(path) || now.etag !== rowEtag || !placeholder?.isFile()) {
      rmSync(tmp, { force: true });
      return !now || now.hydrated || this.ctx.dirty.has(path);
    }
    if (placeholder.nlink > 1n) {
      copyFileSync(tmp, local);
      rmSync(tmp, { force: true });
      copyTimes(local, placeholder.mtimeNs);
      for (const twin of this.ctx.state.filesWithLocalIno(Number(placeholder.ino))) {
        if (twin.etag === rowEtag && !twin.hydrated) this.ctx.state.putFile({ ...twin, etag, size, hydrated: true });
      }
      this.ctx.state.putFile({ ...now, etag, size, hydrated: true });
      this.downloads++;
      return true;
    }
    chmodSync(tmp, Number(placeholder.mode & 0o7777n));
    lchownSync(tmp, Number(placeholder.uid), Number(placeholder.gid));
    copyTimes(tmp, placeholder.mtimeNs);
    const installed = lstatSync(tmp);
    renameSync(tmp, local);
    this.ctx.state.putFile({ ...now, etag, size, hydrated: true, localIno: installed.ino });
    // The replica now holds this version, so a change on top of it is made on this base.
    this.ctx.state.putSynced({ path, type: "file", etag, size, mode: Number(placeholder.mode & 0o7777n), mtimeMs: 0 });
    this.downloads++;
    return true;
  }

  /** Downloads the chunks after `first` into `tmp`; RESTART when the ETag changed mid-way. */
  private async fetchRest(
    ws: NonNullable<SyncContext["session"]["workspace"]>,
    path: string,
    tmp: string,
    first: { bytes: Uint8Array; etag: string; size: number },
  ): Promise<number> {
    const fh = await open(tmp, "w");
    try {
      await fh.write(first.bytes, 0, first.bytes.byteLength, 0);
      let offset = first.bytes.byteLength;
      while (offset < first.size) {
        const chunk = await ws.read(path, offset, wireLimits.chunkBytesMax);
        if (!chunk.ok) return errnoOf(chunk.code);
        if (chunk.etag !== first.etag) return RESTART;
        if (chunk.bytes.byteLength === 0) break;
        await fh.write(chunk.bytes, 0, chunk.bytes.byteLength, offset);
        offset += chunk.bytes.byteLength;
      }
      return 0;
    } finally {
      await fh.close();
    }
  }
}

const RESTART = 1;

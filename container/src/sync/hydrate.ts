/**
 * Lazy hydration: a remote file first appears in the replica as a sparse placeholder of
 * the right size, mode and mtime, and its content is downloaded on first open (or before
 * a rename or truncate that would otherwise carry the placeholder's zeros along). The
 * download goes to a temporary file and is renamed over the placeholder, so a reader sees
 * either no content yet (it waits) or all of it.
 */
import { chmodSync, lstatSync, renameSync, rmSync, type Stats, utimesSync, writeFileSync } from "node:fs";
import { open, rm } from "node:fs/promises";
import { wireLimits } from "../../wire/index.ts";
import { EIO, errnoOf } from "../fs/errno.ts";
import { daemonLimits } from "../limits.ts";
import type { SyncContext } from "./context.ts";

/** 0 when the path's content is local, else a negative errno for FUSE. */
export type HydrateResult = number;

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
      const ws = await this.ctx.session.waitFor(daemonLimits.hydrateSessionWaitMs);
      if (!ws) return EIO;
      const first = await ws.read(path, 0, wireLimits.chunkBytesMax);
      if (!first.ok) {
        this.ctx.log(`hydrate ${path}: ${first.code} ${first.message}`);
        return errnoOf(first.code);
      }
      const tmp = this.ctx.replica.tmpPath();
      if (first.bytes.byteLength >= first.size) {
        // Most files fit one chunk: written with direct syscalls on the replica (never the mount).
        writeFileSync(tmp, first.bytes);
      } else {
        const rest = await this.fetchRest(ws, path, tmp, first);
        if (rest !== 0) {
          await rm(tmp, { force: true });
          if (rest === RESTART) continue;
          return rest;
        }
      }
      if (this.install(path, row.etag, tmp, first.etag, first.size)) return 0;
    }
    this.ctx.log(`hydrate ${path}: the file kept changing while it was downloaded`);
    return EIO;
  }

  /**
   * Renames the download over the placeholder, keeping the placeholder's mode and times.
   * The placeholder may have been replaced by a pull (new row) or written locally while we
   * downloaded; install only over the one we set out to fill. A newer ETag than the row's
   * is fine: it is the object's current content, and the next pull will match it.
   */
  private install(path: string, rowEtag: string, tmp: string, etag: string, size: number): boolean {
    const now = this.ctx.state.file(path);
    const local = this.ctx.replica.local(path);
    let placeholder: Stats | null = null;
    try {
      placeholder = lstatSync(local);
    } catch {}
    if (!now || now.hydrated || this.ctx.dirty.has(path) || now.etag !== rowEtag || !placeholder?.isFile()) {
      rmSync(tmp, { force: true });
      return !now || now.hydrated || this.ctx.dirty.has(path);
    }
    chmodSync(tmp, placeholder.mode & 0o7777);
    utimesSync(tmp, placeholder.atime, placeholder.mtime);
    renameSync(tmp, local);
    this.ctx.state.putFile({ path, etag, size, hydrated: true });
    // The replica now holds this version, so a change on top of it is made on this base.
    this.ctx.state.putSynced({ path, type: "file", etag, size, mode: placeholder.mode & 0o7777, mtimeMs: 0 });
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

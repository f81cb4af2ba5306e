/**
 * The workspace side of container sync (container/wire WorkspaceSyncApi): what computerd
 * calls, over the capnweb session the object opened, to learn the tree, read content and
 * push the container's changes. Bound to this workspace's filesystem and nothing else.
 *
 * Changes from the container arrive as the state of a path now (write this content, this
 * directory, this link, nothing here), so applying an op twice leaves the same tree: a
 * session that dropped after sending a batch and before hearing the answer just sends it
 * again. An op replaces whatever kind of entry was at its path, as the container's tree
 * already did. Expected failures come back as values (`failures`), never thrown.
 */
import { RpcTarget } from "capnweb";
import {
  type ApplyResult,
  type RemoteEntry,
  type SyncOp,
  type UploadApi,
  type WireError,
  type WorkspaceSyncApi,
  wireLimits,
} from "../../../container/wire/index.ts";
import { workspaceLimits } from "../limits.ts";
import { setCursor } from "../vfs/changes.ts";
import { type ChunkRef, ChunkStager, chunkHash, contentEtag } from "../vfs/content.ts";
import type { FsFailure } from "../vfs/errors.ts";
import { commitWrite } from "../vfs/ops/write.ts";
import type { Inode, Stat } from "../vfs/store.ts";
import type { Vfs } from "../vfs/Vfs.ts";
import { walk } from "../vfs/walk.ts";

/** Uploads staged and not yet committed at once; computerd sends one large file at a time. */
const UPLOADS_OPEN_MAX = 4;

/** The change-log cursor computerd's position is kept under. */
export const COMPUTERD_CURSOR = "computerd";

const wireError = (failure: FsFailure): WireError => ({ ok: false, code: failure.code, message: failure.message });

function entryOf(stat: Stat): RemoteEntry {
  const entry: RemoteEntry = {
    path: stat.path,
    type: stat.type,
    size: stat.size,
    mode: stat.mode,
    mtimeMs: Date.parse(stat.mtime),
  };
  if (stat.etag) entry.etag = stat.etag;
  if (stat.target !== undefined) entry.target = stat.target;
  return entry;
}

function entryOfRow(row: Inode & { path: string }): RemoteEntry {
  const entry: RemoteEntry = { path: row.path, type: row.type, size: row.size, mode: row.mode, mtimeMs: row.mtime_ms };
  if (row.etag) entry.etag = row.etag;
  if (row.target !== null) entry.target = row.target;
  return entry;
}

/** The ETag the workspace gives this content: chunked as a write would chunk it. */
async function etagOf(bytes: Uint8Array): Promise<string> {
  const chunks: ChunkRef[] = [];
  for (let at = 0; at < bytes.byteLength; at += workspaceLimits.chunkBytes) {
    const piece = bytes.subarray(at, at + workspaceLimits.chunkBytes);
    chunks.push({ hash: await chunkHash(piece), size: piece.byteLength });
  }
  return contentEtag(chunks, bytes.byteLength);
}

/** Chunks of one large file, staged as they arrive (in SQLite, not memory) until `commitUpload`. */
class Upload extends RpcTarget implements UploadApi {
  readonly stager: ChunkStager;
  chunks: readonly ChunkRef[] = [];
  size = 0;

  constructor(
    vfs: Vfs,
    readonly uploadId: string,
  ) {
    super();
    this.stager = new ChunkStager(vfs.store);
  }

  async append(bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength > wireLimits.chunkBytesMax) throw new Error("chunk larger than chunkBytesMax");
    const staged = await this.stager.stage(bytes, [{ bytes: workspaceLimits.fileBytesMax - this.size, code: "EFBIG" }]);
    if (!staged.ok) throw new Error(`${staged.code}: a file may be at most ${workspaceLimits.fileBytesMax} bytes`);
    this.chunks = [...staged.chunks];
    this.size = staged.size;
  }

  async id(): Promise<string> {
    return this.uploadId;
  }
}

export class WorkspaceSyncTarget extends RpcTarget implements WorkspaceSyncApi {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly vfs: Vfs) {
    super();
  }

  async changes(afterRev: number, limit: number) {
    const page = this.vfs.changesSince(afterRev, Math.min(Math.max(1, limit), wireLimits.changesPageMax));
    return {
      changes: page.changes.map((c) => ({ rev: c.rev, paths: c.paths })),
      revision: page.revision,
      oldestRev: page.oldestRev,
    };
  }

  async ack(rev: number): Promise<void> {
    setCursor(this.vfs.store, COMPUTERD_CURSOR, rev);
  }

  async lstatMany(paths: string[]) {
    if (paths.length > wireLimits.lstatPathsMax) throw new Error(`at most ${wireLimits.lstatPathsMax} paths`);
    return paths.map((path) => {
      const stat = this.vfs.lstat(path);
      return stat.ok ? entryOf(stat.stat) : null;
    });
  }

  async walk(path: string, cursor: string | null) {
    const dir = this.vfs.store.resolve(path, false);
    if (!dir.ok) return wireError(dir);
    if (dir.inode.type !== "dir") return { ok: true as const, entries: [], next: null, revision: this.vfs.revision() };
    const rows = walk(this.vfs.store, dir.ino, dir.path, { after: cursor ?? "", limit: wireLimits.walkPageMax });
    const next = rows.length === wireLimits.walkPageMax ? (rows.at(-1)?.path ?? null) : null;
    return { ok: true as const, entries: rows.map(entryOfRow), next, revision: this.vfs.revision() };
  }

  async read(path: string, offset: number, length: number) {
    const result = this.vfs.read(path, { offset, length: Math.min(length, wireLimits.chunkBytesMax) });
    if (!result.ok) return wireError(result);
    const bytes = new Uint8Array(await new Response(result.body).arrayBuffer());
    return { ok: true as const, bytes, etag: result.stat.etag ?? "", size: result.stat.size };
  }

  async upload(): Promise<UploadApi> {
    // An upload a dropped session never committed would hold its staged chunks (and its
    // place here) until the object restarts; only the newest few can still be committed.
    while (this.uploads.size >= UPLOADS_OPEN_MAX) {
      const [oldestId, oldest] = this.uploads.entries().next().value as [string, Upload];
      oldest.stager.discard();
      this.uploads.delete(oldestId);
    }
    const upload = new Upload(this.vfs, `up_${crypto.randomUUID()}`);
    this.uploads.set(upload.uploadId, upload);
    return upload;
  }

  async apply(ops: SyncOp[]): Promise<ApplyResult | WireError> {
    if (ops.length > wireLimits.applyOpsMax) {
      return { ok: false, code: "EINVAL", message: `at most ${wireLimits.applyOpsMax} ops per batch` };
    }
    const result: ApplyResult = { ok: true, revs: [], entries: [], revision: 0, failures: [] };
    for (const [index, op] of ops.entries()) {
      const before = this.vfs.revision();
      const failure = await this.applyOne(op);
      const after = this.vfs.revision();
      if (failure) result.failures.push({ index, code: failure.code, message: failure.message });
      result.revs.push(after === before ? 0 : after);
      const stat = this.vfs.lstat(op.path);
      result.entries.push(stat.ok ? entryOf(stat.stat) : null);
    }
    result.revision = this.vfs.revision();
    return result;
  }

  /** Makes `op.path` what the container has; null on success. */
  private async applyOne(op: SyncOp): Promise<FsFailure | null> {
    const current = this.vfs.lstat(op.path);
    const kind = current.ok ? current.stat.type : null;
    switch (op.op) {
      case "remove": {
        if (kind === null) return null;
        return this.failed(await this.vfs.remove(op.path, { recursive: true }));
      }
      case "mkdir": {
        if (kind === "dir") return current.ok && current.stat.mode !== op.mode ? this.chmod(op.path, op.mode) : null;
        const cleared = await this.clear(op.path, kind);
        return cleared ?? this.failed(await this.vfs.mkdir(op.path, { recursive: true, mode: op.mode }));
      }
      case "symlink": {
        if (kind === "symlink" && current.ok && current.stat.target === op.target) return null;
        const cleared = await this.clear(op.path, kind);
        return cleared ?? this.failed(await this.vfs.symlink(op.target, op.path));
      }
      case "chmod":
        return kind === null ? null : this.chmod(op.path, op.mode);
      case "write": {
        // The same content again (a resent batch, a file saved unchanged) is no change at all.
        if (kind === "file" && current.ok && current.stat.etag === (await etagOf(op.bytes))) {
          return this.chmodIfNeeded(op.path, op.mode);
        }
        const cleared = kind === "file" ? null : await this.clear(op.path, kind);
        if (cleared) return cleared;
        const written = this.failed(await this.vfs.write(op.path, op.bytes, { mode: "overwrite", fileMode: op.mode }));
        return written ?? this.chmodIfNeeded(op.path, op.mode);
      }
      case "commitUpload":
        return this.commitUpload(op.path, op.uploadId, op.mode, kind);
    }
  }

  private async commitUpload(path: string, uploadId: string, mode: number, kind: string | null) {
    const upload = this.uploads.get(uploadId);
    if (!upload)
      return { ok: false as const, code: "EINVAL" as const, message: `no upload ${uploadId} in this session`, path };
    const etag = await contentEtag(upload.chunks, upload.size);
    const current = this.vfs.lstat(path);
    if (kind === "file" && current.ok && current.stat.etag === etag) {
      this.uploads.delete(uploadId);
      upload.stager.discard();
      return this.chmodIfNeeded(path, mode);
    }
    const cleared = kind === "file" ? null : await this.clear(path, kind);
    if (cleared) return cleared;
    const committed = await this.vfs.exclusive(() =>
      this.vfs.store.atomically(() => {
        upload.stager.discard();
        return commitWrite(this.vfs.store, path, upload.chunks, upload.size, etag, {
          mode: "overwrite",
          fileMode: mode,
        });
      }),
    );
    this.uploads.delete(uploadId);
    if (!committed.ok) {
      upload.stager.discard();
      return committed;
    }
    return this.chmodIfNeeded(path, mode);
  }

  /** Removes a directory or link that a file, directory or link of another kind replaces. */
  private async clear(path: string, kind: string | null): Promise<FsFailure | null> {
    if (kind === null) return null;
    return this.failed(await this.vfs.remove(path, { recursive: true }));
  }

  private async chmodIfNeeded(path: string, mode: number): Promise<FsFailure | null> {
    const stat = this.vfs.lstat(path);
    return stat.ok && stat.stat.mode !== mode ? this.chmod(path, mode) : null;
  }

  private async chmod(path: string, mode: number): Promise<FsFailure | null> {
    return this.failed(await this.vfs.chmod(path, mode));
  }

  private failed(result: { ok: boolean }): FsFailure | null {
    return result.ok ? null : (result as FsFailure);
  }
}

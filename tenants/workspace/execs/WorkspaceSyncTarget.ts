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
  type SyncAttrs,
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
import type { Attrs } from "../vfs/ops/setattr.ts";
import { commitWrite } from "../vfs/ops/write.ts";
import type { Inode, Stat } from "../vfs/store.ts";
import { type PreciseTime, parseNs } from "../vfs/times.ts";
import type { Vfs } from "../vfs/Vfs.ts";
import { walk } from "../vfs/walk.ts";

/** The owner and time a write gives the file in its own change, so no second change follows. */
function writeAttrs(attrs: Attrs): { uid?: number; gid?: number; mtime?: PreciseTime } {
  const out: { uid?: number; gid?: number; mtime?: PreciseTime } = {};
  if (attrs.uid !== undefined) out.uid = attrs.uid;
  if (attrs.gid !== undefined) out.gid = attrs.gid;
  if (attrs.mtime !== undefined && attrs.mtime !== "now") out.mtime = attrs.mtime;
  return out;
}

/** Uploads staged and not yet committed at once; computerd sends one large file at a time. */
const UPLOADS_OPEN_MAX = 4;

/** The change-log cursor computerd's position is kept under. */
export const COMPUTERD_CURSOR = "computerd";

const wireError = (failure: FsFailure): WireError => ({ ok: false, code: failure.code, message: failure.message });

function entryOf(stat: Stat): RemoteEntry {
  const mtime = parseNs(stat.mtimeNs) as PreciseTime;
  const entry: RemoteEntry = {
    path: stat.path,
    type: stat.type,
    size: stat.size,
    mode: stat.mode,
    mtimeMs: mtime.ms,
    mtimeNsec: mtime.nsec,
    uid: stat.uid,
    gid: stat.gid,
    ino: stat.ino,
    nlink: stat.nlink,
  };
  if (stat.etag) entry.etag = stat.etag;
  if (stat.target !== undefined) entry.target = stat.target;
  return entry;
}

function entryOfRow(row: Inode & { path: string }): RemoteEntry {
  const entry: RemoteEntry = {
    path: row.path,
    type: row.type,
    size: row.size,
    mode: row.mode,
    mtimeMs: row.mtime_ms,
    mtimeNsec: row.mtime_nsec,
    uid: row.uid,
    gid: row.gid,
    ino: row.ino,
    nlink: row.nlink,
  };
  if (row.etag) entry.etag = row.etag;
  if (row.target !== null) entry.target = row.target;
  return entry;
}

/** The owner and time an op carries, as the filesystem takes them; mode only when given. */
function attrsOf(op: SyncAttrs & { mode?: number }): Attrs {
  const attrs: Attrs = {};
  if (op.mode !== undefined) attrs.mode = op.mode;
  if (op.uid !== undefined) attrs.uid = op.uid;
  if (op.gid !== undefined) attrs.gid = op.gid;
  if (op.mtimeMs !== undefined) attrs.mtime = { ms: op.mtimeMs, nsec: op.mtimeNsec ?? 0 };
  return attrs;
}

/** The attrs that differ from what `stat` shows; empty when the entry already is so. */
function differing(stat: Stat, attrs: Attrs): Attrs {
  const changed: Attrs = {};
  if (attrs.mode !== undefined && attrs.mode !== stat.mode && stat.type !== "symlink") changed.mode = attrs.mode;
  if (attrs.uid !== undefined && attrs.uid !== stat.uid) changed.uid = attrs.uid;
  if (attrs.gid !== undefined && attrs.gid !== stat.gid) changed.gid = attrs.gid;
  const mtime = attrs.mtime;
  if (mtime !== undefined && mtime !== "now") {
    const now = parseNs(stat.mtimeNs) as PreciseTime;
    if (now.ms !== mtime.ms || now.nsec !== mtime.nsec) changed.mtime = mtime;
  }
  return changed;
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
        if (kind === "dir") return this.setattrIfNeeded(op.path, attrsOf(op));
        const cleared = await this.clear(op.path, kind);
        const made = cleared ?? this.failed(await this.vfs.mkdir(op.path, { recursive: true, mode: op.mode }));
        return made ?? this.setattrIfNeeded(op.path, attrsOf({ ...op, mode: undefined }));
      }
      case "symlink": {
        if (kind === "symlink" && current.ok && current.stat.target === op.target)
          return this.setattrIfNeeded(op.path, attrsOf(op));
        const cleared = await this.clear(op.path, kind);
        const made = cleared ?? this.failed(await this.vfs.symlink(op.target, op.path));
        return made ?? this.setattrIfNeeded(op.path, attrsOf(op));
      }
      case "link":
        return this.link(op.path, op.existing, current.ok ? current.stat.ino : null, kind);
      case "chmod":
        return kind === null ? null : this.chmod(op.path, op.mode);
      case "setattr":
        return kind === null ? null : this.setattrIfNeeded(op.path, attrsOf(op));
      case "write": {
        // The same content again (a resent batch, a file saved unchanged) is no change at all.
        const attrs = attrsOf(op);
        const unlinked = await this.unlinkIfReplaced(op.path, op.nlink, current.ok ? current.stat : null);
        if (unlinked) return unlinked;
        const now = this.vfs.lstat(op.path);
        const nowKind = now.ok ? now.stat.type : null;
        if (now.ok && nowKind === "file" && now.stat.etag === (await etagOf(op.bytes))) {
          return this.setattrIfNeeded(op.path, attrs);
        }
        const cleared = nowKind === "file" ? null : await this.clear(op.path, nowKind);
        if (cleared) return cleared;
        const written = this.failed(
          await this.vfs.write(op.path, op.bytes, { mode: "overwrite", fileMode: op.mode, attrs: writeAttrs(attrs) }),
        );
        return written ?? this.setattrIfNeeded(op.path, attrs);
      }
      case "commitUpload":
        return this.commitUpload(op, current.ok ? current.stat : null);
    }
  }

  private async commitUpload(op: Extract<SyncOp, { op: "commitUpload" }>, before: Stat | null) {
    const { path, uploadId } = op;
    const attrs = attrsOf(op);
    const upload = this.uploads.get(uploadId);
    if (!upload)
      return { ok: false as const, code: "EINVAL" as const, message: `no upload ${uploadId} in this session`, path };
    const etag = await contentEtag(upload.chunks, upload.size);
    const unlinked = await this.unlinkIfReplaced(path, op.nlink, before);
    if (unlinked) return unlinked;
    const current = this.vfs.lstat(path);
    const kind = current.ok ? current.stat.type : null;
    if (current.ok && kind === "file" && current.stat.etag === etag) {
      this.uploads.delete(uploadId);
      upload.stager.discard();
      return this.setattrIfNeeded(path, attrs);
    }
    const cleared = kind === "file" ? null : await this.clear(path, kind);
    if (cleared) return cleared;
    const committed = await this.vfs.exclusive(() =>
      this.vfs.store.atomically(() => {
        upload.stager.discard();
        return commitWrite(this.vfs.store, path, upload.chunks, upload.size, etag, {
          mode: "overwrite",
          fileMode: op.mode,
          attrs: writeAttrs(attrs),
        });
      }),
    );
    this.uploads.delete(uploadId);
    if (!committed.ok) {
      upload.stager.discard();
      return committed;
    }
    return this.setattrIfNeeded(path, attrs);
  }

  /**
   * The box's file at `path` has this one name (`nlink` 1) while the object's has others:
   * the box replaced it rather than writing through it, so the object drops this name
   * first and the write that follows makes a file of its own, leaving the other names be.
   */
  private async unlinkIfReplaced(path: string, nlink: number | undefined, current: Stat | null) {
    if (nlink !== 1 || current?.type !== "file" || current.nlink <= 1) return null;
    return this.failed(await this.vfs.remove(path));
  }

  /** Makes `path` another name of `existing`'s inode, replacing what is at `path`; already so is nothing. */
  private async link(path: string, existing: string, currentIno: number | null, kind: string | null) {
    const source = this.vfs.lstat(existing);
    if (source.ok && currentIno === source.stat.ino) return null;
    if (!source.ok) return source;
    if (source.stat.type === "dir")
      return { ok: false as const, code: "EPERM" as const, message: `${existing} is a directory`, path };
    const cleared = await this.clear(path, kind);
    return cleared ?? this.failed(await this.vfs.link(existing, path));
  }

  /** Removes a directory or link that a file, directory or link of another kind replaces. */
  private async clear(path: string, kind: string | null): Promise<FsFailure | null> {
    if (kind === null) return null;
    return this.failed(await this.vfs.remove(path, { recursive: true }));
  }

  /** Sets what differs of mode, owner and mtime on the entry itself (links not followed), in one change. */
  private async setattrIfNeeded(path: string, attrs: Attrs): Promise<FsFailure | null> {
    const stat = this.vfs.lstat(path);
    if (!stat.ok) return null;
    const changed = differing(stat.stat, attrs);
    if (Object.keys(changed).length === 0) return null;
    return this.failed(await this.vfs.setattr(path, changed, { follow: false }));
  }

  private async chmod(path: string, mode: number): Promise<FsFailure | null> {
    return this.failed(await this.vfs.chmod(path, mode));
  }

  private failed(result: { ok: boolean }): FsFailure | null {
    return result.ok ? null : (result as FsFailure);
  }
}

/**
 * The workspace side of container sync (container/wire WorkspaceSyncApi): what computerd
 * calls, over the capnweb session the object opened, to learn the tree, read content and
 * push the container's changes. Bound to this workspace's filesystem and nothing else.
 *
 * Changes from the container arrive as the state of a path now (write this content, this
 * directory, this link, nothing here) with the base they were made on, and a batch applies in
 * one transaction (./syncApply.ts): an op lands while its path still holds its base, and a
 * path both sides changed keeps the object's version with the container's saved beside it.
 * Applying a batch twice leaves the same tree, so a session that dropped after sending a
 * batch and before hearing the answer just sends it again. Entries carry the POSIX metadata
 * (owner, exact mtime, inode number and link count) so computerd's replica matches. Expected
 * failures come back as values (`failures`), never thrown.
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
import { type FsFailure, fail } from "../vfs/errors.ts";
import type { Inode, Stat } from "../vfs/store.ts";
import { type PreciseTime, parseNs } from "../vfs/times.ts";
import type { Vfs } from "../vfs/Vfs.ts";
import { walk } from "../vfs/walk.ts";
import { applyBatch } from "./syncApply.ts";
import { preparePushed } from "./syncPushed.ts";
import type { Prepared } from "./syncState.ts";

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

  /**
   * `actor` names who a push's changes are recorded as in the history: the container run in
   * progress (`exec:<id>`), or `container` for changes no single run can be named for (a
   * process left running after its run, or several runs at once).
   */
  constructor(
    private readonly vfs: Vfs,
    private readonly actor: () => string = () => "container",
  ) {
    super();
    preparePushed(vfs.store.sql);
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
    // Hashing is asynchronous, so every op's content is made ready first, all at once (one
    // digest after another cost a turn of the event loop each); the batch then applies in one
    // transaction, and nothing else mutates the workspace in between.
    const staged: Upload[] = [];
    const prepared: Prepared[] = await Promise.all(ops.map((op) => this.prepare(op, staged)));
    const store = this.vfs.store;
    const result = await this.vfs.actingAs(this.actor(), () =>
      this.vfs.exclusive(() =>
        store.atomically(() => {
          const applied = applyBatch(store, ops, prepared, (path) => this.entryAt(path));
          // Committed or not, these uploads are spent; their staging rows go with this transaction.
          for (const upload of staged) upload.stager.discard();
          return applied;
        }),
      ),
    );
    return result.ok ? result : wireError(result);
  }

  /** An op's content, hashed as the workspace would chunk it, or the upload it names. */
  private async prepare(op: SyncOp, staged: Upload[]): Promise<Prepared> {
    if (op.op === "write") {
      const chunks: ChunkRef[] = [];
      const blobs: Uint8Array[] = [];
      for (let at = 0; at < op.bytes.byteLength; at += workspaceLimits.chunkBytes) {
        const piece = op.bytes.slice(at, at + workspaceLimits.chunkBytes);
        chunks.push({ hash: await chunkHash(piece), size: piece.byteLength });
        blobs.push(piece);
      }
      const size = op.bytes.byteLength;
      return { ok: true, chunks, size, etag: await contentEtag(chunks, size), blobs };
    }
    if (op.op === "commitUpload") {
      const upload = this.uploads.get(op.uploadId);
      if (!upload) return fail("EINVAL", `no upload ${op.uploadId} in this session`, op.path);
      this.uploads.delete(op.uploadId);
      staged.push(upload);
      const etag = await contentEtag(upload.chunks, upload.size);
      return { ok: true, chunks: upload.chunks, size: upload.size, etag, blobs: null };
    }
    return null;
  }

  private entryAt(path: string): RemoteEntry | null {
    const stat = this.vfs.lstat(path);
    return stat.ok ? entryOf(stat.stat) : null;
  }
}

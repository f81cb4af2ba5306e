/**
 * Reading the replica into push ops: the ops that make the object hold what the replica holds
 * at a dirty path, each with its base (state.ts), read from the replica's local disk (never
 * the mount). A file goes inline when it fits a chunk and is staged with `upload()` when it
 * does not; a new name of a file the object already has goes as a `link`; FIFOs, sockets and
 * device nodes give no op. In the native mode a placeholder is never read as content: one
 * still where the object has it gives a `setattr`, one moved elsewhere is filled first.
 * ./push.ts batches and sends what this reads.
 */
import { type BigIntStats, constants, lstatSync, readFileSync, readlinkSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import type { SyncAttrs, SyncBase, SyncOp, WorkspaceSyncApi } from "../../wire/index.ts";
import { wireLimits } from "../../wire/index.ts";
import { daemonLimits } from "../limits.ts";
import { materialize, placeholderOf } from "../native/placeholders.ts";
import type { FileRow } from "../state.ts";
import type { SyncContext } from "./context.ts";
import type { Hydrator } from "./hydrate.ts";
import { type IdMap, wireTime } from "./metadata.ts";

/** Content read before the push (native mode, ./pushPrefetch.ts), given up only for the very file read. */
export interface EarlyReads {
  /** The bytes read earlier for `path` when `st`, just taken, proves it is still that file; null otherwise. */
  take(path: string, st: BigIntStats): Buffer | null;
}

/**
 * Pushing reads a file the command wrote; O_NOATIME keeps that read from moving its access
 * time, which belongs to the command (a push of a file whose mtime is newer than its atime
 * would otherwise stamp the atime with the time of the push). computerd is root, whom the
 * kernel lets use it on any file.
 */
const readQuietly = constants.O_RDONLY | constants.O_NOATIME;

/**
 * One op of a batch, with the dirty generation of its path when its state was read; null for
 * the removal of a path under a removed directory, which has no dirty row of its own.
 */
export interface Item {
  op: SyncOp;
  gen: number | null;
  /** Files: the replica inode and mtime the op was read from, kept in `files` once it lands. */
  local?: { ino: number; mtimeNs: string };
}

/** What a push pass read of one dirty path (./push.ts), before its ops are built from it. */
export interface PathRead {
  /** Its dirty generation, read first: a change made after it keeps the path dirty. */
  gen: number;
  /** The replica's lstat of it; null when it is gone. */
  st: BigIntStats | null;
  /** The object's state there as last synced: the base its ops carry. */
  base: SyncBase;
  /** Its file row, when it has one. */
  row: FileRow | undefined;
}

/** The box's owner and exact mtime of a replica entry, as the wire carries them. */
function attrsOf(st: BigIntStats, ids: IdMap): Required<SyncAttrs> {
  return { uid: ids.toBox(Number(st.uid)), gid: ids.toBox(Number(st.gid)), ...wireTime(st.mtimeNs) };
}

/**
 * Replica reads are synchronous, as in apply.ts: the replica is a local disk, never the mount,
 * so they cannot wait on FUSE, and a direct syscall costs microseconds where a thread-pool
 * round trip costs tens (per path, several times: a 1,000-file push spent most of its local
 * time in those hops). Only content past daemonLimits.pushSyncReadBytesMax is read
 * asynchronously, so a large file does not hold the event loop.
 */
export function lstatBig(file: string): BigIntStats | null {
  try {
    return lstatSync(file, { bigint: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw err;
  }
}

/** A file's content read at once (a small file: pushSyncReadBytesMax at most); null when it is gone. */
export function readContentSync(file: string): Buffer | null {
  try {
    return readFileSync(file, { flag: readQuietly });
  } catch {
    return null;
  }
}

function readContent(file: string, size: bigint): Promise<Buffer | null> {
  if (size > BigInt(daemonLimits.pushSyncReadBytesMax)) return readFile(file, { flag: readQuietly }).catch(() => null);
  return Promise.resolve(readContentSync(file));
}

/** Reads the replica's dirty paths into ops, for one Pusher. */
export class PushReader {
  private readonly ctx: SyncContext;
  private readonly hydrator: Hydrator;
  /** Paths whose `link` the object refused (./pushLand.ts fills it): their content goes instead. */
  private readonly unlinkable: ReadonlySet<string>;

  /** Native mode: content read while the command ran (./pushPrefetch.ts). */
  private readonly early: EarlyReads;

  constructor(ctx: SyncContext, hydrator: Hydrator, unlinkable: ReadonlySet<string>, early: EarlyReads) {
    this.ctx = ctx;
    this.hydrator = hydrator;
    this.unlinkable = unlinkable;
    this.early = early;
  }

  /**
   * The ops that make the object hold what the replica holds at `path` (`read`, just read),
   * each with its base: the path's synced state, or, for content written through a link that
   * goes just before it, the linked file's.
   */
  async itemsFor(ws: WorkspaceSyncApi, path: string, read: PathRead, pushed: Map<bigint, string>): Promise<Item[]> {
    const { gen, base, row } = read;
    const { replica, state } = this.ctx;
    const item = (op: SyncOp, local?: Item["local"]): Item => ({
      op: { ...op, base },
      gen,
      ...(local ? { local } : {}),
    });
    const local = replica.local(path);
    let st = read.st;
    if (!st) return [item({ op: "remove", path })];
    // Read while the command ran, and provably the same file since: not a placeholder either.
    const early = this.ctx.native && st.isFile() ? this.early.take(path, st) : null;
    if (this.ctx.native && st.isFile() && !early) {
      const key = placeholderOf(local);
      if (key && !(key.path === path && row?.etag === key.etag)) {
        if (!(await materialize(this.hydrator, local, key))) throw new Error(`cannot fill ${path} to push it`);
        st = lstatBig(local);
        if (!st) return [item({ op: "remove", path })];
      } else if (key) {
        return [item({ op: "setattr", path, mode: Number(st.mode & 0o7777n), ...attrsOf(st, this.ctx.ids) })];
      }
    }
    const mode = Number(st.mode & 0o7777n);
    const attrs = attrsOf(st, this.ctx.ids);
    if (st.isDirectory()) return [item({ op: "mkdir", path, mode, ...attrs })];
    if (st.isSymbolicLink()) {
      // A link whose owner or times alone changed keeps its synced target (dirty.ts says why).
      const kept = this.ctx.dirty.onlyAttributes(path) && base?.type === "symlink" ? base.target : null;
      return [item({ op: "symlink", path, target: kept ?? readlinkSync(replica.quiet(path)), ...attrs })];
    }
    // A FIFO, socket or device node stays on the box; where it replaced what the object
    // had, that goes (the object cannot hold the new thing, and must not keep the old).
    if (!st.isFile()) return base ? [item({ op: "remove", path })] : [];
    // A placeholder whose metadata changed: the object already has the content.
    if (!this.ctx.native && row && !row.hydrated) return [item({ op: "setattr", path, mode, ...attrs })];
    const here = { ino: Number(st.ino), mtimeNs: String(st.mtimeNs) };
    const link = st.nlink > 1n ? this.linkFor(path, st, row, pushed) : null;
    if (link?.unchanged) return [item(link.op, here)];
    let content: SyncOp;
    const nlink = Number(st.nlink);
    if (st.size <= BigInt(wireLimits.chunkBytesMax)) {
      const bytes = early ?? (await readContent(local, st.size));
      if (bytes === null) return [item({ op: "remove", path })];
      const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      content = { op: "write", path, bytes: view, mode, nlink, ...attrs };
    } else {
      content = { op: "commitUpload", path, uploadId: await this.upload(ws, local), mode, nlink, ...attrs };
    }
    pushed.set(st.ino, path);
    if (!link) return [item(content, here)];
    // A link whose content may have changed since its other name was pushed: link, then
    // write through it, on the base the link leaves there (the other name's synced state).
    const existing = link.op.op === "link" ? link.op.existing : path;
    return [item(link.op), { op: { ...content, base: state.synced(existing) }, gen, local: here }];
  }

  /**
   * A `link` op when `path` is a new name of a file the object already has under another
   * name: pushed earlier in this pass, or pushed before and still that same replica inode.
   * `unchanged` when nothing can have changed the content since (its mtime is the one pushed).
   */
  private linkFor(
    path: string,
    st: BigIntStats,
    row: FileRow | undefined,
    pushed: Map<bigint, string>,
  ): { op: SyncOp; unchanged: boolean } | null {
    const { state } = this.ctx;
    if (this.unlinkable.has(path) || row?.localIno === Number(st.ino)) return null;
    const earlier = pushed.get(st.ino);
    if (earlier !== undefined && earlier !== path)
      return { op: { op: "link", path, existing: earlier }, unchanged: true };
    for (const other of state.filesWithLocalIno(Number(st.ino))) {
      if (other.path === path || !other.hydrated) continue;
      // The row may outlive its file: a filesystem reuses a freed inode number, so the other
      // name must still be this very file here, or the object is asked to link to a name it
      // no longer has (and the content written through that link lands on the wrong base).
      if (lstatBig(this.ctx.replica.local(other.path))?.ino !== st.ino) continue;
      return {
        op: { op: "link", path, existing: other.path },
        unchanged: other.localMtimeNs === String(st.mtimeNs) && other.size === Number(st.size),
      };
    }
    return null;
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
}

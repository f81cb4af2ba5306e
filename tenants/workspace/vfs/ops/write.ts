/**
 * write: create, overwrite, append to, or exclusively create a file from a stream.
 * Preconditions (`exclusive`, `ifMatch`) are checked before the body is read and again at
 * commit; the new content replaces the old in one transaction.
 */
import { workspaceLimits } from "../../limits.ts";
import { normalizePath } from "../../paths.ts";
import { type ChunkRef, ChunkStager, chunkHash, contentEtag } from "../content.ts";
import { FsAbort, type FsResult, fail } from "../errors.ts";
import { ifMatchHolds } from "../preconditions.ts";
import { DEFAULT_FILE_MODE, type Inode, type Stat, type Store } from "../store.ts";
import type { PreciseTime } from "../times.ts";

export interface WriteOptions {
  /** `append` adds to the end (creating the file if needed); `exclusive` fails with EEXIST if the file exists. */
  mode?: "overwrite" | "append" | "exclusive";
  /**
   * Write only if the file's current ETag is this one, one of a comma-separated list, or for
   * `*` any current file (EPRECONDITION otherwise, or if it does not exist): see preconditions.ts.
   */
  ifMatch?: string;
  /** `*`: write only if nothing exists at the path (EPRECONDITION otherwise), as HTTP `If-None-Match: *`. */
  ifNoneMatch?: "*";
  /** Create missing parent directories (default true, like the API's PUT). */
  parents?: boolean;
  /** Mode bits for a new file. */
  fileMode?: number;
  /**
   * Container sync only: the owner the file gets (a new one DEFAULT_OWNER otherwise) and its
   * exact modification time (now otherwise), so a pushed file keeps the box's.
   */
  attrs?: { uid?: number; gid?: number; mtime?: PreciseTime };
}

interface Target {
  path: string;
  existing: Inode | null;
}

function locate(store: Store, path: string, options: WriteOptions): FsResult<Target> {
  // Writing through a symlink writes its target, as open(2) does.
  const followed = store.resolve(path, true);
  let target: Target;
  if (followed.ok) {
    if (followed.inode.type === "dir") return fail("EISDIR", `is a directory: ${followed.path}`, path);
    target = { path: followed.path, existing: followed.inode };
  } else if (followed.code === "ENOENT") {
    const parent = store.resolveParent(path);
    if (!parent.ok && !(parent.code === "ENOENT" && options.parents !== false)) return parent;
    if (parent.ok && parent.existing?.type === "symlink")
      return fail("ENOENT", `dangling symbolic link: ${path}`, path);
    // With the parent missing, commit creates it from this path, so it must be the normalized
    // one: a raw `/a/b/` would make a directory `/a/b` and a file named "" inside it.
    target = { path: parent.ok ? parent.path : (normalizePath(path) as { path: string }).path, existing: null };
  } else {
    return followed;
  }
  if (options.mode === "exclusive" && target.existing) return fail("EEXIST", `file exists: ${target.path}`, path);
  if (options.ifNoneMatch === "*" && target.existing) return fail("EPRECONDITION", `file exists: ${target.path}`, path);
  if (options.ifMatch !== undefined && !ifMatchHolds(options.ifMatch, target.existing)) {
    return fail("EPRECONDITION", `the file's ETag is not ${options.ifMatch}`, path);
  }
  return { ok: true, ...target };
}

export async function write(
  store: Store,
  path: string,
  body: ReadableStream<Uint8Array> | Uint8Array,
  options: WriteOptions = {},
): Promise<FsResult<{ stat: Stat }>> {
  const located = locate(store, path, options);
  if (!located.ok) {
    if (body instanceof ReadableStream) await body.cancel().catch(() => {});
    return located;
  }
  const existing = located.existing;
  const append = options.mode === "append" && existing !== null;
  if (body instanceof Uint8Array && body.byteLength <= workspaceLimits.chunkBytes && !append) {
    return writeSmall(store, path, body, existing, options);
  }
  let base: { hash: string; size: number }[] = [];
  let prefix: Uint8Array | undefined;
  if (append) {
    base = store.chunks(existing.ino);
    const last = base.at(-1);
    if (last && last.size < workspaceLimits.chunkBytes) {
      prefix = await store.chunkBytes(last.hash);
      base = base.slice(0, -1);
    }
  }
  const baseBytes = base.reduce((sum, c) => sum + c.size, 0);
  const spare = workspaceLimits.workspaceBytesMax - store.meta("size_bytes") + (existing?.size ?? 0) - baseBytes;
  const stager = new ChunkStager(store);
  const staged = await stager.stage(
    body,
    [
      { bytes: workspaceLimits.fileBytesMax - baseBytes, code: "EFBIG" },
      { bytes: spare, code: "ENOSPC" },
    ],
    prefix,
  );
  if (!staged.ok) {
    const detail =
      staged.code === "EFBIG"
        ? `a file may be at most ${workspaceLimits.fileBytesMax} bytes`
        : `the workspace may hold at most ${workspaceLimits.workspaceBytesMax} bytes`;
    return fail(staged.code, detail, path);
  }
  const chunks = [...base, ...staged.chunks];
  const size = baseBytes + staged.size;
  const etag = await contentEtag(chunks, size);
  const committed = store.atomically(() => {
    stager.discard();
    return commitWrite(store, path, chunks, size, etag, options);
  });
  if (!committed.ok) stager.discard();
  return committed;
}

/**
 * The common case of a small file given whole: one chunk, hashed before the transaction
 * and stored inside it, so it needs no staging rows (and costs a few statements fewer).
 */
async function writeSmall(
  store: Store,
  path: string,
  body: Uint8Array,
  existing: Inode | null,
  options: WriteOptions,
): Promise<FsResult<{ stat: Stat }>> {
  if (store.meta("size_bytes") - (existing?.size ?? 0) + body.byteLength > workspaceLimits.workspaceBytesMax) {
    return fail("ENOSPC", `the workspace may hold at most ${workspaceLimits.workspaceBytesMax} bytes`, path);
  }
  const chunks = body.byteLength === 0 ? [] : [{ hash: await chunkHash(body), size: body.byteLength }];
  const etag = await contentEtag(chunks, body.byteLength);
  return store.atomically(() => {
    if (chunks[0]) store.putBlob(chunks[0].hash, body);
    return commitWrite(store, path, chunks, body.byteLength, etag, options);
  });
}

/**
 * Makes `chunks` the content of the file at `path`, creating it (and its parents, unless
 * `parents: false`) if needed. Synchronous, for use inside a transaction; throws FsAbort.
 */
export function commitWrite(
  store: Store,
  path: string,
  chunks: readonly ChunkRef[],
  size: number,
  etag: string,
  options: WriteOptions,
): { ok: true; stat: Stat } {
  const again = locate(store, path, { ...options, mode: options.mode === "append" ? "overwrite" : options.mode });
  if (!again.ok) throw new FsAbort(again);
  let ino = again.existing?.ino;
  if (ino === undefined) {
    const cut = again.path.lastIndexOf("/");
    const parent = store.ensureDirectory(again.path.slice(0, cut) || "/");
    ino = store.createInode("file", options.fileMode ?? DEFAULT_FILE_MODE, { size, etag, ...options.attrs });
    store.link(parent, again.path.slice(cut + 1), ino, "file");
  } else {
    store.updateInode(ino, { size, etag, ...options.attrs, mtime: options.attrs?.mtime ?? true });
  }
  store.setChunks(ino, chunks, { fresh: again.existing === null });
  store.addMeta("size_bytes", size - (again.existing?.size ?? 0));
  if (store.meta("size_bytes") > workspaceLimits.workspaceBytesMax) {
    throw new FsAbort(
      fail("ENOSPC", `the workspace may hold at most ${workspaceLimits.workspaceBytesMax} bytes`, path),
    );
  }
  // Every name of the file now shows the new content.
  store.recordChange("write", store.namesOf(ino, again.path));
  return { ok: true, stat: store.stat(again.path, store.inode(ino) as Inode) };
}

/** read: a file's bytes as a stream, whole or a byte range. */
import { contentStream } from "../content.ts";
import { type FsResult, fail } from "../errors.ts";
import type { Stat, Store } from "../store.ts";

export interface ReadOptions {
  /** First byte, default 0. */
  offset?: number;
  /** Bytes to read from `offset`; default to the end. */
  length?: number;
}

export function read(
  store: Store,
  path: string,
  options: ReadOptions = {},
): FsResult<{ stat: Stat; start: number; end: number; body: ReadableStream<Uint8Array> }> {
  const resolved = store.resolve(path, true);
  if (!resolved.ok) return resolved;
  if (resolved.inode.type === "dir") return fail("EISDIR", `is a directory: ${path}`, path);
  const size = resolved.inode.size;
  const start = options.offset ?? 0;
  if (start < 0 || (start > 0 && start >= size) || (options.length !== undefined && options.length < 0)) {
    return fail("EINVAL", `range starting at ${start} is outside a ${size}-byte file`, path);
  }
  const end = options.length === undefined ? size : Math.min(size, start + options.length);
  const body = contentStream(store, store.chunks(resolved.ino), start, end);
  return { ok: true, stat: store.stat(resolved.path, resolved.inode), start, end, body };
}

/** Reads a whole (small) file into memory; for grep and tests, never for user downloads. */
export async function readBytes(store: Store, path: string): Promise<FsResult<{ bytes: Uint8Array }>> {
  const result = read(store, path);
  if (!result.ok) return result;
  return { ok: true, bytes: new Uint8Array(await new Response(result.body).arrayBuffer()) };
}

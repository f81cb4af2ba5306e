/** truncate: cut a file to `size` bytes, or extend it with zero bytes. */
import { workspaceLimits } from "../../limits.ts";
import { type ChunkRef, chunkHash, contentEtag } from "../content.ts";
import { FsAbort, type FsResult, fail } from "../errors.ts";
import type { Inode, Stat, Store } from "../store.ts";

export async function truncate(store: Store, path: string, size: number): Promise<FsResult<{ stat: Stat }>> {
  if (!Number.isSafeInteger(size) || size < 0) return fail("EINVAL", "size must be a non-negative integer", path);
  if (size > workspaceLimits.fileBytesMax)
    return fail("EFBIG", `a file may be at most ${workspaceLimits.fileBytesMax} bytes`, path);
  const resolved = store.resolve(path, true);
  if (!resolved.ok) return resolved;
  if (resolved.inode.type === "dir") return fail("EISDIR", `is a directory: ${path}`, path);
  if (store.meta("size_bytes") - resolved.inode.size + size > workspaceLimits.workspaceBytesMax) {
    return fail("ENOSPC", `the workspace may hold at most ${workspaceLimits.workspaceBytesMax} bytes`, path);
  }
  const chunks: ChunkRef[] = [];
  let kept = 0;
  for (const chunk of store.chunks(resolved.ino)) {
    if (kept + chunk.size <= size) {
      chunks.push(chunk);
      kept += chunk.size;
      continue;
    }
    if (kept < size) {
      const bytes = (await store.chunkBytes(chunk.hash)).slice(0, size - kept);
      const hash = await chunkHash(bytes);
      store.putBlob(hash, bytes);
      chunks.push({ hash, size: bytes.byteLength });
      kept = size;
    }
    break;
  }
  // Extending: fill the last chunk up, then whole zero chunks (stored once, however many).
  while (kept < size) {
    const last = chunks.at(-1);
    const room = last ? workspaceLimits.chunkBytes - last.size : 0;
    if (last && room > 0) {
      const grown = new Uint8Array(Math.min(workspaceLimits.chunkBytes, last.size + size - kept));
      grown.set(await store.chunkBytes(last.hash));
      const hash = await chunkHash(grown);
      store.putBlob(hash, grown);
      kept += grown.byteLength - last.size;
      chunks[chunks.length - 1] = { hash, size: grown.byteLength };
      continue;
    }
    const zeros = new Uint8Array(Math.min(workspaceLimits.chunkBytes, size - kept));
    const hash = await chunkHash(zeros);
    store.putBlob(hash, zeros);
    chunks.push({ hash, size: zeros.byteLength });
    kept += zeros.byteLength;
  }
  const etag = await contentEtag(chunks, size);
  return store.atomically(() => {
    const again = store.resolve(path, true);
    if (!again.ok || again.ino !== resolved.ino)
      throw new FsAbort(again.ok ? fail("ENOENT", "the file changed", path) : again);
    store.setChunks(again.ino, chunks);
    store.addMeta("size_bytes", size - again.inode.size);
    store.updateInode(again.ino, { size, etag, mtime: true });
    store.recordChange("truncate", store.namesOf(again.ino, again.path));
    return { ok: true as const, stat: store.stat(again.path, store.inode(again.ino) as Inode) };
  });
}

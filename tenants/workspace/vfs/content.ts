/**
 * Turning byte streams into content-addressed chunks and back. Chunks are staged under an
 * upload id while a stream arrives (protecting them from GC) and become a file's content
 * only when the caller commits, so a cut-off upload never leaves half a file.
 */
import { hex } from "../../hash.ts";
import { workspaceLimits } from "../limits.ts";
import type { Store } from "./store.ts";

export interface ChunkRef {
  hash: string;
  size: number;
}

export async function chunkHash(bytes: Uint8Array): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/**
 * A strong ETag from the chunk list: equal content gives an equal tag, any change a new
 * one. A file of at most one chunk takes its chunk's hash (no second digest on the hot
 * path of small writes); longer files hash the list of chunk hashes.
 */
export async function contentEtag(chunks: readonly ChunkRef[], size: number): Promise<string> {
  if (chunks.length <= 1) return `"${(chunks[0]?.hash ?? EMPTY_SHA256).slice(0, 32)}"`;
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`${size}:${chunks.map((c) => c.hash).join(",")}`),
  );
  return `"${hex(new Uint8Array(digest)).slice(0, 32)}"`;
}

/** SHA-256 of no bytes: the ETag of an empty file. */
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export type StageResult = { ok: true; chunks: ChunkRef[]; size: number } | { ok: false; code: "EFBIG" | "ENOSPC" };

/**
 * Reads `body` into chunks staged under `upload`, after an optional `prefix` (the tail
 * of a file being appended to). `sizeMax` is the most bytes the result may hold, counting
 * the prefix; past it the stream is cancelled and staged chunks discarded.
 */
export class ChunkStager {
  readonly upload = `u${crypto.randomUUID()}`;
  private readonly chunks: ChunkRef[] = [];
  private buffer = new Uint8Array(workspaceLimits.chunkBytes);
  private filled = 0;
  private size = 0;

  constructor(private readonly store: Store) {}

  async stage(
    body: ReadableStream<Uint8Array> | Uint8Array,
    sizeMax: { bytes: number; code: "EFBIG" | "ENOSPC" }[],
    prefix?: Uint8Array,
  ): Promise<StageResult> {
    try {
      if (prefix) await this.push(prefix);
      if (body instanceof Uint8Array) {
        const over = this.over(body.byteLength, sizeMax);
        if (over) return this.abandon(over);
        await this.push(body);
      } else {
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const over = this.over(value.byteLength, sizeMax);
          if (over) {
            await reader.cancel();
            return this.abandon(over);
          }
          await this.push(value);
        }
      }
      if (this.filled > 0) await this.flush();
      return { ok: true, chunks: this.chunks, size: this.size };
    } catch (error) {
      this.discard();
      throw error;
    }
  }

  /** Forgets the staging rows; the blobs stay for the caller's commit (or for GC). */
  discard(): void {
    this.store.sql.exec("DELETE FROM upload_chunks WHERE upload = ?", this.upload);
  }

  private over(adding: number, limits: { bytes: number; code: "EFBIG" | "ENOSPC" }[]) {
    return limits.find((limit) => this.size + adding > limit.bytes)?.code;
  }

  private abandon(code: "EFBIG" | "ENOSPC"): StageResult {
    this.discard();
    return { ok: false, code };
  }

  private async push(bytes: Uint8Array): Promise<void> {
    this.size += bytes.byteLength;
    let offset = 0;
    while (offset < bytes.byteLength) {
      const take = Math.min(bytes.byteLength - offset, this.buffer.byteLength - this.filled);
      this.buffer.set(bytes.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === this.buffer.byteLength) await this.flush();
    }
  }

  private async flush(): Promise<void> {
    const data = this.buffer.slice(0, this.filled);
    const hash = await chunkHash(data);
    this.store.putBlob(hash, data);
    this.store.sql.exec(
      "INSERT INTO upload_chunks (upload, idx, hash) VALUES (?, ?, ?)",
      this.upload,
      this.chunks.length,
      hash,
    );
    this.chunks.push({ hash, size: data.byteLength });
    this.filled = 0;
  }
}

/**
 * Streams a file's bytes in [start, end) one chunk at a time as the consumer pulls, so a
 * large file never sits in memory whole. The chunk list is fixed when the read begins.
 */
export function contentStream(
  store: Store,
  chunks: readonly ChunkRef[],
  start: number,
  end: number,
): ReadableStream<Uint8Array> {
  let index = 0;
  let chunkStart = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (index < chunks.length) {
          const chunk = chunks[index++] as ChunkRef;
          const from = chunkStart;
          chunkStart += chunk.size;
          if (chunkStart <= start) continue;
          if (from >= end) break;
          // A fork's chunk not yet copied is read through from its source here (forks/lend.ts).
          const bytes = await store.chunkBytes(chunk.hash);
          controller.enqueue(bytes.subarray(Math.max(0, start - from), Math.min(chunk.size, end - from)));
          return;
        }
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

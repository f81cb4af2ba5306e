/**
 * Chunks moving from a source to its forks. A fork's chunk is absent (a `blobs` row with
 * `absent = 1`: its size and references known, its bytes not) until it is read, when it is
 * read through from the source and kept, or until the fork's alarm copies it. The source
 * keeps every chunk its unfinished forks may still ask for: each pins its revision
 * (pins.ts). Content addressing makes the exchange unambiguous: a chunk is asked for by
 * its hash, and the bytes that come back are checked against it before they are kept.
 */
import { chunkHash } from "../content.ts";
import type { Store } from "../store.ts";

export interface LentChunk {
  hash: string;
  data: Uint8Array;
}

/** Asks the source for chunks by hash (an RPC to it, in the workspace object). */
export type ChunkLender = (hashes: readonly string[]) => Promise<LentChunk[]>;

/** The bytes of the chunks asked for that are here; absent ones must be fetched first (the caller does). */
export function lendChunks(store: Store, hashes: readonly string[]): LentChunk[] {
  const out: LentChunk[] = [];
  for (const hash of new Set(hashes)) {
    const data = store.content.blobIfHere(hash);
    if (data) out.push({ hash, data });
  }
  return out;
}

/** Which of `hashes` are absent here. */
export function absentAmong(store: Store, hashes: readonly string[]): string[] {
  return [...new Set(hashes)].filter((hash) => store.isAbsent(hash));
}

/** Absent chunks something still references, at most `max`: what the copy alarm fetches next. */
export function absentHashes(store: Store, max: number): string[] {
  return store.sql
    .exec<{ hash: string }>("SELECT hash FROM blobs WHERE absent = 1 AND refs > 0 LIMIT ?", max)
    .toArray()
    .map((row) => row.hash);
}

/**
 * Keeps lent chunks whose bytes hash to their name, and says which asked-for hashes are
 * still absent (the source did not have them: a broken chain, reported by the caller).
 */
export async function receiveChunks(store: Store, asked: readonly string[], lent: readonly LentChunk[]) {
  for (const chunk of lent) {
    if (!asked.includes(chunk.hash)) continue;
    const actual = await chunkHash(chunk.data);
    if (actual !== chunk.hash) throw new Error(`a lent chunk's bytes hash to ${actual}, not ${chunk.hash}`);
    store.putBlob(chunk.hash, chunk.data);
  }
  return absentAmong(store, asked);
}

/** Whether the fork still lacks a chunk it references: while so, it needs its source. */
export function stillBorrowing(store: Store): boolean {
  return absentHashes(store, 1).length > 0;
}

/** Absent chunks nothing references any more: garbage that needs no copying. */
export function dropUnreferencedAbsent(store: Store): void {
  store.sql.exec("DELETE FROM blobs WHERE absent = 1 AND refs = 0");
}

/**
 * Garbage collection of content chunks no file uses any more (`refs = 0`), a bounded
 * number per call so one alarm never holds the object long. Chunks still staged by an
 * upload in progress are skipped. A packed chunk's base is garbage only once nothing is
 * packed against it either. Returns how many remain, so the caller re-arms.
 */
import { workspaceLimits } from "../limits.ts";
import { BILLED_BYTES } from "./schema.ts";
import type { Store } from "./store.ts";

export function collectGarbage(
  store: Store,
  max: number = workspaceLimits.gcChunksPerAlarm,
): { deleted: number; remaining: boolean } {
  const victims = store.sql
    .exec<{ hash: string }>(
      `SELECT hash FROM blobs WHERE refs = 0 AND hash NOT IN (SELECT hash FROM upload_chunks) LIMIT ?`,
      max,
    )
    .toArray();
  for (const { hash } of victims) {
    // A packed chunk (pack.ts) gives up the reference it held on its base.
    const gone = store.sql
      .exec<{ base: string | null }>("DELETE FROM blobs WHERE hash = ? AND refs = 0 RETURNING base", hash)
      .toArray()[0];
    if (gone?.base) store.sql.exec("UPDATE blobs SET refs = refs - 1 WHERE hash = ?", gone.base);
  }
  return { deleted: victims.length, remaining: hasGarbage(store) };
}

export function hasGarbage(store: Store): boolean {
  return (
    store.sql
      .exec("SELECT 1 FROM blobs WHERE refs = 0 AND hash NOT IN (SELECT hash FROM upload_chunks) LIMIT 1")
      .toArray().length > 0
  );
}

/**
 * Physical content: what the chunks here take, after deduplication and packing (a packed
 * chunk counts the bytes it keeps, pack.ts; a fork's absent chunks are not here yet).
 */
export function storedBytes(store: Store): { chunkCount: number; chunkBytes: number } {
  const row = store.sql
    .exec<{ n: number; bytes: number }>(
      `SELECT count(*) AS n, coalesce(sum(${BILLED_BYTES}), 0) AS bytes
       FROM blobs WHERE absent = 0`,
    )
    .one();
  return { chunkCount: row.n, chunkBytes: row.bytes };
}

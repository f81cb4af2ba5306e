/**
 * The source counts its tree at a revision for a new fork, so the fork answers (and is
 * billed) with exact counters before any row has reached it: bytes and files as the tree
 * holds them (once per inode, as `meta` counts them), and the unique bytes of the distinct
 * chunks it reaches (what the fork's `finishImport` counts again from the rows). At the live
 * revision the counters come from `meta`; the unique bytes too when no retired version is
 * kept, else they take a pass over the chunk lists, since the source's own `unique_bytes`
 * also counts what its snapshots hold.
 */
import type { Store } from "../store.ts";
import type { ForkCounts } from "./import.ts";

export function countsAt(store: Store, rev: number): ForkCounts {
  const live = rev === store.meta("revision");
  // The rows alive at `rev` (versions/at.ts); at the live revision, the live table alone.
  const alive = (table: string, hist: string, columns: string) =>
    live
      ? `SELECT ${columns} FROM ${table}`
      : `SELECT ${columns} FROM ${table} WHERE born_rev <= ?1
         UNION ALL SELECT ${columns} FROM ${hist} WHERE born_rev <= ?1 AND died_rev > ?1`;
  const params = live ? [] : [rev];
  // With no retired chunk-list row kept, `blobs.held` counts live uses alone, and with no
  // packed chunk (which the fork gets whole, and the source bills as packed) the live tree's
  // unique bytes are `meta.unique_bytes`, with no pass over the chunk lists.
  const metaIsExact =
    live &&
    store.sql
      .exec(
        `SELECT 1 WHERE EXISTS (SELECT 1 FROM file_chunks_hist)
         OR EXISTS (SELECT 1 FROM blobs WHERE base IS NOT NULL)`,
      )
      .toArray().length === 0;
  const unique = metaIsExact
    ? store.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'unique_bytes'").one().value
    : store.sql
        .exec<{ bytes: number }>(
          `SELECT coalesce(sum(size), 0) AS bytes FROM (
         SELECT max(size) AS size FROM (${alive("file_chunks", "file_chunks_hist", "hash, size")}) GROUP BY hash
       )`,
          ...params,
        )
        .one().bytes;
  if (live) {
    return {
      sizeBytes: store.meta("size_bytes"),
      fileCount: store.meta("file_count"),
      inodeCount: store.meta("inode_count"),
      uniqueBytes: unique,
    };
  }
  const totals = store.sql
    .exec<{ inodes: number; files: number; bytes: number }>(
      `SELECT count(*) - 1 AS inodes, coalesce(sum(type = 'file'), 0) AS files,
       coalesce(sum(CASE WHEN type = 'file' THEN size ELSE 0 END), 0) AS bytes
       FROM (${alive("inodes", "inodes_hist", "type, size")})`,
      ...params,
    )
    .one();
  return { sizeBytes: totals.bytes, fileCount: totals.files, inodeCount: totals.inodes, uniqueBytes: unique };
}

/**
 * File content as rows: a file's chunk list (`file_chunks`), and the content-addressed
 * blobs the lists name, each with a reference count (a reference counts a row version,
 * live or in history). A list is always replaced whole.
 */
import { undelta } from "./delta.ts";
import type { History } from "./history.ts";

/**
 * The most bytes `putBlobs` binds to one statement: well under the 2 MB a Durable Object's
 * SQLite takes as one value.
 */
const BLOBS_GROUP_BYTES = 1024 * 1024;

export class Chunks {
  constructor(
    private readonly sql: SqlStorage,
    private readonly history: History,
  ) {}

  list(ino: number): { idx: number; hash: string; size: number }[] {
    return this.sql
      .exec<{ idx: number; hash: string; size: number }>(
        "SELECT idx, hash, size FROM file_chunks WHERE ino = ? ORDER BY idx",
        ino,
      )
      .toArray();
  }

  /**
   * Adds a blob if it is new (its reference count stays 0 until `set` uses it), or gives a
   * fork's absent chunk its bytes: content addressing makes them the same bytes.
   */
  putBlob(hash: string, data: Uint8Array): void {
    this.sql.exec(
      `INSERT INTO blobs (hash, size, refs, data) VALUES (?, ?, 0, ?)
       ON CONFLICT (hash) DO UPDATE SET data = excluded.data, absent = 0 WHERE blobs.absent = 1`,
      hash,
      data.byteLength,
      data,
    );
  }

  /**
   * `putBlob` for many blobs, in one statement per group of up to BLOBS_GROUP_BYTES: the
   * group's bytes go as one parameter, each row a slice of it (`substr` of a BLOB counts
   * bytes), where a statement per blob cost a push of 1,000 small files 5–12 ms.
   */
  putBlobs(blobs: readonly { hash: string; data: Uint8Array }[]): void {
    for (let start = 0; start < blobs.length; ) {
      let end = start;
      let bytes = 0;
      while (end < blobs.length && (end === start || bytes + (blobs[end]?.data.byteLength ?? 0) <= BLOBS_GROUP_BYTES))
        bytes += blobs[end++]?.data.byteLength ?? 0;
      if (end - start === 1) {
        const { hash, data } = blobs[start] as { hash: string; data: Uint8Array };
        this.putBlob(hash, data);
      } else {
        const group = new Uint8Array(bytes);
        const rows: [string, number, number][] = [];
        for (let at = 0, i = start; i < end; i++) {
          const { hash, data } = blobs[i] as { hash: string; data: Uint8Array };
          group.set(data, at);
          rows.push([hash, at + 1, data.byteLength]);
          at += data.byteLength;
        }
        // The WHERE keeps SQLite from reading ON CONFLICT as part of the SELECT.
        this.sql.exec(
          `INSERT INTO blobs (hash, size, refs, data)
           SELECT value ->> 0, value ->> 2, 0, substr(?, value ->> 1, value ->> 2) FROM json_each(?) WHERE true
           ON CONFLICT (hash) DO UPDATE SET data = excluded.data, absent = 0 WHERE blobs.absent = 1`,
          group,
          JSON.stringify(rows),
        );
      }
      start = end;
    }
  }

  /**
   * A chunk's bytes, which must be here: a fork's absent chunk is read with `Store.chunkBytes`.
   * A packed chunk (pack.ts) is rebuilt from its base, which is always whole.
   */
  blob(hash: string): Uint8Array {
    const row = this.sql
      .exec<{ data: ArrayBuffer; absent: number; base: string | null; base_head: number; base_tail: number }>(
        "SELECT data, absent, base, base_head, base_tail FROM blobs WHERE hash = ?",
        hash,
      )
      .toArray()[0];
    if (!row) throw new Error(`blob ${hash} is missing`);
    if (row.absent) throw new Error(`blob ${hash} has not arrived from the fork's source yet`);
    const data = new Uint8Array(row.data);
    if (row.base === null) return data;
    return undelta(this.blob(row.base), { head: row.base_head, tail: row.base_tail, middle: data });
  }

  /** A chunk's bytes if they are here (not absent, not collected), else null. */
  blobIfHere(hash: string): Uint8Array | null {
    return this.sql.exec("SELECT 1 FROM blobs WHERE hash = ? AND absent = 0", hash).toArray().length > 0
      ? this.blob(hash)
      : null;
  }

  isAbsent(hash: string): boolean {
    return this.sql.exec("SELECT 1 FROM blobs WHERE hash = ? AND absent = 1", hash).toArray().length > 0;
  }

  /** Replaces a file's chunk list, moving reference counts from the old chunks to the new. */
  set(ino: number, chunks: readonly { hash: string; size: number }[], { fresh = false } = {}): void {
    // A file created in this transaction has no chunks to release.
    if (!fresh) this.release(ino);
    chunks.forEach((chunk, idx) => {
      this.sql.exec(
        "INSERT INTO file_chunks (ino, idx, hash, size, born_rev) VALUES (?, ?, ?, ?, ?)",
        ino,
        idx,
        chunk.hash,
        chunk.size,
        this.history.nextRev(),
      );
      this.sql.exec("UPDATE blobs SET refs = refs + 1 WHERE hash = ?", chunk.hash);
    });
  }

  /**
   * Ends a file's chunk list. Rows history must keep move to `file_chunks_hist` with their
   * references; the others give theirs up. A list's rows share one birth and one fate.
   */
  release(ino: number): void {
    const history = this.history;
    const rule = history.keepRule();
    const born = () =>
      this.sql.exec<{ born_rev: number }>("SELECT born_rev FROM file_chunks WHERE ino = ? LIMIT 1", ino).toArray()[0]
        ?.born_rev;
    if (rule && !(history.runActing && history.collapses(born()))) {
      const [condition, ...params] = rule;
      const moved = this.sql.exec(
        `INSERT INTO file_chunks_hist (ino, born_rev, idx, hash, size, died_rev)
         SELECT ino, born_rev, idx, hash, size, ? FROM file_chunks WHERE ino = ? AND ${condition}`,
        history.nextRev(),
        ino,
        ...params,
      ).rowsWritten;
      if (moved > 0) {
        this.sql.exec("DELETE FROM file_chunks WHERE ino = ?", ino);
        return;
      }
    }
    // One statement, so a chunk a file uses twice loses both of its references.
    this.sql.exec(
      `UPDATE blobs SET refs = refs - (SELECT count(*) FROM file_chunks f WHERE f.ino = ? AND f.hash = blobs.hash)
       WHERE hash IN (SELECT hash FROM file_chunks WHERE ino = ?)`,
      ino,
      ino,
    );
    this.sql.exec("DELETE FROM file_chunks WHERE ino = ?", ino);
  }
}

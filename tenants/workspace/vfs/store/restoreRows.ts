/**
 * Restore's row work (versions/restore.ts), set-wise.
 */
import { INODE_COLUMNS } from "../schema.ts";
import type { StoreParts } from "./parts.ts";

/**
 * Restore's row work, set-wise (a few statements whatever the number of rows): every
 * live row of `inos` and `entries` born after `rev` ends (kept in history by the usual
 * rule), and each one's version at `rev` comes back as a new version; chunk references
 * and counters move with them. Rows born by `rev` are that revision's already and stay.
 */
export function restoreRows(
  parts: StoreParts,
  rev: number,
  inos: readonly number[],
  entries: readonly { parent: number; name: string }[],
): void {
  const { sql, cache, counters, history } = parts;
  const d = history.nextRev();
  const rule = history.keepRule();
  const [keep, ...keepParams] = rule ?? ["0"];
  const inoList = JSON.stringify(inos);
  const keyList = JSON.stringify(entries.map((e) => [e.parent, e.name]));
  const INOS = "(SELECT value FROM json_each(?))";
  const KEYS = "(SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))";
  const totals = (from: string, where: string, ...params: (string | number)[]) =>
    sql
      .exec<{ n: number; files: number; bytes: number }>(
        `SELECT count(*) AS n, coalesce(sum(type = 'file'), 0) AS files,
         coalesce(sum(CASE WHEN type = 'file' THEN size ELSE 0 END), 0) AS bytes FROM ${from} WHERE ${where}`,
        ...params,
      )
      .one();
  const gone = totals("inodes", `ino IN ${INOS} AND born_rev > ?`, inoList, rev);
  const back = totals("inodes_hist", `ino IN ${INOS} AND born_rev <= ? AND died_rev > ?`, inoList, rev, rev);
  // Chunk lists born after `rev`: kept ones move to history with their references, the rest give theirs up.
  const liveChunks = `file_chunks WHERE ino IN ${INOS} AND born_rev > ?`;
  if (rule) {
    sql.exec(
      `INSERT INTO file_chunks_hist (ino, born_rev, idx, hash, size, died_rev)
       SELECT ino, born_rev, idx, hash, size, ? FROM ${liveChunks} AND ${keep}`,
      d,
      inoList,
      rev,
      ...keepParams,
    );
  }
  // Reference counts move by one statement per direction, grouped by chunk (UPDATE … FROM),
  // so their cost follows the chunks moved, not the blobs table.
  sql.exec(
    `UPDATE blobs SET refs = refs - moved.n
     FROM (SELECT hash, count(*) AS n FROM ${liveChunks} AND NOT (${keep}) GROUP BY hash) AS moved
     WHERE blobs.hash = moved.hash`,
    inoList,
    rev,
    ...keepParams,
  );
  sql.exec(`DELETE FROM ${liveChunks}`, inoList, rev);
  if (rule) {
    sql.exec(
      `INSERT INTO inodes_hist (${INODE_COLUMNS}, died_rev)
       SELECT ${INODE_COLUMNS}, ? FROM inodes WHERE ino IN ${INOS} AND born_rev > ? AND ${keep}`,
      d,
      inoList,
      rev,
      ...keepParams,
    );
    sql.exec(
      `INSERT INTO dirents_hist (parent, name, ino, born_rev, died_rev)
       SELECT parent, name, ino, born_rev, ? FROM dirents WHERE (parent, name) IN ${KEYS} AND born_rev > ? AND ${keep}`,
      d,
      keyList,
      rev,
      ...keepParams,
    );
  }
  sql.exec(`DELETE FROM inodes WHERE ino IN ${INOS} AND born_rev > ?`, inoList, rev);
  sql.exec(`DELETE FROM dirents WHERE (parent, name) IN ${KEYS} AND born_rev > ?`, keyList, rev);
  const columnsBornNow = INODE_COLUMNS.replace("born_rev", "?");
  sql.exec(
    `INSERT INTO inodes (${INODE_COLUMNS}) SELECT ${columnsBornNow} FROM inodes_hist
     WHERE ino IN ${INOS} AND born_rev <= ? AND died_rev > ?`,
    d,
    inoList,
    rev,
    rev,
  );
  sql.exec(
    `INSERT INTO dirents (parent, name, ino, born_rev) SELECT parent, name, ino, ? FROM dirents_hist
     WHERE (parent, name) IN ${KEYS} AND born_rev <= ? AND died_rev > ?`,
    d,
    keyList,
    rev,
    rev,
  );
  sql.exec(
    `INSERT INTO file_chunks (ino, idx, hash, size, born_rev) SELECT ino, idx, hash, size, ? FROM file_chunks_hist
     WHERE ino IN ${INOS} AND born_rev <= ? AND died_rev > ?`,
    d,
    inoList,
    rev,
    rev,
  );
  sql.exec(
    `UPDATE blobs SET refs = refs + back.n
     FROM (SELECT hash, count(*) AS n FROM file_chunks WHERE ino IN ${INOS} AND born_rev = ? GROUP BY hash) AS back
     WHERE blobs.hash = back.hash`,
    inoList,
    d,
  );
  counters.add("inode_count", back.n - gone.n);
  counters.add("file_count", back.files - gone.files);
  counters.add("size_bytes", back.bytes - gone.bytes);
  cache.clear();
}

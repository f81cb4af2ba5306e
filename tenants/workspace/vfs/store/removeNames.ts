/**
 * Many removals at once (container sync, execs/syncRemoveRun.ts): the counterpart of
 * addNew.ts, one statement per table rather than about twenty per name. A command's
 * `rm -rf` arrives as one remove op per name, and removed alone each cost the object about
 * half a millisecond.
 */
import { INODE_COLUMNS } from "../schema.ts";
import type { StoreParts } from "./parts.ts";
import type { Inode } from "./types.ts";

/** One name to remove: where it is, and the inode it names. */
export interface Removal {
  parent: number;
  name: string;
  /** Its path, for the change log. */
  path: string;
  inode: Inode;
}

/** `[ino or parent, …]` rows for `json_each`, so a list is one bound parameter. */
const at = (i: number, column = "value") => `json_extract(${column}, '$[${i}]')`;

/**
 * Removes files and links that have this one name (nlink ≤ 1) and directories that are
 * empty once the removals before them in the list are done: what `remove` (removeIn) would
 * do one after another, each name in a revision of its own, in order. The caller has checked
 * each one (a single name, no link on the way, a directory emptied); this only writes.
 *
 * History keeps what removing one at a time would keep of each removed row (its name, its
 * inode, its content), each dying in its own revision. A directory that loses entries here
 * and stays gets one new version, born at the first revision that took from it, with its
 * final count and time, as addNew does for one that gains entries.
 */
export function removeNames(parts: StoreParts, removals: readonly Removal[]): number[] {
  const { sql, cache, counters, history } = parts;
  if (removals.length === 0) return [];
  const first = history.nextRev();
  const now = parts.nowMs();
  const revs = removals.map((_, i) => first + i);
  const rule = history.keepRule();
  // Whether history keeps a row version born at `born` that dies at `rev`: the store's
  // rule (history.ts keepRule), and a run's own passing version collapses.
  const kept = (born: number | undefined, rev: number): boolean => {
    if (!rule || born === undefined) return false;
    const [, , windowOn, newestPin] = rule;
    if (!(born < rev && (windowOn === 1 || born <= newestPin))) return false;
    return !(history.runActing && history.collapses(born, rev));
  };

  const names = JSON.stringify(removals.map((r) => [r.parent, r.name]));
  const bornOfName = new Map<string, number>();
  for (const row of sql.exec<{ parent: number; name: string; born_rev: number }>(
    `SELECT d.parent, d.name, d.born_rev FROM dirents d JOIN json_each(?) j
       ON d.parent = ${at(0, "j.value")} AND d.name = ${at(1, "j.value")}`,
    names,
  ))
    bornOfName.set(`${row.parent}/${row.name}`, row.born_rev);
  const inos = JSON.stringify(removals.map((r) => r.inode.ino));
  const chunkBorn = new Map<number, number>();
  for (const row of sql.exec<{ ino: number; born_rev: number }>(
    `SELECT ino, min(born_rev) AS born_rev FROM file_chunks WHERE ino IN (SELECT value FROM json_each(?)) GROUP BY ino`,
    inos,
  ))
    chunkBorn.set(row.ino, row.born_rev);

  const keptNames: unknown[] = [];
  const keptInodes: unknown[] = [];
  const keptChunks: unknown[] = [];
  const freedChunks: number[] = [];
  removals.forEach((r, i) => {
    const rev = revs[i] as number;
    if (kept(bornOfName.get(`${r.parent}/${r.name}`), rev)) keptNames.push([r.parent, r.name, rev]);
    if (r.inode.type === "file") {
      if (kept(chunkBorn.get(r.inode.ino), rev)) keptChunks.push([r.inode.ino, rev]);
      else freedChunks.push(r.inode.ino);
    }
    if (kept(r.inode.born_rev, rev)) keptInodes.push([r.inode.ino, rev]);
  });

  // What each directory that stays loses: entries, subdirectories, and the first revision that took from it.
  const removedInos = new Set(removals.map((r) => r.inode.ino));
  const losses = new Map<number, { entries: number; subdirs: number; rev: number }>();
  removals.forEach((r, i) => {
    if (removedInos.has(r.parent)) return;
    const loss = losses.get(r.parent) ?? { entries: 0, subdirs: 0, rev: revs[i] as number };
    loss.entries++;
    if (r.inode.type === "dir") loss.subdirs++;
    losses.set(r.parent, loss);
  });
  for (const [dir, loss] of losses) {
    if (kept(parts.inode(dir)?.born_rev, loss.rev)) keptInodes.push([dir, loss.rev]);
  }

  if (keptNames.length > 0) {
    sql.exec(
      `INSERT INTO dirents_hist (parent, name, ino, born_rev, died_rev)
       SELECT d.parent, d.name, d.ino, d.born_rev, ${at(2, "j.value")} FROM dirents d JOIN json_each(?) j
         ON d.parent = ${at(0, "j.value")} AND d.name = ${at(1, "j.value")}`,
      JSON.stringify(keptNames),
    );
  }
  if (keptInodes.length > 0) {
    sql.exec(
      `INSERT INTO inodes_hist (${INODE_COLUMNS}, died_rev)
       SELECT ${INODE_COLUMNS.split(", ")
         .map((column) => `i.${column}`)
         .join(", ")}, ${at(1, "j.value")} FROM inodes i JOIN json_each(?) j ON i.ino = ${at(0, "j.value")}`,
      JSON.stringify(keptInodes),
    );
  }
  if (keptChunks.length > 0) {
    sql.exec(
      `INSERT INTO file_chunks_hist (ino, born_rev, idx, hash, size, died_rev)
       SELECT f.ino, f.born_rev, f.idx, f.hash, f.size, ${at(1, "j.value")} FROM file_chunks f JOIN json_each(?) j
         ON f.ino = ${at(0, "j.value")}`,
      JSON.stringify(keptChunks),
    );
  }
  if (freedChunks.length > 0) {
    // One statement, so a chunk several of these files use (or one uses twice) loses every reference.
    sql.exec(
      `WITH freed AS (SELECT hash, count(*) AS uses FROM file_chunks WHERE ino IN (SELECT value FROM json_each(?)) GROUP BY hash)
       UPDATE blobs SET refs = refs - freed.uses FROM freed WHERE blobs.hash = freed.hash`,
      JSON.stringify(freedChunks),
    );
  }
  sql.exec("DELETE FROM file_chunks WHERE ino IN (SELECT value FROM json_each(?))", inos);
  sql.exec(`DELETE FROM dirents WHERE (parent, name) IN (SELECT ${at(0)}, ${at(1)} FROM json_each(?))`, names);
  sql.exec("DELETE FROM inodes WHERE ino IN (SELECT value FROM json_each(?))", inos);
  for (const [dir, loss] of losses) {
    sql.exec(
      `UPDATE inodes SET entries = entries - ?, nlink = nlink - ?, mtime_ms = ?, mtime_nsec = 0, ctime_ms = ?, born_rev = ?
       WHERE ino = ?`,
      loss.entries,
      loss.subdirs,
      now,
      now,
      loss.rev,
      dir,
    );
    cache.inodes.delete(dir);
  }
  sql.exec(
    `INSERT INTO changes (rev, at_ms, op, paths, actor) SELECT ${at(0)}, ?, 'remove', ${at(1)}, ? FROM json_each(?)`,
    now,
    parts.actor,
    JSON.stringify(removals.map((r, i) => [revs[i], JSON.stringify([r.path])])),
  );
  const files = removals.filter((r) => r.inode.type === "file");
  counters.add("inode_count", -removals.length);
  counters.add("file_count", -files.length);
  counters.add("size_bytes", -files.reduce((sum, r) => sum + r.inode.size, 0));
  counters.setRevision(first + removals.length - 1);
  for (const r of removals) {
    cache.entries.set(`${r.parent}/${r.name}`, null);
    cache.inodes.delete(r.inode.ino);
    cache.completeDirs.delete(r.inode.ino);
  }
  return revs;
}

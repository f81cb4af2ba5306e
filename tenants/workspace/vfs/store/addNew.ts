/**
 * Many new entries at once (container sync, execs/syncApply.ts): one statement per table
 * rather than several per entry.
 */
import { INODE_COLUMNS } from "../schema.ts";
import type { StoreParts } from "./parts.ts";
import type { Inode, NewEntry } from "./types.ts";

/**
 * Adds new files (their chunks' blobs already put) and empty directories, each where
 * nothing is, in one statement per table rather than several per entry: what `commitWrite`
 * and `mkdir` with their attributes would do one after another, each entry in a revision
 * of its own, in order. An entry's parent is a directory the tree has or one made earlier
 * in the list. The caller has checked every name and limit (inodes, bytes, entries per
 * directory); this only writes.
 *
 * A directory whose entries change here gets one new version, born at the first revision
 * that added to it, with its final entry count and time (now), not one version per entry
 * added; the entries themselves each have their own revision.
 */
export function addNew(parts: StoreParts, entries: readonly NewEntry[]): { ino: number; rev: number }[] {
  const { sql, cache, counters, history } = parts;
  if (entries.length === 0) return [];
  const first = history.nextRev();
  const now = parts.nowMs();
  const firstIno = sql
    .exec<{ ino: number }>(
      `SELECT max(coalesce((SELECT max(ino) FROM inodes), 0), coalesce((SELECT max(ino) FROM inodes_hist), 0)) + 1 AS ino`,
    )
    .one().ino;
  const made = entries.map((_, i) => ({ ino: firstIno + i, rev: first + i }));
  const parentOf = (entry: NewEntry) =>
    typeof entry.parent === "number" ? entry.parent : (made[entry.parent.made] as { ino: number }).ino;
  // What each directory gains: entries, subdirectories, and the first revision that adds to it.
  const gains = new Map<number, { entries: number; subdirs: number; rev: number }>();
  entries.forEach((entry, i) => {
    const parent = parentOf(entry);
    const gain = gains.get(parent) ?? { entries: 0, subdirs: 0, rev: (made[i] as { rev: number }).rev };
    gain.entries++;
    if (entry.type === "dir") gain.subdirs++;
    gains.set(parent, gain);
  });
  const newInos = new Set(made.map((m) => m.ino));
  const rule = history.keepRule();
  for (const [dir, gain] of gains) {
    if (newInos.has(dir)) continue;
    // As retireInode: a run's own version of the directory is not kept (collapses).
    if (rule && !(history.runActing && history.collapses(parts.inode(dir)?.born_rev, gain.rev))) {
      const [condition, , windowOn, newestPin] = rule;
      sql.exec(
        `INSERT INTO inodes_hist (${INODE_COLUMNS}, died_rev) SELECT ${INODE_COLUMNS}, ? FROM inodes WHERE ino = ? AND ${condition}`,
        gain.rev,
        dir,
        gain.rev,
        windowOn,
        newestPin,
      );
    }
    sql.exec(
      `UPDATE inodes SET entries = entries + ?, nlink = nlink + ?, mtime_ms = ?, mtime_nsec = 0, ctime_ms = ?, born_rev = ?
       WHERE ino = ?`,
      gain.entries,
      gain.subdirs,
      now,
      now,
      gain.rev,
      dir,
    );
    cache.inodes.delete(dir);
  }
  const inodes: Inode[] = entries.map((entry, i) => {
    const { ino, rev } = made[i] as { ino: number; rev: number };
    const gain = gains.get(ino);
    // A directory that gained entries here was changed after its attributes were set: now.
    const mtime = gain || !entry.mtime ? { ms: now, nsec: 0 } : entry.mtime;
    return {
      ino,
      type: entry.type,
      mode: entry.mode,
      size: entry.size,
      mtime_ms: mtime.ms,
      mtime_nsec: mtime.nsec,
      ctime_ms: now,
      etag: entry.etag,
      target: null,
      entries: gain?.entries ?? 0,
      uid: entry.uid,
      gid: entry.gid,
      nlink: entry.type === "dir" ? 2 + (gain?.subdirs ?? 0) : 1,
      born_rev: rev,
    };
  });
  const at = (i: number) => `json_extract(value, '$[${i}]')`;
  sql.exec(
    `INSERT INTO inodes (${INODE_COLUMNS}) SELECT ${INODE_COLUMNS.split(", ")
      .map((_, i) => at(i))
      .join(", ")} FROM json_each(?)`,
    JSON.stringify(inodes.map((row) => INODE_COLUMNS.split(", ").map((column) => row[column as keyof Inode]))),
  );
  sql.exec(
    `INSERT INTO dirents (parent, name, ino, born_rev) SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)} FROM json_each(?)`,
    JSON.stringify(entries.map((entry, i) => [parentOf(entry), entry.name, made[i]?.ino, made[i]?.rev])),
  );
  const chunks = entries.flatMap((entry, i) =>
    entry.chunks.map((chunk, idx) => [made[i]?.ino, idx, chunk.hash, chunk.size, made[i]?.rev]),
  );
  if (chunks.length > 0) {
    const list = JSON.stringify(chunks);
    sql.exec(
      `INSERT INTO file_chunks (ino, idx, hash, size, born_rev) SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)}, ${at(4)} FROM json_each(?)`,
      list,
    );
    // A chunk several new files use gains one reference per use.
    const uses = new Map<string, number>();
    for (const entry of entries)
      for (const chunk of entry.chunks) uses.set(chunk.hash, (uses.get(chunk.hash) ?? 0) + 1);
    sql.exec(
      `UPDATE blobs SET refs = refs + ${at(1).replace("value", "u.value")} FROM json_each(?) AS u
       WHERE blobs.hash = ${at(0).replace("value", "u.value")}`,
      JSON.stringify([...uses]),
    );
  }
  sql.exec(
    `INSERT INTO changes (rev, at_ms, op, paths, actor) SELECT ${at(0)}, ?, ${at(1)}, ${at(2)}, ? FROM json_each(?)`,
    now,
    parts.actor,
    JSON.stringify(
      entries.map((entry, i) => [made[i]?.rev, entry.type === "dir" ? "mkdir" : "write", JSON.stringify([entry.path])]),
    ),
  );
  const files = entries.filter((entry) => entry.type === "file");
  counters.add("inode_count", entries.length);
  counters.add("file_count", files.length);
  counters.add(
    "size_bytes",
    files.reduce((sum, entry) => sum + entry.size, 0),
  );
  counters.setRevision(first + entries.length - 1);
  cache.makeRoom();
  entries.forEach((entry, i) => {
    const row = inodes[i] as Inode;
    cache.inodes.set(row.ino, row);
    cache.entries.set(`${parentOf(entry)}/${entry.name}`, row.ino);
    if (row.type === "dir") cache.completeDirs.add(row.ino);
  });
  return made;
}

/**
 * Writing the tree one row at a time: creating inodes, naming them in directories (links,
 * renames, unlinks), updating and destroying them, with directory entry counts, the
 * counters and history's keep rules moved along. Every change updates or drops exactly the
 * cache entries it touched.
 */
import { workspaceLimits } from "../../limits.ts";
import { FsAbort, fail } from "../errors.ts";
import { DEFAULT_OWNER, ROOT_INO } from "../schema.ts";
import type { PreciseTime } from "../times.ts";
import type { Chunks } from "./chunks.ts";
import type { StoreParts } from "./parts.ts";
import type { Inode, InodeType } from "./types.ts";

export class TreeWriter {
  constructor(
    private readonly parts: StoreParts,
    private readonly content: Chunks,
  ) {}

  createInode(
    type: InodeType,
    mode: number,
    fields: { target?: string; size?: number; etag?: string; uid?: number; gid?: number; mtime?: PreciseTime } = {},
  ): number {
    if (this.parts.counters.get("inode_count") >= workspaceLimits.inodesMax) {
      throw new FsAbort(fail("ENOSPC", `a workspace holds at most ${workspaceLimits.inodesMax} entries`));
    }
    const now = this.parts.nowMs();
    const row = this.parts.sql
      .exec<{ ino: number }>(
        // The number is past any a history row holds, so one inode number is one file in
        // every version (a diff tells a rename from a delete and a create by it).
        `INSERT INTO inodes (ino, type, mode, size, mtime_ms, mtime_nsec, ctime_ms, etag, target, uid, gid, nlink, born_rev)
         VALUES (max(coalesce((SELECT max(ino) FROM inodes), 0), coalesce((SELECT max(ino) FROM inodes_hist), 0)) + 1,
         ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ino`,
        type,
        mode,
        fields.size ?? 0,
        fields.mtime?.ms ?? now,
        fields.mtime?.nsec ?? 0,
        now,
        fields.etag ?? null,
        fields.target ?? null,
        fields.uid ?? DEFAULT_OWNER.uid,
        fields.gid ?? DEFAULT_OWNER.gid,
        type === "dir" ? 2 : 1,
        this.parts.history.nextRev(),
      )
      .one();
    // A new directory is empty, so it is complete in the cache from the start.
    if (type === "dir") this.parts.cache.completeDirs.add(row.ino);
    this.parts.counters.add("inode_count", 1);
    if (type === "file") this.parts.counters.add("file_count", 1);
    return row.ino;
  }

  /**
   * Names `ino` (of type `type`) as `name` in directory `parent`, counting it there. A new
   * name for an inode that already has one (a hard link) also needs `addLink`.
   */
  link(parent: number, name: string, ino: number, type: InodeType): void {
    if ((this.parts.inode(parent)?.entries ?? 0) >= workspaceLimits.entriesPerDirectoryMax) {
      throw new FsAbort(fail("EMLINK", `a directory holds at most ${workspaceLimits.entriesPerDirectoryMax} entries`));
    }
    this.parts.sql.exec(
      "INSERT INTO dirents (parent, name, ino, born_rev) VALUES (?, ?, ?, ?)",
      parent,
      name,
      ino,
      this.parts.history.nextRev(),
    );
    this.parts.cache.entries.set(`${parent}/${name}`, ino);
    this.countEntries(parent, 1, type === "dir" ? 1 : 0);
  }

  /** One more name for a file or link: its link count goes up and its ctime moves. */
  addLink(ino: number): void {
    const inode = this.parts.inode(ino);
    if (!inode) return;
    if (inode.nlink >= workspaceLimits.linksPerInodeMax) {
      throw new FsAbort(fail("EMLINK", `a file has at most ${workspaceLimits.linksPerInodeMax} links`));
    }
    this.updateInode(ino, { nlink: inode.nlink + 1 });
  }

  /**
   * Removes the name `name` from `parent`, which names `child`, and lets go of the inode:
   * a file or link keeps living while another name holds it; a directory (emptied by the
   * caller) goes with its one name.
   */
  unlink(parent: number, name: string, child: Inode): void {
    this.parts.history.retireEntry(parent, name);
    this.parts.sql.exec("DELETE FROM dirents WHERE parent = ? AND name = ?", parent, name);
    this.parts.cache.entries.set(`${parent}/${name}`, null);
    this.countEntries(parent, -1, child.type === "dir" ? -1 : 0);
    this.release(child.ino);
  }

  /** Moves an entry to another directory and name: the one-row rename. */
  relink(ino: number, type: InodeType, from: { parent: number; name: string }, to: { parent: number; name: string }) {
    this.parts.history.retireEntry(from.parent, from.name);
    this.parts.sql.exec(
      "UPDATE dirents SET parent = ?, name = ?, born_rev = ? WHERE parent = ? AND name = ?",
      to.parent,
      to.name,
      this.parts.history.nextRev(),
      from.parent,
      from.name,
    );
    this.parts.cache.entries.set(`${from.parent}/${from.name}`, null);
    this.parts.cache.entries.set(`${to.parent}/${to.name}`, ino);
    const subdir = type === "dir" ? 1 : 0;
    this.countEntries(from.parent, -1, -subdir);
    this.countEntries(to.parent, 1, subdir);
  }

  /**
   * Deletes one entry inside a subtree being deleted whole (its parent goes too), and lets
   * go of the inode it names, which lives on if a name outside the subtree holds it.
   */
  dropEntry(entry: { parent: number; name: string; ino: number }): void {
    this.parts.history.retireEntry(entry.parent, entry.name);
    this.parts.sql.exec("DELETE FROM dirents WHERE parent = ? AND name = ?", entry.parent, entry.name);
    this.parts.cache.entries.set(`${entry.parent}/${entry.name}`, null);
    this.release(entry.ino);
  }

  /** One name fewer: at zero the inode and its content go, otherwise its link count drops. */
  private release(ino: number): void {
    const inode = this.parts.inode(ino);
    if (!inode) return;
    if (inode.type === "dir" || inode.nlink <= 1) this.destroyInode(inode);
    else this.updateInode(ino, { nlink: inode.nlink - 1 });
  }

  private countEntries(dir: number, delta: number, subdirDelta: number): void {
    const now = this.parts.nowMs();
    this.parts.history.retireInode(dir);
    this.parts.sql.exec(
      `UPDATE inodes SET entries = entries + ?, nlink = nlink + ?, mtime_ms = ?, mtime_nsec = 0, ctime_ms = ?, born_rev = ?
       WHERE ino = ?`,
      delta,
      subdirDelta,
      now,
      now,
      this.parts.history.nextRev(),
      dir,
    );
    this.parts.cache.inodes.delete(dir);
  }

  /**
   * Every path naming `ino`, sorted; `known` (one of them) alone when it has one name. A
   * change to an inode's content or metadata changes what each of its names shows, so the
   * change log lists them all (container sync pulls by path).
   */
  namesOf(ino: number, known: string): string[] {
    const inode = this.parts.inode(ino);
    if (!inode || inode.type === "dir" || inode.nlink <= 1) return [known];
    return this.parts.sql
      .exec<{ path: string }>(
        `WITH RECURSIVE up(parent, path) AS (
           SELECT parent, '/' || name FROM dirents WHERE ino = ?
           UNION ALL
           SELECT d.parent, '/' || d.name || up.path FROM up JOIN dirents d ON d.ino = up.parent
         )
         SELECT path FROM up WHERE parent = ? ORDER BY path`,
        ino,
        ROOT_INO,
      )
      .toArray()
      .map((row) => row.path);
  }

  /** Deletes an inode that no entry names any more, releasing its content. */
  destroyInode(inode: Inode): void {
    if (inode.type === "file") {
      this.content.release(inode.ino);
      this.parts.counters.add("size_bytes", -inode.size);
      this.parts.counters.add("file_count", -1);
    }
    this.parts.history.retireInode(inode.ino);
    this.parts.sql.exec("DELETE FROM inodes WHERE ino = ?", inode.ino);
    this.parts.cache.inodes.delete(inode.ino);
    this.parts.cache.completeDirs.delete(inode.ino);
    this.parts.counters.add("inode_count", -1);
  }

  /**
   * Sets some of an inode's fields; ctime always moves, as it does on Linux. `mtime: true`
   * sets the modification time to now, a PreciseTime to exactly that.
   */
  updateInode(
    ino: number,
    fields: {
      mode?: number;
      size?: number;
      etag?: string;
      mtime?: boolean | PreciseTime;
      uid?: number;
      gid?: number;
      nlink?: number;
    },
  ): void {
    const now = this.parts.nowMs();
    const inode = this.parts.inode(ino);
    if (!inode) return;
    const mtime =
      fields.mtime === true
        ? { ms: now, nsec: 0 }
        : fields.mtime
          ? fields.mtime
          : { ms: inode.mtime_ms, nsec: inode.mtime_nsec };
    this.parts.history.retireInode(ino);
    this.parts.sql.exec(
      `UPDATE inodes SET mode = ?, size = ?, etag = ?, mtime_ms = ?, mtime_nsec = ?, ctime_ms = ?, uid = ?, gid = ?,
       nlink = ?, born_rev = ? WHERE ino = ?`,
      fields.mode ?? inode.mode,
      fields.size ?? inode.size,
      fields.etag ?? inode.etag,
      mtime.ms,
      mtime.nsec,
      now,
      fields.uid ?? inode.uid,
      fields.gid ?? inode.gid,
      fields.nlink ?? inode.nlink,
      this.parts.history.nextRev(),
      ino,
    );
    this.parts.cache.inodes.delete(ino);
  }
}
